import Altimetry
import AltimetryIO
import Foundation
import Simulation

/// `altimetry demo [--out FILE] [--seed S]`: the main job on built-in data.
///
/// Simulates the 6-hour hike (800 m to 2,400 m and back, weather random walk), fuses it with the filter and
/// the smoother under the command line's default model (the receiver learned while fusing), compares both with
/// the naive GPS averages, prints a short table and writes the fused track as CSV (written to a temporary file
/// first, then renamed, so a failure never leaves a partial file). The same
/// comparison pooled over 20 hikes (`--hikes`) follows, since one hike is one draw of the weather and of the GPS error.
public struct DemoCommand: Command {
    public static let name = "demo"
    public static let overview = "Simulate a 6-hour hike, fuse it, compare with naive averaging, write the track."
    public static let synopsis = "[--out FILE] [--seed S] [--hikes N]"
    public static let options: [ArgumentScanner.Option] = [
        .init(
            "out", .value, placeholder: "FILE",
            help: "Where to write the fused track as CSV (default out/demo-hike.csv)."),
        .init("seed", .value, placeholder: "S", help: "Seed of the simulated hike (default 1)."),
        .init("hikes", .value, placeholder: "N", help: "Hikes pooled in the second table (default 20)."),
    ]

    var output: String
    var seed: UInt64
    var hikes: Int

    public init(_ arguments: ArgumentScanner) throws(UsageError) {
        try arguments.noPositionals()
        output = arguments.values["out"] ?? "out/demo-hike.csv"
        seed = UInt64(try arguments.integer("seed", default: 1, minimum: 0))
        hikes = try arguments.integer("hikes", default: 20, minimum: 1)
    }

    public func run(console: Console) -> ExitCode {
        do {
            let recording = try Scenario.named(.hike, seed: seed).simulate()
            let evaluation = try ScenarioEvaluation(recording, parameters: .adaptive)
            let readings = recording.readings.map {
                AltitudeReading(time: $0.time, pressure: $0.pressure, gpsAltitude: $0.gpsAltitude)
            }
            let (filtered, smoothed) = try AltitudeFilter.smooth(readings, parameters: .adaptive)
            guard let last = filtered.last, let lastSmoothed = smoothed.last, let truth = recording.readings.last else {
                console.writeError("error: the simulated hike is empty\n")
                return .software
            }
            var text = "Simulated hike: 6 h, 800 m to 2,400 m and back, seed \(seed), \(readings.count) rows\n"
            text += "Scored after the first 10 minutes against the simulated truth.\n\n"
            text += "estimator    rmse_m  coverage\n"
            for name in ScenarioEvaluation.estimatorNames {
                guard let s = evaluation.scores[name] else { continue }
                text +=
                    name.padding(toLength: 13, withPad: " ", startingAt: 0)
                    + String(format: "%-8.2f%.2f\n", s.rootMeanSquareError, s.coverage)
            }
            text += String(
                format: "\nFinal altitude: filter %.1f ± %.1f m, smoother %.1f ± %.1f m, truth %.1f m\n",
                last.altitude, last.altitudeStandardDeviation, lastSmoothed.altitude,
                lastSmoothed.altitudeStandardDeviation, truth.trueAltitude)
            let trueQNH = recording.truth.last?.seaLevelPressure ?? .nan
            text += String(
                format: "Final QNH: %.2f ± %.2f hPa (truth %.2f hPa)\n", last.seaLevelPressure,
                last.seaLevelPressureStandardDeviation, trueQNH)
            var csv =
                "t,altitude_m,sigma_m,smoothed_altitude_m,smoothed_sigma_m,qnh_hpa,qnh_sigma_hpa,gps_error_m,true_alt_m\n"
            for (i, e) in filtered.enumerated() {
                csv += String(
                    format: "%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n", e.time, e.altitude,
                    e.altitudeStandardDeviation, smoothed[i].altitude, smoothed[i].altitudeStandardDeviation,
                    e.seaLevelPressure, e.seaLevelPressureStandardDeviation, e.gpsError,
                    recording.readings[i].trueAltitude)
            }
            let url = URL(fileURLWithPath: output)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(csv.utf8).write(to: url, options: .atomic)
            // One hike is one draw of the weather and the GPS error; the pooled figures say what to expect.
            let pooled = try FusionBenchmark.evaluate(
                .hike, trials: hikes, seed: seed, parameters: .adaptive,
                useTemperature: true)
            text +=
                "\nOver \(hikes) simulated hikes (seeds \(seed) to \(seed + UInt64(hikes) - 1)):\nestimator    rmse_m  coverage\n"
            for name in ScenarioEvaluation.estimatorNames {
                guard let f = pooled.estimators[name] else { continue }
                text +=
                    name.padding(toLength: 13, withPad: " ", startingAt: 0)
                    + String(format: "%-8.2f%.2f\n", f.rmse_m, f.coverage)
            }
            text += "Fused track written to \(output)\n"
            console.write(text)
            return .success
        } catch {
            console.writeError("error: \(error)\n")
            return .cannotCreate
        }
    }
}
