import Foundation
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

/// Every command that reads a recording takes the same input options and says the same things about them.
@Suite("Command input options")
struct CommandInputTests {
    /// The commands that read an INPUT, and whether each reads one track.
    static let commands: [(command: any Command.Type, needsOneTrack: Bool)] = [
        (FuseCommand.self, false), (AscentCommand.self, true), (EvaluateCommand.self, true),
        (CalibrateCommand.self, true), (PlotCommand.self, true), (IdentifyCommand.self, true),
        (FloorsCommand.self, true),
    ]

    static var names: [String] { commands.map { $0.command.name } }

    /// A two-track CSV with a barometer and GPS on every row, 10 minutes long.
    static func twoTracks(_ directory: TemporaryDirectory) throws -> String {
        var text = "t,track_id,pressure_hpa,gps_alt_m,gps_vacc_m\n"
        for k in 0..<600 {
            for (track, base) in [("north", 900.0), ("south", 905.0)] {
                text += "\(k),\(track),\(base - Double(k) * 0.001),\(1000 + Double(k) * 0.01),5\n"
            }
        }
        return try directory.file("two.csv", text)
    }

    @Test("Every command lists --ele, --pressure, --track, --skip-invalid and --vacc-confidence", arguments: names)
    func sameOptions(name: String) throws {
        let command = try #require(Self.commands.first { $0.command.name == name }?.command)
        let declared = Set(command.options.map(\.name))
        for option in InputOptions.options { #expect(declared.contains(option.name), "\(name) --\(option.name)") }
        let help = command.help
        for option in InputOptions.options {
            #expect(help.contains("--\(option.name) ") && help.contains(option.help), "\(name) --\(option.name)")
        }
    }

    @Test("A bad --ele or --vacc-confidence gets the same message from every command", arguments: names)
    func sameMessages(name: String) {
        let ele = runAltimetry([name, "x.csv", "--ele", "radar"])
        #expect(ele.code == .usage && ele.err.contains("option '--ele' expects gps or barometric, got 'radar'"))
        let vacc = runAltimetry([name, "x.csv", "--vacc-confidence", "2"])
        #expect(vacc.code == .usage && vacc.err.contains("option '--vacc-confidence' expects 0.68 or 0.95, got '2'"))
    }

    @Test("A one-track command on two tracks without --track names them; --track by name or number picks one")
    func oneTrack() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try Self.twoTracks(directory)
        for (command, needsOne) in Self.commands {
            let bare = runAltimetry([command.name, file])
            if needsOne {
                #expect(bare.code == .usage, "\(command.name): \(bare.err)")
                #expect(
                    bare.err.contains(
                        "found 2 tracks; \(command.name) reads one: expected --track with one of 1 'north', 2 'south'"),
                    "\(command.name): \(bare.err)")
            } else {
                #expect(bare.code == .success, "\(command.name): \(bare.err)")
            }
            let unknown = runAltimetry([command.name, file, "--track", "east"])
            #expect(unknown.code == .usage, "\(command.name)")
            #expect(
                unknown.err.contains("found no track 'east'; expected one of 1 'north', 2 'south'"),
                "\(command.name): \(unknown.err)")
            let byName = runAltimetry([command.name, file, "--track", "south"])
            let byNumber = runAltimetry([command.name, file, "--track", "2"])
            #expect(byName.code == .success, "\(command.name): \(byName.err)")
            #expect(byName.out == byNumber.out && !byName.out.isEmpty, "\(command.name)")
        }
    }

    @Test("fuse --track keeps only that track's rows")
    func fuseTrack() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = runAltimetry(["fuse", try Self.twoTracks(directory), "--track", "north"])
        let lines = run.out.split(separator: "\n").dropFirst()
        #expect(lines.count == 600 && lines.allSatisfy { $0.contains(",north,") })
    }

    @Test("Every command reads a FIT file without an extension as it reads the named one", arguments: names)
    func fitWithoutExtension(name: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let data = try FITReaderTests.fixture("barometer.fit")
        let named = directory.path("barometer.fit"), bare = directory.path("upload")
        try data.write(to: URL(fileURLWithPath: named))
        try data.write(to: URL(fileURLWithPath: bare))
        let a = runAltimetry([name, named, "--skip-invalid"]), b = runAltimetry([name, bare, "--skip-invalid"])
        // `evaluate` and `plot` name their input in what they print.
        #expect(a.code == b.code, "\(name): \(b.err)")
        #expect(a.out.replacingOccurrences(of: "barometer.fit", with: "upload") == b.out, "\(name)")
        #expect(!b.err.contains("header"), "\(name) read it as CSV: \(b.err)")
    }

    @Test("--skip-invalid keeps every command going past a row whose time went backwards", arguments: names)
    func skipInvalid(name: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var text = "t,pressure_hpa,gps_alt_m,gps_vacc_m\n"
        for k in 0..<600 { text += "\(k == 300 ? 5 : k),\(900 - Double(k) * 0.001),\(1000 + Double(k) * 0.01),5\n" }
        let file = try directory.file("back.csv", text)
        let strict = runAltimetry([name, file])
        #expect(strict.code == .dataError && strict.err.contains("back.csv:302"), "\(name): \(strict.err)")
        let skipping = runAltimetry([name, file, "--skip-invalid"])
        #expect(skipping.code == .success, "\(name): \(skipping.err)")
        #expect(skipping.err.contains("skipped: ") && skipping.err.contains("back.csv:302"), "\(name)")
    }

    /// Ten minutes of a slow climb a second, in each format every command reads, as (extension, bytes).
    static func formats() throws -> [(String, Data)] {
        let times = (0..<600).map { $0 }
        let pressure = { (k: Int) in 900 - Double(k) * 0.002 }, gps = { (k: Int) in 1000 + Double(k) * 0.02 }
        let csv =
            "t,pressure_hpa,gps_alt_m,gps_vacc_m\n" + times.map { "\($0),\(pressure($0)),\(gps($0)),5\n" }.joined()
        let ndjson = times.map { "{\"t\": \($0), \"pressure_hpa\": \(pressure($0)), \"gps_alt_m\": \(gps($0))}\n" }
            .joined()
        let gpx = DeviceElevationTests.gpx(600) { "\(gps($0))" }
        let tcx = TCXReaderTests.tcx(
            times.map {
                "<Trackpoint><Time>\(DeviceElevationTests.time($0))</Time><AltitudeMeters>\(gps($0))</AltitudeMeters></Trackpoint>"
            }.joined(separator: "\n"))
        return [
            ("csv", Data(csv.utf8)), ("ndjson", Data(ndjson.utf8)), ("gpx", gpx), ("tcx", tcx),
            ("fit", try FITReaderTests.fixture("barometer.fit")),
            ("igc", try IGCReaderTests.fixture("skydrop-2019-04-15.igc")),
        ]
    }

    @Test(
        "Every command reads every format by its content: a file without an extension gives what the named one gives",
        arguments: names)
    func everyFormat(name: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for (ext, data) in try Self.formats() {
            let named = directory.path("track.\(ext)"), bare = directory.path("upload-\(ext)")
            try data.write(to: URL(fileURLWithPath: named))
            try data.write(to: URL(fileURLWithPath: bare))
            do {
                let a = runAltimetry([name, named, "--skip-invalid"]), b = runAltimetry([name, bare, "--skip-invalid"])
                #expect(a.code == b.code, "\(name) \(ext): \(a.err) / \(b.err)")
                #expect(
                    a.out.replacingOccurrences(of: "track.\(ext)", with: "upload-\(ext)") == b.out, "\(name) \(ext)")
                // Formats with a barometer and GPS on every row: every command runs.
                if ["csv", "ndjson", "igc"].contains(ext) { #expect(b.code == .success, "\(name) \(ext): \(b.err)") }
                if ["gpx", "tcx", "fit", "igc"].contains(ext) {
                    #expect(b.err.contains("elevation read as"), "\(name) \(ext): \(b.err)")
                }
            }
        }
    }
}
