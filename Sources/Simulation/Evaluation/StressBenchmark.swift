import Altimetry

/// The Monte Carlo behind `altimetry bench --stress`: every `StressScenarioName` over many seeds.
///
/// Per scenario, pooled over trials: RMSE, coverage and NEES after the first 10 minutes; the RMS and the largest
/// column-temperature error after 1,000 m of climb or descent, and the fraction of those rows within 3 K; the
/// fraction of good fixes (within 3 sigma of the truth) refused; at the event, the RMS and largest |error| 60 s
/// after it, the largest recovery time and the trials recovered within 3 min (cold start) or 5 min (the rest);
/// the trials that reported the expected episode, and all episodes by kind.
public struct StressBenchmark: Sendable, Codable {
    /// One scenario's figures.
    public struct ScenarioResult: Sendable, Equatable, Codable {
        public var name: String
        public var trials: Int
        public var rmse_m: Double
        public var coverage: Double
        public var nees: Double
        public var column_error_rms_k: Double?
        public var column_error_max_k: Double?
        public var column_within_3k: Double?
        public var refused_good_fix_fraction: Double
        public var event_error_rms_m: Double?
        public var event_error_max_m: Double?
        public var recovery_max_s: Double?
        public var recovered_in_time: Int?
        public var expected_episode_reported: Int?
        public var episodes: [String: Int]
    }

    public var scenarios: [ScenarioResult]

    /// Runs `scenarios` over `trials` seeds from `seed`.
    public static func run(trials: Int, seed: UInt64, parameters: AltitudeModelParameters = AltitudeModelParameters(),
                           scenarios: [StressScenarioName] = StressScenarioName.allCases) throws -> StressBenchmark {
        var results: [ScenarioResult] = []
        for name in scenarios {
            let evaluations = try parallelMap(0..<trials) { trial in
                let recording = try Scenario.stress(name, seed: seed &+ UInt64(trial)).simulate()
                return try StressEvaluation(recording, event: name.eventTime, parameters: parameters)
            }
            results.append(summarize(name, evaluations))
        }
        return StressBenchmark(scenarios: results)
    }

    static func summarize(_ name: StressScenarioName, _ evaluations: [StressEvaluation]) -> ScenarioResult {
        var score = EstimatorScore()
        var columns: [Double] = [], eventErrors: [Double] = [], recoveries: [Double] = []
        var good = 0, refused = 0, reported = 0, recovered = 0
        var episodes: [String: Int] = [:]
        let deadline: Double = name == .coldStart ? 180 : 300
        for e in evaluations {
            score.merge(e.score)
            columns += e.columnErrors
            good += e.goodFixes
            refused += e.refusedGoodFixes
            if let event = e.errorAfterEvent { eventErrors.append(event.error) }
            let recovery = e.recoveryTime ?? .infinity
            recoveries.append(recovery)
            if recovery <= deadline { recovered += 1 }
            if let kind = name.expectedEpisode, e.episodes.contains(where: { $0.kind == kind }) { reported += 1 }
            for episode in e.episodes { episodes[episode.kind.rawValue, default: 0] += 1 }
        }
        func rms(_ xs: [Double]) -> Double? { xs.isEmpty ? nil : (xs.reduce(0) { $0 + $1 * $1 } / Double(xs.count)).squareRoot() }
        let hasEvent = name.eventTime != nil
        return ScenarioResult(
            name: name.rawValue, trials: evaluations.count, rmse_m: score.rootMeanSquareError, coverage: score.coverage,
            nees: score.meanNEES, column_error_rms_k: rms(columns), column_error_max_k: columns.max(),
            column_within_3k: columns.isEmpty ? nil : Double(columns.filter { $0 <= 3 }.count) / Double(columns.count),
            refused_good_fix_fraction: good == 0 ? 0 : Double(refused) / Double(good),
            event_error_rms_m: hasEvent ? rms(eventErrors) : nil, event_error_max_m: hasEvent ? eventErrors.map(abs).max() : nil,
            recovery_max_s: hasEvent ? recoveries.max() : nil, recovered_in_time: hasEvent ? recovered : nil,
            expected_episode_reported: name.expectedEpisode == nil ? nil : reported, episodes: episodes)
    }
}
