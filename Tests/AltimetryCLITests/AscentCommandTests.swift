import Altimetry
import Foundation
import Simulation
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

@Suite("AscentCommand")
struct AscentCommandTests {
    @Test(
        "GIVEN ten minutes of rolling terrain WHEN ascent --json runs THEN every key of the issue is there and the totals match the library"
    )
    func json() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let recording = try Scenario.named(.rolling, seed: 4, duration: 600).simulate()
        let input = try dir.file(
            "rolling.csv", String(decoding: SimulateCommand.csv(recording.readings), as: UTF8.self))
        let result = runAltimetry(["ascent", input, "--json"])
        #expect(result.code == .success, "\(result.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        for key in [
            "ascent_m", "ascent_sigma_m", "descent_m", "descent_sigma_m", "highest_m", "highest_sigma_m", "lowest_m",
            "lowest_sigma_m", "temperature_assumed", "gps_only", "barometer_only", "segments",
        ] {
            #expect(object[key] != nil, "missing \(key)")
        }
        let gps = try #require(object["gps_only"] as? [[String: Any]])
        #expect(gps.compactMap { $0["hysteresis_m"] as? Double } == [0, 3, 5, 10])
        let segments = try #require(object["segments"] as? [[String: Any]])
        #expect(segments.count >= 8)  // four hills and a bit: about 9 climbs and descents
        #expect(segments.allSatisfy { ($0["gain_m"] as? Double).map { abs($0) > 1 } ?? false })
        // The command reads what the file holds (times and values in CSV precision), so compare loosely with the
        // library on the simulated readings themselves.
        let readings = recording.readings.map {
            AltitudeReading(time: $0.time, pressure: $0.pressure, gpsAltitude: $0.gpsAltitude)
        }
        let report = try AscentAnalysis.measure(readings)
        let ascent = try #require(object["ascent_m"] as? Double)
        #expect(abs(ascent - report.ascent.value) < 0.1, "\(ascent) against \(report.ascent.value)")
        #expect(object["temperature_assumed"] as? Bool == true)
    }

    @Test(
        "GIVEN two tracks WHEN fuse --smooth --summary runs THEN each track's summary holds its ascent as ascent --json gives it; without --smooth none"
    )
    func fuseSummary() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var csv = "track_id,t,pressure_hpa,gps_alt_m,gps_vacc_m,true_alt_m\n"
        var single: [String: String] = [:]
        for (name, seed) in [("a", 4), ("b", 5)] as [(String, UInt64)] {
            let recording = try Scenario.named(.rolling, seed: seed, duration: 600).simulate()
            let text = String(decoding: SimulateCommand.csv(recording.readings), as: UTF8.self)
            let lines = text.split(separator: "\n").dropFirst()
            single[name] = try dir.file("\(name).csv", text)
            #expect(
                text.hasPrefix("t,pressure_hpa,gps_alt_m,gps_vacc_m,true_alt_m\n"),
                "the simulated columns changed: \(text.prefix(60))")
            for line in lines { csv += "\(name),\(line)\n" }
        }
        let input = try dir.file("tracks.csv", csv)
        let summary = dir.path("summary.json")
        let fused = runAltimetry(["fuse", input, "--smooth", "--summary", summary, "--out", dir.path("out.csv")])
        #expect(fused.code == .success, "\(fused.err)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: summary))) as? [String: Any])
        let tracks = try #require(object["tracks"] as? [[String: Any]])
        #expect(tracks.count == 2)
        for track in tracks {
            let name = try #require(track["track"] as? String)
            let ascent = try #require(track["ascent"] as? [String: Any], "track \(name) has no ascent")
            let alone = runAltimetry(["ascent", try #require(single[name]), "--json"])
            let expected = try #require(try JSONSerialization.jsonObject(with: Data(alone.out.utf8)) as? [String: Any])
            // The same readings through the same method: the same document, key for key (compared as sorted JSON).
            let canonical = { (object: [String: Any]) throws -> String in
                String(
                    decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
            }
            #expect(try canonical(ascent) == canonical(expected), "track \(name)")
        }
        let unsmoothed = dir.path("plain.json")
        #expect(
            runAltimetry(["fuse", input, "--summary", unsmoothed, "--out", dir.path("plain.csv")]).code == .success)
        let plain = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: unsmoothed))) as? [String: Any]
        )
        #expect((plain["tracks"] as? [[String: Any]])?.allSatisfy { $0["ascent"] == nil } == true)
    }

    @Test("The text output names the totals, the hysteresis, the assumption and the comparisons")
    func text() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let recording = try Scenario.named(.rolling, seed: 5, duration: 300).simulate()
        let input = try dir.file(
            "rolling.csv", String(decoding: SimulateCommand.csv(recording.readings), as: UTF8.self))
        let result = runAltimetry(["ascent", input])
        #expect(result.code == .success)
        for text in [
            "Ascent: ", "Descent: ", "Highest: ", "Hysteresis: ", "Air column: temperature none in the track",
            "GPS only (gpxpy)", "Barometer only",
        ] {
            #expect(result.out.contains(text), "missing '\(text)'")
        }
    }

    @Test("A missing file is exit 66 naming it; a missing argument is a usage error")
    func errors() {
        let missing = runAltimetry(["ascent", "/nonexistent/walk.csv"])
        #expect(missing.code == .noInput && missing.err.contains("/nonexistent/walk.csv"))
        #expect(runAltimetry(["ascent"]).code == .usage)
        #expect(runAltimetry(["ascent", "--help"]).out.contains("USAGE: altimetry ascent INPUT"))
    }
}

/// `ascent` on real GPS-only device files against gpxpy's totals of the same files (`Fixtures/GPX`).
@Suite("Ascent on real GPS-only files")
struct RealGPSOnlyAscentTests {
    @Test("GIVEN a real GPS-only GPX WHEN ascent runs THEN ascent and descent are within 2 sigma or 15 % of gpxpy's")
    func againstGPXpy() throws {
        let folder = try #require(Bundle.module.url(forResource: "GPX", withExtension: nil, subdirectory: "Fixtures"))
        let totals = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("gpxpy_totals.json")))
                as? [String: [String: Any]])
        #expect(!totals.isEmpty)
        for (file, expected) in totals.sorted(by: { $0.key < $1.key }) {
            let run = runAltimetry(["ascent", folder.appendingPathComponent(file).path, "--json"])
            #expect(run.code == .success, "\(file): \(run.err)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
            for (ours, theirs) in [("ascent", "uphill_m"), ("descent", "downhill_m")] {
                let value = try #require(report["\(ours)_m"] as? Double)
                let sigma = try #require(report["\(ours)_sigma_m"] as? Double)
                let gpxpy = try #require(expected[theirs] as? Double)
                #expect(
                    abs(value - gpxpy) <= max(2 * sigma, 0.15 * gpxpy),
                    "\(file): \(ours) \(value) ± \(sigma) m, gpxpy \(gpxpy) m")
            }
        }
    }
}

/// The ascent of real FIT files (`Fixtures/Devices`) against the totals the devices recorded in their session
/// messages: GPS-only watches read as GPS, barometric ones as the command reads them.
@Suite("Ascent on real device FIT files")
struct DeviceSessionAscentTests {
    /// The device files without a barometer; the others have one.
    static let gpsOnly: Set = ["garmin-edge-200-ride.fit", "garmin-forerunner-110-run.fit"]

    static var folder: URL {
        get throws {
            try #require(Bundle.module.url(forResource: "Devices", withExtension: nil, subdirectory: "Fixtures"))
        }
    }

    /// `session_totals.json` (`make_session_totals.py`, fitdecode): per file its sessions and its last altitude.
    static var totals: [String: [String: Any]] {
        get throws {
            try #require(
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: folder.appendingPathComponent("session_totals.json")))
                    as? [String: [String: Any]])
        }
    }

    @Test("GIVEN a GPS-only watch's FIT WHEN its ascent is measured THEN it is within 2 sigma or 15 % of the device's")
    func againstSessionTotals() throws {
        let folder = try Self.folder
        let totals = try Self.totals.filter { Self.gpsOnly.contains($0.key) }
        #expect(totals.count == 2)
        for (file, entry) in totals.sorted(by: { $0.key < $1.key }) {
            let session = try #require((entry["sessions"] as? [[String: Any]])?.first)
            let table = try InputLoader.table(
                folder.appendingPathComponent(file).path, options: ReadOptions(elevation: .gps))
            let readings = table.rows.filter { $0.invalidReason == nil && $0.gpsAltitude != nil }.map {
                AltitudeReading(time: $0.time, gpsAltitude: $0.gpsAltitude, gpsVerticalAccuracy: $0.gpsVerticalAccuracy)
            }
            let report = try AscentAnalysis.measure(readings)
            for (figure, key) in [(report.ascent, "total_ascent_m"), (report.descent, "total_descent_m")] {
                let device = try #require(session[key] as? Double)
                #expect(
                    abs(figure.value - device) <= max(2 * figure.standardDeviation, 0.15 * device),
                    "\(file): \(key) \(figure.value) ± \(figure.standardDeviation) m, device \(device) m")
            }
        }
    }
}

extension DeviceSessionAscentTests {
    /// GIVEN the barometric watches' FIT files (an Edge 810, two Edge 500 rides and a fenix 2 run, from
    /// python-fitparse's tests), WHEN `ascent` measures them as it reads them (barometric, from the device) THEN
    /// ascent and descent are within max(2 sigma, 10 %) of the session totals the devices recorded.
    ///
    /// Known shortfall: the Edge 810's descent and the first Edge 500 ride's ascent come out 10 % low, the second Edge
    /// 500 ride 16 to 18 % low on both (the hysteresis grows with a reversal's duration as the model's weather allows,
    /// and these devices count their own smoothed altitude with less), and the fenix 2's descent holds the 87 m of its
    /// start spike, which the filter takes as motion (126 m against the device's 61 m).
    @Test(
        "GIVEN a barometric watch's FIT WHEN its ascent is measured THEN it is within 2 sigma or 10 % of the device's")
    func barometricAgainstSessionTotals() throws {
        let folder = try Self.folder
        let totals = try Self.totals.filter { !Self.gpsOnly.contains($0.key) }
        #expect(totals.count == 4)
        let within = [
            "garmin-edge-810-ride.fit:total_ascent_m", "garmin-edge-500-ride.fit:total_descent_m",
            "garmin-fenix-2-run.fit:total_ascent_m",
        ]
        for (file, entry) in totals.sorted(by: { $0.key < $1.key }) {
            let session = try #require((entry["sessions"] as? [[String: Any]])?.first)
            let run = runAltimetry(["ascent", folder.appendingPathComponent(file).path, "--json"])
            #expect(run.code == .success, "\(file): \(run.err)")
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
            for (figure, key) in [("ascent", "total_ascent_m"), ("descent", "total_descent_m")] {
                let value = try #require(report[figure + "_m"] as? Double)
                let sigma = try #require(report[figure + "_sigma_m"] as? Double)
                let device = try #require(session[key] as? Double)
                withKnownIssue("barometric FIT totals counted low") {
                    #expect(
                        abs(value - device) <= max(2 * sigma, 0.10 * device),
                        "\(file): \(figure) \(value) ± \(sigma) m, device \(device) m")
                } when: {
                    !within.contains("\(file):\(key)")
                }
            }
        }
    }

    /// GIVEN the fenix 2 run, whose barometric altitude reads 55 m, then 142.4 m for three seconds, then 56 m, WHEN it
    /// is fused THEN the track ends within 5 m of the device's last altitude (58.6 m).
    ///
    /// The second pressure came 2 s after the first, when one pressure had measured no velocity: the altitude walked
    /// at the rest density, and the weather took half the spike (the QNH fell 7.4 hPa), ending every later row 80 m
    /// below the device. A single pressure vouches for no motion (`MotionState.velocityHolds`).
    @Test("A spike at the start of a barometric FIT leaves no lasting offset")
    func startSpikeLeavesNoOffset() throws {
        let file = "garmin-fenix-2-run.fit"
        let device = try #require(try Self.totals[file]?["last_altitude_m"] as? Double)
        let run = runAltimetry(["fuse", try Self.folder.appendingPathComponent(file).path, "--format", "csv"])
        #expect(run.code == .success, "\(run.err)")
        let last = try #require(run.out.split(separator: "\n").last?.split(separator: ","))
        let altitude = try #require(Double(String(last[2])))
        #expect(abs(altitude - device) < 5, "fused \(altitude) m, device \(device) m")
    }
}
