import Altimetry
import Foundation
import Simulation

/// `altimetry-bench ascent [--seeds N] [--cases LIST] [--params FILE] [--json]`: the ascent Monte Carlo over the
/// scenarios of Docs/ascent.md. `--cases` picks some of them by number, in the order given (1 hike, 2 hike with a
/// temperature sensor, 3 flat-walk, 4 rolling, 5 cold with its temperature, 6 cold without), for example
/// `--cases 5,6,3`; `--params` fuses every track with a parameters file's model instead of the defaults (to measure
/// a change of the model against the simulated truth).
enum AscentBenchmarkCommand {
    static func run(arguments: [String]) -> Int32 {
        var seeds = 200
        if let i = arguments.firstIndex(of: "--seeds"), i + 1 < arguments.count, let n = Int(arguments[i + 1]), n > 0 {
            seeds = n
        }
        let json = arguments.contains("--json")
        guard let parameters = ParametersOption.parse(arguments, benchmark: "ascent") else { return 66 }
        let all: [(ScenarioName, useTemperature: Bool, addSensor: Bool)] = [
            (.hike, false, false), (.hike, true, true), (.flatWalk, false, false), (.rolling, false, false),
            (.cold, true, false), (.cold, false, false),
        ]
        var cases = all
        if let i = arguments.firstIndex(of: "--cases"), i + 1 < arguments.count {
            let picked = arguments[i + 1].split(separator: ",").compactMap { Int($0) }
            guard !picked.isEmpty, picked.allSatisfy({ (1...all.count).contains($0) }) else {
                FileHandle.standardError.write(
                    Data("altimetry-bench ascent: --cases takes numbers 1 to \(all.count), such as 5,6\n".utf8))
                return 64
            }
            cases = picked.map { all[$0 - 1] }
        }
        var summaries: [AscentBenchmark.Summary] = []
        for (name, useTemperature, addSensor) in cases {
            do {
                let start = Date()
                let (summary, _) = try AscentBenchmark.run(
                    name, seeds: seeds, useTemperature: useTemperature,
                    addTemperatureSensor: addSensor, parameters: parameters)
                summaries.append(summary)
                if !json {
                    print(line(summary) + String(format: "  (%.0f s)", Date().timeIntervalSince(start)))
                }
            } catch {
                FileHandle.standardError.write(Data("altimetry-bench ascent: \(name.rawValue): \(error)\n".utf8))
                return 70
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            if let data = try? encoder.encode(summaries) { print(String(decoding: data, as: UTF8.self)) }
        }
        return 0
    }

    static func line(_ s: AscentBenchmark.Summary) -> String {
        func f(_ x: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", x) }
        let gps = s.gps_only_median_ascent_m.map { f($0) }.joined(separator: "/")
        return "\(s.scenario) \(s.temperature ? "with T" : "no T") seeds \(s.seeds) truth \(f(s.true_ascent_m)) m: "
            + "median \(f(s.median_ascent_m)) m (p95 \(f(s.p95_ascent_m))), mean rel err \(f(100 * s.mean_relative_error, 2)) %, "
            + "rms \(f(100 * s.rms_relative_error, 2)) %, max |err| \(f(s.max_abs_error_m)) m, median sigma \(f(s.median_sigma_m)) m, "
            + "coverage \(f(s.coverage, 2)) (pressure part \(f(s.coverage_pressure_sigma, 2)); 2 sigma \(f(s.coverage_two_sigma, 2))), H \(f(s.median_hysteresis_m, 2)) m"
            + " | GPS gpxpy/3/5/10 m \(gps) | barometer \(f(s.barometer_only_median_ascent_m))"
    }
}
