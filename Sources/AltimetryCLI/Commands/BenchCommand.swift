import Altimetry
import AltimetryIO
import Foundation
import Simulation

/// `altimetry bench [--json] [--trials N] [--seed S]`: the fusion Monte Carlo against the naive baseline.
///
/// Runs every benchmark scenario of the simulator over N seeds with four estimators (the filter, its smoother,
/// the cumulative naive average and the 600 s windowed one) and prints RMSE after the first 10 minutes,
/// one-sigma coverage and mean NEES; then the seed's static 10-minute calibration; then the filter's
/// throughput. Build in release mode for meaningful throughput (`swift run -c release altimetry bench`).
public struct BenchCommand: Command {
    public static let name = "bench"
    public static let overview = "Monte Carlo of the altitude filter against naive GPS averaging, over every scenario."
    public static let synopsis =
        "[--json] [--trials N] [--seed S] [--scenario NAME] [--calibration-trials N] [--throughput-rows N] [model options]"
    public static let options: [ArgumentScanner.Option] =
        [
            .init("json", .flag, help: "Print one JSON object instead of tables."),
            .init("trials", .value, placeholder: "N", help: "Trials per scenario (default 100)."),
            .init("seed", .value, placeholder: "S", help: "Seed of the first trial; trial k uses S + k (default 1)."),
            .init(
                "calibration-trials", .value, placeholder: "N",
                help: "Trials of the static calibration (default 2000: the error std to ±1.6 %)."),
            .init(
                "throughput-rows", .value, placeholder: "N", help: "Rows for the throughput figure (default 1000000)."),
            .init(
                "scenario", .value, placeholder: "NAME",
                help: "Run only this scenario (default: all); with --stress, a stress scenario."),
            .init(
                "stress", .flag,
                help: "Run the stress scenarios instead: hot and cold columns, cold start, dropout, sensor faults."),
        ] + ModelOptions.options

    var json: Bool
    var trials: Int
    var seed: UInt64
    var calibrationTrials: Int
    var throughputRows: Int
    var model: ModelOptions
    var scenario: ScenarioName?
    /// The one stress scenario to run (`--stress --scenario NAME`); nil runs them all.
    var stressScenario: StressScenarioName?
    var stress: Bool

    public init(_ arguments: ArgumentScanner) throws(UsageError) {
        try arguments.noPositionals()
        json = arguments.flags.contains("json")
        trials = try arguments.integer("trials", default: 100, minimum: 1)
        seed = UInt64(try arguments.integer("seed", default: 1, minimum: 0))
        calibrationTrials = try arguments.integer("calibration-trials", default: 2_000, minimum: 2)
        throughputRows = try arguments.integer("throughput-rows", default: 1_000_000, minimum: 1)
        model = try ModelOptions(arguments, adaptsByDefault: false)
        stress = arguments.flags.contains("stress")
        if let name = arguments.values["scenario"], stress {
            guard let known = StressScenarioName(rawValue: name) else {
                throw UsageError(
                    "unknown stress scenario '\(name)'; known: "
                        + StressScenarioName.allCases.map(\.rawValue).joined(separator: ", "))
            }
            stressScenario = known
        } else if let name = arguments.values["scenario"] {
            guard let known = ScenarioName(rawValue: name) else {
                throw UsageError(
                    "unknown scenario '\(name)'; known: \(ScenarioName.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            scenario = known
        }
    }

    public func run(console: Console) -> ExitCode {
        if stress { return runStress(console: console) }
        let result: FusionBenchmark
        do {
            let parameters = try model.parameters()
            result = try FusionBenchmark.run(
                trials: trials, seed: seed, calibrationTrials: calibrationTrials,
                throughputRows: throughputRows, parameters: parameters,
                scenarios: scenario.map { [$0] } ?? ScenarioName.benchmark)
        } catch {
            console.writeError("error: the benchmark failed: \(error)\n")
            return .software
        }
        if json { return Self.writeJSON(result, console: console) }
        console.write(Self.text(result))
        return .success
    }

    /// Writes `result` as one pretty-printed JSON object, non-finite numbers as `null`.
    static func writeJSON(_ result: some Encodable, console: Console) -> ExitCode {
        guard let data = try? JSONDocument.encode(result) else {
            console.writeError("error: could not encode the results\n")
            return .software
        }
        console.write(String(decoding: data, as: UTF8.self) + "\n")
        return .success
    }

    /// The stress benchmark (`--stress`): `StressBenchmark` over every stress scenario.
    func runStress(console: Console) -> ExitCode {
        let result: StressBenchmark
        do {
            result = try StressBenchmark.run(
                trials: trials, seed: seed, parameters: try model.parameters(),
                scenarios: stressScenario.map { [$0] } ?? StressScenarioName.allCases)
        } catch {
            console.writeError("error: the benchmark failed: \(error)\n")
            return .software
        }
        if json { return Self.writeJSON(result, console: console) }
        func f(_ x: Double?, _ digits: Int = 2) -> String { x.map { String(format: "%.\(digits)f", $0) } ?? "-" }
        func i(_ x: Int?) -> String { x.map(String.init) ?? "-" }
        var out =
            "Stress benchmark, no temperature readings: filter RMSE, coverage and NEES after 10 min; column temperature\n"
        out +=
            "error after 1,000 m of altitude change (RMS, max, share within 3 K, share within its own sigma, median sigma);\n"
        out += "good fixes refused; |error| 60 s after the event (RMS, max); slowest recovery into the sigma, trials\n"
        out += "recovered in time and, where the event is a fault, its fault-free twin's trials within the sigma\n"
        out += "in time (control); expected episode reported\n\n"
        out +=
            "scenario         trials rmse_m cover  nees  col_rms col_max col<3K col_cov col_sig refused  ev_rms ev_max  rec_max in_time control reported episodes\n"
        for r in result.scenarios {
            let episodes = r.episodes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            let cells = [
                r.name.padding(toLength: 16, withPad: " ", startingAt: 0), String(r.trials), f(r.rmse_m), f(r.coverage),
                f(r.nees), f(r.column_error_rms_k), f(r.column_error_max_k), f(r.column_within_3k, 3),
                f(r.column_coverage), f(r.column_sigma_median_k),
                f(r.refused_good_fix_fraction, 4), f(r.event_error_rms_m, 1), f(r.event_error_max_m, 1),
                f(r.recovery_max_s, 0),
                i(r.recovered_in_time), i(r.control_in_time), i(r.expected_episode_reported),
            ]
            out += cells.joined(separator: " ") + " " + (episodes.isEmpty ? "none" : episodes) + "\n"
        }
        console.write(out)
        return .success
    }

    static func text(_ r: FusionBenchmark) -> String {
        func f(_ x: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", x) }
        var out =
            "Altitude fusion benchmark: RMSE after the first 10 min, one-sigma coverage (honest: 0.68), mean NEES (honest: 1)\n\n"
        out += "scenario                trials  estimator    rmse_m  coverage  nees\n"
        var all = r.scenarios
        if var cold = r.cold_without_temperature {
            cold.name = "cold (no temperature)"
            all.append(cold)
        }
        for s in all {
            for name in ScenarioEvaluation.estimatorNames {
                guard let e = s.estimators[name] else { continue }
                out +=
                    s.name.padding(toLength: 24, withPad: " ", startingAt: 0)
                    + String(s.trials).padding(toLength: 8, withPad: " ", startingAt: 0)
                    + name.padding(toLength: 13, withPad: " ", startingAt: 0)
                    + f(e.rmse_m).padding(toLength: 8, withPad: " ", startingAt: 0)
                    + f(e.coverage).padding(toLength: 10, withPad: " ", startingAt: 0) + f(e.nees) + "\n"
            }
            out +=
                "                        gated fixes \(s.gated_fixes), injected outliers \(s.outliers) of which gated \(s.gated_outliers), fault-status readings \(s.status_readings)\n"
        }
        let c = r.static_calibration_600s
        out += "\nStatic 10-minute calibration (GPS 10 m, 60 s; no weather), \(c.trials) trials, at 600 s:\n"
        out +=
            "  filter told q_b = 0:   error std \(f(c.kalman_error_std_m)) m, reported sigma \(f(c.kalman_sigma_m)) m\n"
        out +=
            "  filter, default q_b:   error std \(f(c.kalman_default_weather_error_std_m)) m, reported sigma \(f(c.kalman_default_weather_sigma_m)) m\n"
        out +=
            "  naive mean:            error std \(f(c.naive_error_std_m)) m, reported sigma \(f(c.naive_sigma_m)) m\n"
        out += "  GLS bound:             \(f(c.gls_bound_m)) m\n"
        out +=
            "\nThroughput of the altitude filter: \(f(r.throughput.rows_per_second, 0)) rows/s, \(f(r.throughput.ns_per_row, 0)) ns/row over \(r.throughput.rows) rows\n"
        return out
    }
}
