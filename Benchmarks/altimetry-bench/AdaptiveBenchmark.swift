import Altimetry
import Foundation
import Simulation

/// `altimetry-bench adaptive [--seeds N] [--hours H] [--scenarios static,hike] [--reports right,optimistic,pessimistic]
/// [--catalogue-seeds M] [--params FILE] [--oracle] [--weather-walk Q]`: the
/// adaptive GPS error model against the fixed one on simulated receivers.
///
/// First the receiver grid: every `SimulatedReceiver` of σ_e in {2, 10, 30} m and τ in {30, 300, 3,600} s, with a
/// reported vertical accuracy that is right, 2x optimistic or 2x pessimistic, in a static log of H hours (default
/// 4) and the 6 h hike, N seeds each (default 20). The simulator draws its receivers independently of the
/// filter's hypotheses: τ = 300 s is on the bank's grid, but every other draw of the error is the simulator's.
/// For each case it prints T/τ (the scored length in correlation times), then RMSE, one-sigma coverage and mean
/// NEES against the truth after the first 10 minutes, for the fixed model (`--adapt off`) and the adaptive one.
/// The verdict: `met` where T/τ ≥ 3 and coverage is within 0.62 to 0.76 and NEES within 0.7 to 1.4; `safe` where
/// T/τ < 3 and the sigma errs on the safe side (coverage at least 0.62, NEES at most 1.4); else `MISSED`.
///
/// `--oracle` gives the fixed model each case's true receiver (σ_e, τ, σ_w = 1 m, and a vacc scale that undoes the
/// report's factor) in place of the default one: the filter that knows the receiver, which shows what the rest of
/// the model (the weather's noise above all) leaves of the targets. `--weather-walk Q` adds a random walk of variance
/// rate Q hPa²/s to the static logs' weather (the simulator's `WeatherModel.randomWalkVariance`, zero by default): how
/// the figures move when the simulated weather is rougher over hours than the smooth outdoor day.
///
/// `--scenarios ""` skips the grid. Then the catalogue's scenarios with their own (default) receiver, M seeds each
/// (default 20; 0 skips them): RMSE and coverage of both models, and the adaptive RMSE over the fixed (target:
/// within 5 %, coverage 0.60 to 0.82).
enum AdaptiveBenchmark {
    /// Writes a line to stdout at once (print buffers a redirected stdout, and a case takes minutes).
    static func emit(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

    static func run(arguments: [String]) -> Int32 {
        func value(_ name: String) -> String? {
            guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
            return arguments[i + 1]
        }
        let seeds = value("--seeds").flatMap { Int($0) } ?? 20
        let hours = value("--hours").flatMap { Double($0) } ?? 4
        let catalogueSeeds = value("--catalogue-seeds").flatMap { Int($0) } ?? 20
        let weatherWalk = value("--weather-walk").map { Double($0) ?? -1 } ?? 0
        let scenarios = (value("--scenarios") ?? "static,hike").split(separator: ",").map(String.init)
        let reports = (value("--reports") ?? "right,optimistic,pessimistic").split(separator: ",")
            .compactMap { SimulatedReceiver.AccuracyReport(rawValue: String($0)) }
        guard seeds > 0, hours > 0, catalogueSeeds >= 0, !reports.isEmpty, weatherWalk >= 0, weatherWalk.isFinite,
            scenarios.allSatisfy({ $0 == "static" || $0 == "hike" })
        else {
            FileHandle.standardError.write(
                Data("altimetry-bench adaptive: bad option (see altimetry-bench --help)\n".utf8))
            return 64
        }
        guard var fixed = ParametersOption.parse(arguments, benchmark: "adaptive") else { return 66 }
        fixed.learnsReceiver = false
        var adaptive = fixed
        adaptive.learnsReceiver = true
        let oracle = arguments.contains("--oracle")
        var missed = 0
        if !scenarios.isEmpty {
            emit("adaptive GPS error model on simulated receivers, \(seeds) seeds per case (scored after 600 s)")
            emit(
                "case                                              |  T/tau | \(oracle ? "oracle" : " fixed"): RMSE   cov   NEES "
                    + "| adaptive: RMSE   cov   NEES | verdict")
        }
        for scenarioName in scenarios {
            for report in reports {
                for receiver in SimulatedReceiver.grid(report: report) {
                    let duration: Double = scenarioName == "static" ? hours * 3_600 : ScenarioName.hike.defaultDuration
                    let label = "\(scenarioName) \(Int(duration / 3_600)) h, \(receiver)"
                    let make: @Sendable (Int) -> Scenario = { trial in
                        guard scenarioName == "static" else {
                            return Scenario.named(.hike, receiver: receiver, seed: UInt64(trial + 1))
                        }
                        var log = Scenario.staticLog(receiver: receiver, duration: duration, seed: UInt64(trial + 1))
                        log.weather.randomWalkVariance = weatherWalk
                        return log
                    }
                    var reference = fixed
                    if oracle {
                        reference.gpsErrorStandardDeviation = receiver.correlatedErrorStandardDeviation
                        reference.gpsCorrelationTime = receiver.correlationTime
                        reference.gpsWhiteNoiseStandardDeviation = 1
                        reference.gpsVerticalAccuracyScale = 1 / (receiver.report.factor ?? 1)
                    }
                    guard
                        let a = try? FusionBenchmark.evaluate(
                            name: label, trials: seeds, parameters: reference, useTemperature: true, scenario: make
                        ).estimators["kalman"],
                        let b = try? FusionBenchmark.evaluate(
                            name: label, trials: seeds, parameters: adaptive, useTemperature: true, scenario: make
                        ).estimators["kalman"]
                    else {
                        emit("\(label): the filter failed")
                        missed += 1
                        continue
                    }
                    let lengths = (duration - 600) / receiver.correlationTime
                    let verdict: String
                    if lengths >= 3 {
                        verdict = (0.62...0.76).contains(b.coverage) && (0.7...1.4).contains(b.nees) ? "met" : "MISSED"
                    } else {
                        verdict = b.coverage >= 0.62 && b.nees <= 1.4 ? "safe" : "MISSED"
                    }
                    if verdict == "MISSED" { missed += 1 }
                    emit(
                        label.padding(toLength: 50, withPad: " ", startingAt: 0)
                            + String(
                                format: "| %6.1f | %10.2f %5.2f %6.2f | %13.2f %5.2f %6.2f | ", lengths, a.rmse_m,
                                a.coverage, a.nees,
                                b.rmse_m, b.coverage, b.nees) + verdict)
                }
            }
        }
        if catalogueSeeds > 0 {
            emit(
                (scenarios.isEmpty ? "" : "\n")
                    + "catalogue scenarios with their own receiver, \(catalogueSeeds) seeds each")
            emit("scenario   | fixed: RMSE   cov | adaptive: RMSE   cov | RMSE ratio | verdict")
            for name in ScenarioName.benchmark {
                guard
                    let a = try? FusionBenchmark.evaluate(
                        name, trials: catalogueSeeds, seed: 1, parameters: fixed, useTemperature: true
                    ).estimators["kalman"],
                    let b = try? FusionBenchmark.evaluate(
                        name, trials: catalogueSeeds, seed: 1, parameters: adaptive, useTemperature: true
                    ).estimators["kalman"]
                else {
                    emit("\(name.rawValue): the filter failed")
                    missed += 1
                    continue
                }
                let ratio = b.rmse_m / a.rmse_m
                let met = ratio <= 1.05 && (0.60...0.82).contains(b.coverage)
                if !met { missed += 1 }
                emit(
                    name.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0)
                        + String(
                            format: "| %10.2f %5.2f | %13.2f %5.2f | %10.3f | ", a.rmse_m, a.coverage, b.rmse_m,
                            b.coverage, ratio)
                        + (met ? "met" : "MISSED"))
            }
        }
        emit("\n\(missed == 0 ? "every target met" : "\(missed) case(s) missed")")
        return 0
    }
}
