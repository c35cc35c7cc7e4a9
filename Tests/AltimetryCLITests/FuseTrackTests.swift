import Altimetry
import Foundation
import Simulation
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

@Suite("Fuse: resume and tracks")
struct FuseTrackTests {
    /// A simulated building visit of `duration` seconds, as input CSV.
    static func simulated(seed: UInt64, duration: Double) throws -> String {
        let recording = try Scenario.named(.building, seed: seed, duration: duration).simulate()
        return String(decoding: SimulateCommand.csv(recording.readings), as: UTF8.self)
    }

    @Test("Fusing a file in two chunks with --save-state and --resume gives the whole file's output bit for bit")
    func chunkedResume() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let text = try Self.simulated(seed: 3, duration: 300)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let header = lines[0]
        let cut = lines.count / 2
        let whole = try dir.file("whole.csv", text)
        let first = try dir.file("first.csv", ([header] + lines[1..<cut]).joined(separator: "\n") + "\n")
        let second = try dir.file("second.csv", ([header] + lines[cut...]).joined(separator: "\n") + "\n")
        let all = runAltimetry(["fuse", whole])
        let a = runAltimetry(["fuse", first, "--save-state", dir.path("state.json")])
        let b = runAltimetry(["fuse", second, "--resume", dir.path("state.json")])
        #expect(all.code == .success && a.code == .success && b.code == .success)
        let bBody = b.out.split(separator: "\n", maxSplits: 1).last.map(String.init) ?? ""
        #expect(a.out + bBody == all.out)
        #expect(all.out.split(separator: "\n").count == lines.count)
    }

    /// A progress line for long inputs when stderr is a terminal, silence when it is not. 400,000 rows (about 7 MB)
    /// are more than the 4 MB of input after which the streaming path reports. The fixed model: the subject is the
    /// reader's progress, and the bank would take ten times as long over the same rows.
    @Test("A long input shows progress lines on a terminal and none otherwise", arguments: [true, false])
    func progress(terminal: Bool) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var text = "t,pressure_hpa,gps_alt_m\n"
        for k in 0..<400_000 { text += k % 2 == 0 ? "\(k),1000.00,110.0\n" : "\(k),1000.00,\n" }
        let input = try dir.file("long.csv", text)
        let captured = CapturingConsole()
        var console = captured.console
        console.errorIsTerminal = terminal
        let code = AltimetryCommandLine.run(
            arguments: ["fuse", input, "--out", dir.path("out.csv"), "--jobs", "1", "--adapt", "off"],
            console: console)
        #expect(code == .success)
        #expect(captured.standardError.contains("rows read...\r") == terminal, "\(captured.standardError.prefix(300))")
        #expect(captured.standardError.contains("fusing: ") == terminal)
    }

    @Test("--resume with model options is a usage error")
    func resumeWithOptions() {
        #expect(runAltimetry(["fuse", "a.csv", "--resume", "s.json", "--gps-sigma", "5"]).code == .usage)
        #expect(runAltimetry(["fuse", "a.csv", "--smooth", "--save-state", "s.json"]).code == .usage)
    }

    @Test("Interleaved tracks are fused independently and keep the input order, on one core or two")
    func multiTrack() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let tracks = try (1...3).map { seed in
            try Self.simulated(seed: UInt64(seed), duration: 120).split(separator: "\n").dropFirst().map(String.init)
        }
        var merged = ["track_id,t,pressure_hpa,gps_alt_m,gps_vacc_m,true_alt_m"]
        var expectedOrder: [(Int, Int)] = []
        let longest = tracks.map(\.count).max() ?? 0
        for k in 0..<longest {
            for (i, track) in tracks.enumerated() where k < track.count {
                merged.append("walk-\(i),\(track[k])")
                expectedOrder.append((i, k))
            }
        }
        let input = try dir.file("tracks.csv", merged.joined(separator: "\n") + "\n")
        let one = runAltimetry(["fuse", input, "--jobs", "1"])
        let two = runAltimetry(["fuse", input, "--jobs", "2"])
        #expect(one.code == .success)
        #expect(one.out == two.out)
        let single = try tracks.enumerated().map { i, track in
            let path = try dir.file(
                "single-\(i).csv",
                "t,pressure_hpa,gps_alt_m,gps_vacc_m,true_alt_m\n" + track.joined(separator: "\n") + "\n")
            return runAltimetry(["fuse", path]).out.split(separator: "\n").dropFirst().map(String.init)
        }
        let lines = one.out.split(separator: "\n").map(String.init)
        try #require(lines.count == expectedOrder.count + 1)
        #expect(lines[0].hasPrefix("t,track_id,altitude_m"))
        for (row, (i, k)) in expectedOrder.enumerated() {
            // The single-track line lacks the track_id cell after t.
            var cells = lines[row + 1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            #expect(cells[1] == "walk-\(i)")
            cells.remove(at: 1)
            #expect(cells.joined(separator: ",") == single[i][k])
        }
        #expect(one.err.contains("track 'walk-2': final altitude"))
    }

    /// The smoother's property holds within one model: the fixed one (`--adapt off`); with the receiver learned, the
    /// smoother is the fixed model of the receiver learned over the whole track.
    @Test("--smooth outputs a track whose sigma is never above the filtered one")
    func smooth() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = try dir.file("walk.csv", try Self.simulated(seed: 5, duration: 200))
        func sigmas(_ out: String) -> [Double] {
            out.split(separator: "\n").dropFirst().compactMap {
                Double($0.split(separator: ",", omittingEmptySubsequences: false)[2])
            }
        }
        let filtered = sigmas(runAltimetry(["fuse", input, "--adapt", "off"]).out)
        let smoothed = sigmas(runAltimetry(["fuse", input, "--smooth", "--adapt", "off"]).out)
        try #require(filtered.count == smoothed.count && !filtered.isEmpty)
        // 0.001 m: both are printed to 1 mm.
        for (f, s) in zip(filtered, smoothed) { #expect(s <= f + 0.001) }
        #expect(smoothed[0] < filtered[0])
    }

    @Test("Model options change the result, and --params reads the same parameters from JSON")
    func modelOptions() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = try dir.file("walk.csv", try Self.simulated(seed: 6, duration: 120))
        let params = try dir.file(
            "p.json",
            "{\"gps_sigma\": 4, \"gps_tau\": 30, \"gate_sigmas\": null, \"fronts\": false, \"weather_tendency_q\": 0, \"baro_velocity_time\": 0, \"column\": false, \"faults\": false, \"noise_at_state\": false, \"baro_sigma_learned\": false}"
        )
        let defaults = runAltimetry(["fuse", input]).out
        let options = runAltimetry([
            "fuse", input, "--gps-sigma", "4", "--gps-tau", "30", "--gate", "off", "--fronts", "off",
        ])
        let file = runAltimetry(["fuse", input, "--params", params])
        #expect(options.code == .success)
        #expect(options.out != defaults)
        #expect(options.out == file.out)
        #expect(runAltimetry(["fuse", input, "--gps-sigma", "-1"]).code == .usage)
    }

    @Test("--gate off --fronts off is the plain three-state model")
    func plainMode() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let recording = try Scenario.named(.building, seed: 8, duration: 300).simulate()
        let text = String(decoding: SimulateCommand.csv(recording.readings), as: UTF8.self)
        let input = try dir.file("walk.csv", text)
        let run = runAltimetry(["fuse", input, "--gate", "off", "--fronts", "off"])
        // The filter is fed the values as written to the file (rounded), read back with a plain split.
        let cells = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let inputHeader = try #require(cells.first)
        let (ti, pi, gi) = (
            try #require(inputHeader.firstIndex(of: "t")), try #require(inputHeader.firstIndex(of: "pressure_hpa")),
            try #require(inputHeader.firstIndex(of: "gps_alt_m"))
        )
        let readings = cells.dropFirst().compactMap { row -> AltitudeReading? in
            guard let t = Double(row[ti]) else { return nil }
            return AltitudeReading(time: t, pressure: Double(row[pi]), gpsAltitude: Double(row[gi]))
        }
        #expect(run.code == .success)
        let lines = run.out.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let header = try #require(lines.first)
        let column = try #require(header.firstIndex(of: "altitude_m"))
        var filter = try AltitudeFilter(parameters: .plain)
        #expect(readings.count == recording.readings.count)
        for (row, reading) in zip(lines.dropFirst(), readings) {
            let e = try filter.process(
                AltitudeReading(time: reading.time, pressure: reading.pressure, gpsAltitude: reading.gpsAltitude))
            let printed = try #require(Double(row[column]))
            // The CSV prints altitudes to the millimetre.
            #expect(abs(printed - e.altitude) <= 0.0005 + 1e-9, "t = \(reading.time)")
        }
    }
}
