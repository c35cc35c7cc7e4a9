import Altimetry
import Foundation
import Simulation
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

@Suite("EvaluateCommand")
struct EvaluateCommandTests {
    /// A simulated canyon walk as input CSV, with its truth in `true_alt_m`.
    static func canyon(_ dir: TemporaryDirectory, duration: Double = 1_800) throws -> String {
        let recording = try Scenario.named(.canyon, seed: 11, duration: duration).simulate()
        return try dir.file("canyon.csv", String(decoding: SimulateCommand.csv(recording.readings), as: UTF8.self))
    }

    @Test("Text: the truth, one row per estimator with every figure, the gated fixes and the final estimate")
    func text() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let result = runAltimetry(["evaluate", try Self.canyon(dir), "--from", "300"])
        #expect(result.code == .success, "\(result.err)")
        #expect(result.out.contains("Truth: true_alt_m"))
        for label in [
            "filter", "naive (cumulative)", "naive (600 s)", "RMSE", "mean error", "p95 |error|", "coverage", "NEES",
            "Gated fixes", "Final:", "default model",
        ] {
            #expect(result.out.contains(label), "missing \(label)")
        }
    }

    @Test("JSON: one object per estimator, whose figures agree with the library's evaluation of the same rows")
    func json() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = try Self.canyon(dir)
        let result = runAltimetry(["evaluate", input, "--json", "--from", "300", "--gps-sigma", "8"])
        #expect(result.code == .success, "\(result.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let estimators = try #require(object["estimators"] as? [[String: Any]])
        #expect(estimators.map { $0["name"] as? String } == ["kalman", "naive", "naive_600s"])
        for key in ["scored_rows", "rmse_m", "mean_error_m", "p95_abs_error_m", "coverage", "nees"] {
            #expect(estimators.allSatisfy { $0[key] is NSNumber }, "missing \(key)")
        }
        #expect((object["model"] as? String) == "model: --gps-sigma 8")
        // The library on the same rows: the recording with every value as the CSV wrote it (mm, 0.01 Pa, ms), read
        // back from the file, so that both sides fuse identical numbers.
        var recording = try Scenario.named(.canyon, seed: 11, duration: 1_800).simulate()
        let lines = try String(contentsOfFile: input, encoding: .utf8).split(separator: "\n").dropFirst()
        try #require(lines.count == recording.readings.count)
        for (i, line) in lines.enumerated() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
            try #require(fields.count == 5)
            recording.readings[i].time = try #require(fields[0])
            recording.readings[i].pressure = fields[1]
            recording.readings[i].gpsAltitude = fields[2]
            recording.readings[i].gpsVerticalAccuracy = fields[3]
            recording.readings[i].trueAltitude = try #require(fields[4])
        }
        var parameters = AltitudeModelParameters()
        parameters.gpsErrorStandardDeviation = 8
        let expected = try ScenarioEvaluation(recording, parameters: parameters, scoringStart: 300)
        let rmse = try #require(estimators.first?["rmse_m"] as? Double)
        // Equal inputs: equal to the JSON's printed digits.
        #expect(abs(rmse - (expected.scores["kalman"]?.rootMeanSquareError ?? .nan)) < 1e-3)
        #expect((object["gated_fixes"] as? [Any])?.count == expected.gatedFixes)
    }

    @Test("A reference on rows of its own, in a column named with --reference, is carried to the readings")
    func namedReferenceOnOwnRows() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let recording = try Scenario.named(.static, seed: 12, duration: 1_200).simulate()
        var text = "t,pressure_hpa,gps_alt_m,onboard_m\n"
        var last = -Double.infinity
        for r in recording.readings {
            if r.time - 0.001 > last { text += "\(r.time - 0.001),,,\(r.trueAltitude)\n" }
            last = r.time
            text += "\(r.time),\(r.pressure.map { "\($0)" } ?? ""),\(r.gpsAltitude.map { "\($0)" } ?? ""),\n"
        }
        let input = try dir.file("onboard.csv", text)
        let result = runAltimetry(["evaluate", input, "--reference", "onboard_m", "--json"])
        #expect(result.code == .success, "\(result.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let estimators = try #require(object["estimators"] as? [[String: Any]])
        #expect((estimators.first?["scored_rows"] as? Int ?? 0) > 1_000)
        #expect((object["truth"] as? [String: Any])?["column"] as? String == "onboard_m")
        let missing = runAltimetry(["evaluate", input, "--reference", "other_m"])
        #expect(missing.code == .dataError && missing.err.contains("found no column 'other_m'"))
    }

    @Test("--static scores against the median fix with its standard error; no truth at all scores nothing")
    func staticAndNone() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let recording = try Scenario.named(.static, seed: 13, duration: 2_400).simulate()
        var text = "t,pressure_hpa,gps_alt_m\n"
        for r in recording.readings {
            text += "\(r.time),\(r.pressure.map { "\($0)" } ?? ""),\(r.gpsAltitude.map { "\($0)" } ?? "")\n"
        }
        let input = try dir.file("still.csv", text)
        let still = runAltimetry(["evaluate", input, "--static"])
        #expect(still.code == .success, "\(still.err)")
        #expect(still.out.contains("Truth: static, the median GPS altitude after 600 s"))
        #expect(still.out.contains("standard error of the median from 10 block medians"))
        let none = runAltimetry(["evaluate", input])
        #expect(none.code == .success)
        #expect(none.out.contains("Truth: none") && !none.out.contains("RMSE"))
        #expect(none.err.contains("no reference column"))
    }

    @Test(
        "Usage mistakes and data that cannot be scored say what is wrong",
        arguments: [
            (["--static", "--reference", "x"], ExitCode.usage, "either --reference or --static"),
            (["--reference", "gps_alt_m"], .usage, "read by the filter"),
            (["--from", "5000"], .dataError, "lower it with --from"),
        ])
    func mistakes(arguments: [String], code: ExitCode, message: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let result = runAltimetry(["evaluate", try Self.canyon(dir, duration: 900)] + arguments)
        #expect(result.code == code)
        #expect(result.err.contains(message), "\(result.err)")
    }
}

/// The real recordings beside the checkout (../shared/data/real, read in place, never copied); skipped without them.
@Suite("EvaluateCommand on real recordings")
struct EvaluateRealRecordingTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../shared/data/real").standardized.path

    @Test("The GNSS altitude faults of the drone log are gated by the fixed model, which stays with the barometer")
    func gnssFaults() throws {
        let path = Self.folder + "/ardupilot_pxf_erle_2014-11-26_log181_gpsglitch/data.csv"
        guard FileManager.default.fileExists(atPath: path) else {
            print("skipped: \(path) is absent")
            return
        }
        let result = runAltimetry(["evaluate", path, "--from", "10", "--json", "--adapt", "off"])
        #expect(result.code == .success, "\(result.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let gated = try #require(object["gated_fixes"] as? [[String: Any]])
        // Measured: 345 of 675 fixes gated, all after 58 s, where the README puts the fault; the largest innovation
        // accepted is 37 m (a fix crossing the track while the sigma had grown), against faults of up to 280 m.
        #expect(gated.count > 300)
        #expect(gated.allSatisfy { ($0["t"] as? Double ?? 0) > 55 })
        #expect((object["largest_accepted_innovation_m"] as? Double ?? .infinity) < 50)
        // The default (adaptive) model gates nothing before the fault either; how far it follows the fault, and
        // that its sigma says so, is `RealRecordingTests`' glitch test (the bank's sigma against the barometer).
        let adaptive = runAltimetry(["evaluate", path, "--from", "10", "--json"])
        #expect(adaptive.code == .success, "\(adaptive.err)")
        let bank = try #require(try JSONSerialization.jsonObject(with: Data(adaptive.out.utf8)) as? [String: Any])
        let bankGated = try #require(bank["gated_fixes"] as? [[String: Any]])
        #expect(!bankGated.isEmpty && bankGated.allSatisfy { ($0["t"] as? Double ?? 0) > 55 })
    }

    @Test(
        "The 7.3 h logger, still outdoors through 15 hPa of weather: both models beat the bias of the cumulative mean")
    func weatherFall() throws {
        let path = Self.folder + "/ola_m10s_lps28dfw_bergen_indoor_car_outdoor_7h/data.csv"
        guard FileManager.default.fileExists(atPath: path) else {
            print("skipped: \(path) is absent")
            return
        }
        func figures(_ model: [String]) throws -> [String: [String: Any]] {
            let result = runAltimetry(["evaluate", path, "--static", "--from", "9600", "--json"] + model)
            #expect(result.code == .success, "\(result.err)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
            let estimators = try #require(object["estimators"] as? [[String: Any]])
            return Dictionary(
                uniqueKeysWithValues: estimators.compactMap { e in (e["name"] as? String).map { ($0, e) } })
        }
        // Measured with the fixed model: filter 3.52 m, coverage 0.78; cumulative naive 42 m (the weather's 125 m of
        // drift in its mean).
        let fixed = try figures(["--adapt", "off"])
        #expect((fixed["kalman"]?["rmse_m"] as? Double ?? .infinity) < 4)
        #expect((fixed["kalman"]?["coverage"] as? Double ?? 0) > 0.68)
        #expect((fixed["naive"]?["rmse_m"] as? Double ?? 0) > 20)
        // The default (the receiver learned): far from the naive mean, and its coverage within the band set for
        // static loggers (0.60 to 0.85); measured 5.95 m at 0.82, since the car ride's ramping GPS no longer resets
        // the level (`GPSReceiverModel.runStandardDeviation(over:whiteVariance:)`).
        let adaptive = try figures([])
        #expect((adaptive["kalman"]?["rmse_m"] as? Double ?? .infinity) < 10)
        let coverage = adaptive["kalman"]?["coverage"] as? Double ?? 0
        #expect(coverage > 0.60 && coverage < 0.85, "coverage \(coverage)")
    }
}
