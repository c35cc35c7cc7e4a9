import Altimetry

/// The Monte Carlo behind `altimetry bench --stress`: every `StressScenarioName` over many seeds.
///
/// Per scenario, pooled over trials: RMSE, coverage and NEES after the first 10 minutes; the RMS and the largest
/// column-temperature error after 1,000 m of climb or descent, the fraction of those rows within 3 K and within the
/// column's own sigma, and that sigma's median; the fraction of good fixes (within 3 sigma of the truth) refused;
/// at the event, the RMS and largest |error| 60 s after it, the largest recovery time and the trials recovered
/// within 3 min (cold start) or 5 min (the rest); the trials that reported the expected episode, and all episodes by
/// kind.
///
/// "Recovered" means the error is within the sigma, which a filter whose sigma is honest misses about a third of
/// the time whatever happened, for stretches as long as its error stays correlated. So where the event is a fault
/// (the cold start and the sensor faults), each trial also runs its fault-free twin: the same seed with the faults
/// removed (every other draw is the same), scored from the same time. Its count of trials within the sigma in time
/// is what the filter achieves without the fault; the fault's own misses are the difference.
public struct StressBenchmark: Sendable, Codable {
    /// One scenario's figures.
    public struct ScenarioResult: Sendable, Equatable, Codable {
        /// The scenario's name.
        public var name: String
        /// The number of trials (seeds).
        public var trials: Int
        /// Root mean square altitude error, in metres.
        public var rmse_m: Double
        /// The fraction of rows whose error lies within their one sigma.
        public var coverage: Double
        /// Mean normalised estimation error squared (1 for an honest sigma).
        public var nees: Double
        /// Root mean square error of the column temperature, in kelvin; nil without the column state.
        public var column_error_rms_k: Double?
        /// The largest column temperature error, in kelvin.
        public var column_error_max_k: Double?
        /// The fraction of rows with the column temperature within 3 K.
        public var column_within_3k: Double?
        /// The fraction of those rows with the column temperature within its own one sigma (0.68 when honest).
        public var column_coverage: Double?
        /// The median of the column temperature's sigma over those rows, in kelvin.
        public var column_sigma_median_k: Double?
        /// The fraction of good fixes (within 3 sigma of the truth) the filter refused.
        public var refused_good_fix_fraction: Double
        /// Root mean square altitude error 60 s after the event, in metres.
        public var event_error_rms_m: Double?
        /// The largest altitude error 60 s after the event, in metres.
        public var event_error_max_m: Double?
        /// The largest recovery time, in seconds.
        public var recovery_max_s: Double?
        /// Trials recovered within 3 min (cold start) or 5 min (the rest).
        public var recovered_in_time: Int?
        /// Trials whose fault-free twin is within the sigma within the same time of the event; nil where the event is
        /// not a sensor fault (the skydive's landing, the dropout's return of fixes).
        public var control_in_time: Int?
        /// Trials that reported the expected episode.
        public var expected_episode_reported: Int?
        /// Episodes reported, by kind, over all trials.
        public var episodes: [String: Int]
    }

    /// Every stress scenario's figures.
    public var scenarios: [ScenarioResult]

    /// Runs `scenarios` over `trials` seeds from `seed`.
    ///
    /// - Parameters:
    ///   - trials: the number of trials of each scenario, run in parallel; trial k simulates seed `seed + k`.
    ///   - seed: the first trial's seed.
    ///   - parameters: the filter's parameters.
    ///   - scenarios: the stress scenarios to run; every one by default.
    /// - Throws: `ScenarioError` from a scenario that does not simulate, or the `AltitudeModelError` of a filter that
    ///   refuses its parameters or a reading; the first failing trial's error.
    public static func run(
        trials: Int, seed: UInt64, parameters: AltitudeModelParameters = AltitudeModelParameters(),
        scenarios: [StressScenarioName] = StressScenarioName.allCases
    ) throws -> StressBenchmark {
        var results: [ScenarioResult] = []
        for name in scenarios {
            let evaluations = try parallelMap(0..<trials) { trial -> (StressEvaluation, StressEvaluation?) in
                let scenario = Scenario.stress(name, seed: seed &+ UInt64(trial))
                let evaluation = try StressEvaluation(
                    try scenario.simulate(), event: name.eventTime, parameters: parameters)
                guard let twin = faultFree(scenario) else { return (evaluation, nil) }
                return (
                    evaluation, try StressEvaluation(try twin.simulate(), event: name.eventTime, parameters: parameters)
                )
            }
            results.append(summarize(name, evaluations.map(\.0), controls: evaluations.compactMap(\.1)))
        }
        return StressBenchmark(scenarios: results)
    }

    /// `scenario` without its sensor faults; nil where it has none. The simulator draws every random number
    /// whatever the faults, so the twin differs from `scenario` in the faults' readings alone.
    static func faultFree(_ scenario: Scenario) -> Scenario? {
        guard !scenario.barometer.faults.isEmpty || !scenario.gps.faults.isEmpty else { return nil }
        var twin = scenario
        twin.barometer.faults = []
        twin.gps.faults = []
        return twin
    }

    static func summarize(
        _ name: StressScenarioName, _ evaluations: [StressEvaluation], controls: [StressEvaluation] = []
    ) -> ScenarioResult {
        var score = EstimatorScore()
        var columns: [Double] = [], eventErrors: [Double] = [], recoveries: [Double] = []
        var columnSigmas: [Double] = [], columnInside = 0
        var good = 0, refused = 0, reported = 0, recovered = 0
        var episodes: [String: Int] = [:]
        let deadline: Double = name == .coldStart || name == .loggerColdStart ? 180 : 300
        func inTime(_ e: StressEvaluation) -> Bool { (e.recoveryTime ?? .infinity) <= deadline }
        for e in evaluations {
            score.merge(e.score)
            columns += e.columnErrors
            for (error, sigma) in zip(e.columnErrors, e.columnSigmas) {
                columnInside += error <= sigma ? 1 : 0
                columnSigmas.append(sigma)
            }
            good += e.goodFixes
            refused += e.refusedGoodFixes
            if let event = e.errorAfterEvent { eventErrors.append(event.error) }
            recoveries.append(e.recoveryTime ?? .infinity)
            if inTime(e) { recovered += 1 }
            if let kind = name.expectedEpisode, e.episodes.contains(where: { $0.kind == kind }) { reported += 1 }
            for episode in e.episodes { episodes[episode.kind.rawValue, default: 0] += 1 }
        }
        func rms(_ xs: [Double]) -> Double? {
            xs.isEmpty ? nil : (xs.reduce(0) { $0 + $1 * $1 } / Double(xs.count)).squareRoot()
        }
        let hasEvent = name.eventTime != nil
        return ScenarioResult(
            name: name.rawValue, trials: evaluations.count, rmse_m: score.rootMeanSquareError, coverage: score.coverage,
            nees: score.meanNEES, column_error_rms_k: rms(columns), column_error_max_k: columns.max(),
            column_within_3k: columns.isEmpty ? nil : Double(columns.filter { $0 <= 3 }.count) / Double(columns.count),
            column_coverage: columns.isEmpty ? nil : Double(columnInside) / Double(columns.count),
            column_sigma_median_k: columnSigmas.isEmpty ? nil : columnSigmas.sorted()[columnSigmas.count / 2],
            refused_good_fix_fraction: good == 0 ? 0 : Double(refused) / Double(good),
            event_error_rms_m: hasEvent ? rms(eventErrors) : nil,
            event_error_max_m: hasEvent ? eventErrors.map(abs).max() : nil,
            recovery_max_s: hasEvent ? recoveries.max() : nil, recovered_in_time: hasEvent ? recovered : nil,
            control_in_time: controls.isEmpty ? nil : controls.filter(inTime).count,
            expected_episode_reported: name.expectedEpisode == nil ? nil : reported, episodes: episodes)
    }
}
