import Altimetry

/// Runs the four estimators of the benchmark on one simulated recording and scores them against the truth.
///
/// Estimators: `kalman` (the altitude filter), `smoother` (its RTS-smoothed track), `naive` (the seed's
/// cumulative GPS average over barometric relative altitude) and `naive_600s` (the same over the last 600 s).
/// Every reading after `scoringStart` seconds is scored (the first 10 minutes are left out: every estimator
/// is still converging there).
public struct ScenarioEvaluation: Sendable {
    /// The estimators, in report order.
    public static let estimatorNames = ["kalman", "smoother", "naive", "naive_600s"]

    /// Scores by estimator name.
    public private(set) var scores: [String: EstimatorScore] = [:]
    /// Number of GPS fixes gated by the filter.
    public private(set) var gatedFixes = 0
    /// Number of injected GPS outliers (multipath).
    public private(set) var outliers = 0
    /// Injected outliers the filter gated.
    public private(set) var gatedOutliers = 0
    /// Readings at which the filter's fault monitoring acted or held (a status other than "ok").
    public private(set) var statusReadings = 0

    /// Evaluates `recording` with the filter built from `parameters`.
    ///
    /// - Parameters:
    ///   - recording: the simulated readings with their truth (true altitude in metres, injected outliers).
    ///   - parameters: the filter's and the smoother's parameters (the naive baselines keep their defaults).
    ///   - useTemperature: pass the recording's temperature readings to the filter (converted from °C to kelvin).
    ///   - scoringStart: seconds after the start before which nothing is scored.
    /// - Throws: `AltitudeModelError` when the filter refuses `parameters` or a reading (as
    ///   `AltitudeFilter.smooth(_:parameters:)`).
    public init(
        _ recording: SimulatedRecording, parameters: AltitudeModelParameters,
        useTemperature: Bool = true, scoringStart: Double = 600
    ) throws(AltitudeModelError) {
        let readings = recording.readings.map { r in
            AltitudeReading(
                time: r.time, pressure: r.pressure, gpsAltitude: r.gpsAltitude,
                gpsVerticalAccuracy: r.gpsVerticalAccuracy,
                temperature: useTemperature ? r.temperatureCelsius.map { $0 + 273.15 } : nil)
        }
        let (filtered, smoothed) = try AltitudeFilter.smooth(readings, parameters: parameters)
        var cumulative = NaiveAveragingBaseline()
        var windowed = NaiveAveragingBaseline(window: 600)
        var kalman = EstimatorScore(), smooth = EstimatorScore(), naive = EstimatorScore(), naive600 = EstimatorScore()
        for (i, reading) in recording.readings.enumerated() {
            let a = cumulative.update(time: reading.time, pressure: reading.pressure, gpsAltitude: reading.gpsAltitude)
            let b = windowed.update(time: reading.time, pressure: reading.pressure, gpsAltitude: reading.gpsAltitude)
            if let g = filtered[i].gpsUpdate, !g.decision.wasApplied { gatedFixes += 1 }
            if !filtered[i].status.isEmpty { statusReadings += 1 }
            if i < recording.truth.count, recording.truth[i].isOutlier {
                outliers += 1
                if let g = filtered[i].gpsUpdate, !g.decision.wasApplied { gatedOutliers += 1 }
            }
            guard reading.time - (recording.readings.first?.time ?? 0) >= scoringStart else { continue }
            let truth = reading.trueAltitude
            kalman.add(error: filtered[i].altitude - truth, sigma: filtered[i].altitudeStandardDeviation)
            if i < smoothed.count {
                smooth.add(error: smoothed[i].altitude - truth, sigma: smoothed[i].altitudeStandardDeviation)
            }
            if let h = a.altitudeMeters, let s = a.reportedStandardDeviation { naive.add(error: h - truth, sigma: s) }
            if let h = b.altitudeMeters, let s = b.reportedStandardDeviation {
                naive600.add(error: h - truth, sigma: s)
            }
        }
        scores = ["kalman": kalman, "smoother": smooth, "naive": naive, "naive_600s": naive600]
    }
}
