import Altimetry
import StateEstimation

/// Runs the altitude filter on one simulated recording and measures what the stress targets ask: accuracy and
/// honesty after the first 10 minutes, the column temperature once the track has moved 1,000 m, good fixes
/// refused, the error at and after the scenario's event, and the episodes reported.
public struct StressEvaluation: Sendable {
    /// The filter's RMSE, coverage and NEES after `scoringStart`.
    public private(set) var score = EstimatorScore()
    /// |estimated − true column temperature| (K) at the rows after 1,000 m of cumulative altitude change.
    public private(set) var columnErrors: [Double] = []
    /// The column temperature's reported sigma (K) at the same rows.
    public private(set) var columnSigmas: [Double] = []
    /// Fixes within 3 sigma of the truth (by the receiver's error model), and how many of them the filter refused.
    public private(set) var goodFixes = 0
    /// Good fixes the filter refused.
    public private(set) var refusedGoodFixes = 0
    /// The altitude error (m) and sigma 60 s after the event (skydive: the landing), if the scenario has one.
    public private(set) var errorAfterEvent: (error: Double, sigma: Double)?
    /// Seconds from the event until the error is first within the sigma, if it is.
    public private(set) var recoveryTime: Double?
    /// Episodes the filter reported.
    public private(set) var episodes: [FilterEpisode] = []

    /// Evaluates the filter built from `parameters` on `recording`; readings carry no temperature.
    ///
    /// - Parameters:
    ///   - recording: the simulated readings with their truth.
    ///   - event: the time the scenario's event begins, in seconds (`StressScenarioName.eventTime`), or nil for none.
    ///   - parameters: the filter's parameters.
    ///   - scoringStart: the time, in seconds, before which nothing is scored.
    /// - Throws: `AltitudeModelError` when the filter refuses `parameters` or a reading.
    public init(
        _ recording: SimulatedRecording, event: Seconds?, parameters: AltitudeModelParameters,
        scoringStart: Double = 600
    ) throws(AltitudeModelError) {
        var filter = try AltitudeFilter(parameters: parameters)
        let gpsSigma = recording.scenario.gps.errorStandardDeviation
        var climbed = 0.0
        var previous: Double?
        for (i, r) in recording.readings.enumerated() {
            let estimate = try filter.process(
                AltitudeReading(time: r.time, pressure: r.pressure, gpsAltitude: r.gpsAltitude))
            let truth = r.trueAltitude
            let error = estimate.altitude - truth
            if let previous { climbed += abs(truth - previous) }
            previous = truth
            if r.time >= scoringStart { score.add(error: error, sigma: estimate.altitudeStandardDeviation) }
            if climbed >= 1_000, i < recording.truth.count, estimate.columnTemperature.isFinite {
                columnErrors.append(abs(estimate.columnTemperature - recording.truth[i].airTemperature))
                columnSigmas.append(estimate.columnTemperatureStandardDeviation)
            }
            if let g = r.gpsAltitude, abs(g - truth) <= 3 * gpsSigma, let update = estimate.gpsUpdate {
                goodFixes += 1
                if !update.decision.wasApplied { refusedGoodFixes += 1 }
            }
            if let event {
                if r.time >= event, recoveryTime == nil, abs(error) <= estimate.altitudeStandardDeviation {
                    recoveryTime = r.time - event
                }
                if r.time >= event + 60, errorAfterEvent == nil {
                    errorAfterEvent = (error, estimate.altitudeStandardDeviation)
                }
            }
        }
        episodes = filter.episodes
    }
}
