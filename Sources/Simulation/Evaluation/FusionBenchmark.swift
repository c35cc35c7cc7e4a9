import Altimetry
import Dispatch
import Foundation

/// The Monte Carlo behind `altimetry bench`: every benchmark scenario, many seeds, four estimators.
///
/// For each scenario and estimator it reports RMSE after the first 10 minutes, one-sigma coverage and mean
/// NEES, pooled over all trials; then the seed's static 10-minute calibration; then the filter's throughput.
/// Trials run in parallel across cores; results do not depend on the number of cores.
public struct FusionBenchmark: Sendable, Codable {
    /// One estimator's pooled figures.
    public struct Figures: Sendable, Equatable, Codable {
        /// Root mean square error after the first 10 minutes, in metres.
        public var rmse_m: Double
        /// The fraction of rows whose error lies within their one sigma.
        public var coverage: Double
        /// Mean normalised estimation error squared (1 for an honest sigma).
        public var nees: Double
    }

    /// One scenario's figures.
    public struct ScenarioResult: Sendable, Equatable, Codable {
        /// The scenario's name.
        public var name: String
        /// The number of trials (seeds).
        public var trials: Int
        /// Each estimator's figures, by name.
        public var estimators: [String: Figures]
        /// GPS fixes the filter gated, over all trials (`gated_outliers` counts the injected outliers among them).
        public var gated_fixes: Int
        /// Injected outliers, over all trials.
        public var outliers: Int
        /// Injected outliers the filter gated, over all trials.
        public var gated_outliers: Int
        /// Readings at which the fault monitoring acted or held (a false fault, in these scenarios), over all trials.
        public var status_readings: Int
    }

    /// The seed's static calibration at 600 s.
    public struct Calibration: Sendable, Equatable, Codable {
        /// The number of trials (seeds).
        public var trials: Int
        /// The filter's calibration error's standard deviation over the trials, in metres.
        public var kalman_error_std_m: Double
        /// The filter's reported one sigma, in metres.
        public var kalman_sigma_m: Double
        /// The filter's one sigma with the default weather model, in metres.
        public var kalman_default_weather_sigma_m: Double
        /// The error's standard deviation with the default weather model, in metres.
        public var kalman_default_weather_error_std_m: Double
        /// Naive averaging's error standard deviation, in metres.
        public var naive_error_std_m: Double
        /// Naive averaging's reported one sigma, in metres.
        public var naive_sigma_m: Double
        /// The generalised least squares bound on any average of the fixes, in metres.
        public var gls_bound_m: Double
    }

    /// Throughput of the altitude filter alone.
    public struct Throughput: Sendable, Equatable, Codable {
        /// Rows filtered.
        public var rows: Int
        /// Rows per second.
        public var rows_per_second: Double
        /// Nanoseconds per row.
        public var ns_per_row: Double
    }

    /// Every benchmark scenario's figures.
    public var scenarios: [ScenarioResult]
    /// The cold scenario fused without its temperature readings.
    public var cold_without_temperature: ScenarioResult?
    /// The seed's static calibration at 600 s.
    public var static_calibration_600s: Calibration
    /// The filter's throughput.
    public var throughput: Throughput

    /// Runs the benchmark.
    ///
    /// - Parameters:
    ///   - trials: trials per scenario (seeds `seed`, `seed + 1`, …).
    ///   - seed: the first trial's seed: trial k of a scenario runs seed `seed + k`, trial k of the static
    ///     calibration `seed + 10,000 + k`, and the throughput's hike runs `seed`.
    ///   - calibrationTrials: trials of the static calibration.
    ///   - throughputRows: rows for the throughput measurement (at least 10⁶ for the quoted figure).
    ///   - parameters: the filter's parameters for the scenarios and the throughput (the static calibration
    ///     sets its own: the defaults, with and without the weather noise).
    ///   - scenarios: the scenarios to run, the six of `ScenarioName.benchmark` by default; with `.cold` among
    ///     them, the cold scenario is run a second time without its temperature readings.
    /// - Throws: `ScenarioError` from a scenario that does not simulate, or the `AltitudeModelError` of a filter that
    ///   refuses its parameters or a reading.
    public static func run(
        trials: Int, seed: UInt64, calibrationTrials: Int = 2_000, throughputRows: Int = 1_000_000,
        parameters: AltitudeModelParameters = AltitudeModelParameters(),
        scenarios: [ScenarioName] = ScenarioName.benchmark
    ) throws -> FusionBenchmark {
        var results: [ScenarioResult] = []
        for name in scenarios {
            results.append(try evaluate(name, trials: trials, seed: seed, parameters: parameters, useTemperature: true))
        }
        let coldWithout =
            scenarios.contains(.cold)
            ? try evaluate(.cold, trials: trials, seed: seed, parameters: parameters, useTemperature: false) : nil
        return FusionBenchmark(
            scenarios: results, cold_without_temperature: coldWithout,
            static_calibration_600s: try calibration(trials: calibrationTrials, seed: seed),
            throughput: try throughput(rows: throughputRows, seed: seed, parameters: parameters))
    }

    /// Pooled figures of one scenario over `trials` seeds.
    ///
    /// - Parameters:
    ///   - name: the catalogue scenario.
    ///   - trials: the number of trials, run in parallel; trial k simulates seed `seed + k`.
    ///   - seed: the first trial's seed.
    ///   - parameters: the filter's and the smoother's parameters.
    ///   - useTemperature: pass the recording's temperature readings to the filter (converted from °C to kelvin).
    /// - Throws: `ScenarioError` from a scenario that does not simulate, or the `AltitudeModelError` of a filter that
    ///   refuses its parameters or a reading; the first failing trial's error.
    public static func evaluate(
        _ name: ScenarioName, trials: Int, seed: UInt64, parameters: AltitudeModelParameters,
        useTemperature: Bool
    ) throws -> ScenarioResult {
        try evaluate(name: name.rawValue, trials: trials, parameters: parameters, useTemperature: useTemperature) {
            Scenario.named(name, seed: seed &+ UInt64($0))
        }
    }

    /// Pooled figures of the scenarios `scenario(trial)` for trial 0 ..< `trials`.
    ///
    /// - Parameters:
    ///   - name: the name the result reports.
    ///   - trials: the number of trials, run in parallel.
    ///   - parameters: the filter's and the smoother's parameters.
    ///   - useTemperature: pass the recording's temperature readings to the filter (converted from °C to kelvin).
    ///   - scenario: the scenario of trial k, for k in 0 ..< `trials`.
    /// - Throws: `ScenarioError` from a scenario that does not simulate, or the `AltitudeModelError` of a filter that
    ///   refuses its parameters or a reading; the first failing trial's error.
    public static func evaluate(
        name: String, trials: Int, parameters: AltitudeModelParameters, useTemperature: Bool,
        scenario: @Sendable (Int) -> Scenario
    ) throws -> ScenarioResult {
        let evaluations = try parallelMap(0..<trials) { trial in
            let recording = try scenario(trial).simulate()
            return try ScenarioEvaluation(recording, parameters: parameters, useTemperature: useTemperature)
        }
        var pooled: [String: EstimatorScore] = [:]
        var gated = 0, outliers = 0, gatedOutliers = 0, status = 0
        for evaluation in evaluations {
            for (estimator, score) in evaluation.scores { pooled[estimator, default: EstimatorScore()].merge(score) }
            gated += evaluation.gatedFixes
            outliers += evaluation.outliers
            gatedOutliers += evaluation.gatedOutliers
            status += evaluation.statusReadings
        }
        let figures = pooled.mapValues {
            Figures(rmse_m: $0.rootMeanSquareError, coverage: $0.coverage, nees: $0.meanNEES)
        }
        return ScenarioResult(
            name: name, trials: trials, estimators: figures, gated_fixes: gated,
            outliers: outliers, gated_outliers: gatedOutliers, status_readings: status)
    }

    /// The seed's static calibration: 600 s still, GPS 10 m / 60 s, no weather.
    ///
    /// The filter is told there is no weather (q_b = 0, no tendency) and, separately, run with the default
    /// weather noise, whose sigma is then conservative. Errors are those of the last estimate, at 600 s.
    ///
    /// - Parameters:
    ///   - trials: the number of static recordings, run in parallel.
    ///   - seed: the base seed: trial k simulates seed `seed + 10,000 + k`.
    /// - Throws: `ScenarioError` from a recording that does not simulate, or the `AltitudeModelError` of a filter that
    ///   refuses a reading; the first failing trial's error.
    public static func calibration(trials: Int, seed: UInt64) throws -> Calibration {
        let told = {
            var parameters = AltitudeModelParameters()
            parameters.weatherNoiseDensity = 0
            parameters.weatherTendencyNoiseDensity = 0
            parameters.detectsFronts = false
            return parameters
        }()
        let defaults = AltitudeModelParameters()
        let rows = try parallelMap(0..<trials) { trial -> [Double] in
            let recording = try Scenario.named(.seedCalibration, seed: seed &+ 10_000 &+ UInt64(trial)).simulate()
            var a = try AltitudeFilter(parameters: told)
            var b = try AltitudeFilter(parameters: defaults)
            var naive = NaiveAveragingBaseline()
            var ea: AltitudeEstimate?, eb: AltitudeEstimate?
            var en: NaiveAveragingBaseline.Estimate?
            for r in recording.readings {
                let reading = AltitudeReading(time: r.time, pressure: r.pressure, gpsAltitude: r.gpsAltitude)
                ea = try a.process(reading)
                eb = try b.process(reading)
                en = naive.update(time: r.time, pressure: r.pressure, gpsAltitude: r.gpsAltitude)
            }
            let truth: Double = recording.readings.last?.trueAltitude ?? .nan
            let kalmanError: Double = (ea?.altitude ?? .nan) - truth
            let defaultError: Double = (eb?.altitude ?? .nan) - truth
            let naiveError: Double = (en?.altitudeMeters ?? .nan) - truth
            return [
                kalmanError, ea?.altitudeStandardDeviation ?? .nan, defaultError, eb?.altitudeStandardDeviation ?? .nan,
                naiveError, en?.reportedStandardDeviation ?? .nan,
            ]
        }
        func std(_ column: Int) -> Double {
            let xs = rows.map { $0[column] }
            let mean = xs.reduce(0, +) / Double(xs.count)
            return (xs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(xs.count - 1)).squareRoot()
        }
        func average(_ column: Int) -> Double { rows.reduce(0) { $0 + $1[column] } / Double(rows.count) }
        let statistics = try GaussMarkovAveraging(standardDeviation: 10, correlationTime: 60)
        return Calibration(
            trials: trials, kalman_error_std_m: std(0), kalman_sigma_m: average(1),
            kalman_default_weather_sigma_m: average(3), kalman_default_weather_error_std_m: std(2),
            naive_error_std_m: std(4), naive_sigma_m: average(5),
            gls_bound_m: statistics.generalizedLeastSquaresStandardDeviation(sampleCount: 600))
    }

    /// Rows per second of the altitude filter alone (readings prepared beforehand), on one core.
    ///
    /// - Parameters:
    ///   - rows: the number of readings timed (a hike of `rows / 2` seconds, a pressure and a fix each second); the
    ///     fastest of three passes over them is reported.
    ///   - seed: the hike's seed.
    ///   - parameters: the filter's parameters.
    /// - Throws: `ScenarioError` if the hike does not simulate, or the `AltitudeModelError` of a filter that refuses
    ///   its parameters or a reading.
    public static func throughput(rows: Int, seed: UInt64, parameters: AltitudeModelParameters) throws -> Throughput {
        // A long hike: one barometer and one GPS row per second, so rows / 2 seconds of track.
        let recording = try Scenario.named(.hike, seed: seed, duration: Double(max(rows / 2, 1))).simulate()
        let readings = recording.readings.prefix(rows).map {
            AltitudeReading(time: $0.time, pressure: $0.pressure, gpsAltitude: $0.gpsAltitude)
        }
        var best = Double.infinity
        var sink = 0.0
        for _ in 0..<3 {
            var filter = try AltitudeFilter(parameters: parameters)
            let start = DispatchTime.now().uptimeNanoseconds
            for reading in readings { sink += try filter.process(reading).altitude }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
            best = min(best, elapsed)
        }
        if sink.isNaN { FileHandle.standardError.write(Data("(sink)\n".utf8)) }
        let count = Double(readings.count)
        return Throughput(rows: readings.count, rows_per_second: count / (best / 1e9), ns_per_row: best / count)
    }
}

/// Results filled in by concurrent workers, each writing its own slot under a lock.
private final class ResultSlots<T>: @unchecked Sendable {
    var results: [Result<T, any Error>?]
    let lock = NSLock()
    init(count: Int) { results = Array(repeating: nil, count: count) }
}

/// Maps `body` over `range` on all cores, keeping the order of the results.
func parallelMap<T: Sendable>(_ range: Range<Int>, _ body: @Sendable (Int) throws -> T) throws -> [T] {
    let box = ResultSlots<T>(count: range.count)
    DispatchQueue.concurrentPerform(iterations: range.count) { offset in
        let result = Result { try body(range.lowerBound + offset) }
        box.lock.lock()
        box.results[offset] = result
        box.lock.unlock()
    }
    return try box.results.map { try ($0 ?? .failure(CancellationError())).get() }
}
