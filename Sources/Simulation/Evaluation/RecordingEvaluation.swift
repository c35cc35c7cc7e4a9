import Altimetry
import StateEstimation

/// Fuses a recording with the altitude filter and scores it, beside the naive baselines, against its truth.
///
/// Estimators (`estimatorNames`): `kalman` (the filter, as it runs live), `naive` (the seed's cumulative GPS
/// average over barometric relative altitude) and `naive_600s` (the same over the last 600 s). Each row with a
/// reading is fused; every one after the warm-up (`scoringStart` seconds after the first row) that has a truth
/// is scored: RMSE, mean error, 95th percentile of |error|, one-sigma coverage and NEES (`EstimatorScore`).
///
/// The truth is one of:
/// - `.reference`: each row's reference altitude, or where the reference sits on rows of its own (a drone's
///   onboard estimate logged at its own rate), the nearest earlier one, carried to the row's time. A reference
///   that is itself a filter (PX4's EKF2, ArduPilot's EKF) shares this filter's barometer and GPS: agreement
///   shows consistency with another estimator, not accuracy, errors common to both sensors cancel, and its own
///   error adds to the difference, so coverage against it is a lower bound of the honest coverage.
/// - `.staticMedian`: the device stood still; the truth is the median GPS altitude of the scored stretch, with its
///   own standard error (`StaticTruth`).
///
/// Whatever the truth, the evaluation reports what needs none: the GPS fixes used and gated (each gated fix with
/// its NIS), and the mean NIS of the accepted fixes. That is 1 when the model's GPS noise fits the receiver and the
/// fix shares the pressure's row; a fix that follows a pressure by Δt adds the altitude random walk q(v) Δt to the
/// innovation variance S without adding it to the innovations, so the simulator's scenarios (fixes 0.9 s after a
/// pressure, the model exactly right) give 0.84 to 0.90. Far below that, the receiver is quieter than the model says.
public struct RecordingEvaluation: Sendable {
    /// What the estimators are scored against.
    public enum Truth: Sendable, Equatable {
        /// The rows' reference altitudes, carried forward to rows without one.
        case reference
        /// The median GPS altitude of the scored stretch (the device stood still).
        case staticMedian
    }

    /// One row of a recording: a reading for the filter, a reference altitude, or both.
    public struct Row: Sendable, Equatable {
        /// The sensors' reading; nil on a row that carries only a reference.
        public var reading: AltitudeReading?
        /// Time of the row, in seconds.
        public var time: Double
        /// The reference altitude at this time, in metres; never given to the filter.
        public var reference: Double?

        /// A row at `time` (seconds) with a reading, a reference altitude in metres, or both.
        ///
        /// - Parameters:
        ///   - time: the row's time, in seconds.
        ///   - reading: the reading fused at this row, or nil for a reference alone.
        ///   - reference: the reference altitude, in metres, or nil.
        public init(time: Double, reading: AltitudeReading?, reference: Double? = nil) {
            self.time = time
            self.reading = reading
            self.reference = reference
        }
    }

    /// A GPS fix the filter gated.
    public struct GatedFix: Sendable, Equatable, Codable {
        /// Time of the fix, in seconds.
        public var time: Double
        /// The fix's altitude, in metres.
        public var altitude: Double
        /// Its innovation y = z − h(x⁻), in metres.
        public var innovation: Double
        /// Its normalised innovation squared y²/S.
        public var normalizedInnovationSquared: Double

        enum CodingKeys: String, CodingKey {
            case time = "t", altitude = "gps_alt_m", innovation = "innovation_m", normalizedInnovationSquared = "nis"
        }
    }

    /// The estimators, in report order.
    public static let estimatorNames = ["kalman", "naive", "naive_600s"]

    /// Scores by estimator name; empty without a truth.
    public private(set) var scores: [String: EstimatorScore] = [:]
    /// The static truth, with `.staticMedian`.
    public private(set) var staticTruth: StaticTruth?
    /// Rows with a reading, fused.
    public private(set) var readingCount = 0
    /// GPS fixes seen, used or gated.
    public private(set) var fixCount = 0
    /// The fixes the filter gated, in time order.
    public private(set) var gatedFixes: [GatedFix] = []
    /// Mean NIS of the accepted GPS fixes after the warm-up (1 under a fitting GPS model); NaN with none.
    public private(set) var acceptedFixMeanNIS = Double.nan
    /// The largest |innovation| among the accepted GPS fixes after the warm-up, in metres.
    public private(set) var largestAcceptedInnovation = 0.0
    /// How far the sensors alone stray from the fused track after the warm-up, by name: `gps_only` (each fix),
    /// `baro_only` (the barometer's relative altitude from the first fix on, the first fix its only GPS; in a
    /// recording without a fix, from the fused altitude at the first pressure reading). Each is
    /// an `EstimatorScore` of (sensor alone − fused) against the fused sigma: its RMSE is the RMS difference, its
    /// coverage the fraction of rows inside the fused one sigma. Needs no truth.
    public private(set) var agreement: [String: EstimatorScore] = [:]
    /// Names of `agreement`, in report order.
    public static let agreementNames = ["gps_only", "baro_only"]
    /// The weather fronts the filter reported.
    public private(set) var fronts: [WeatherFront] = []
    /// For each front, the change of the station pressure itself over the front's span (the last pressure at or
    /// before its end minus the last at or before its start), in hPa; nil where a pressure is missing. For a device
    /// that stood still this is the weather's own change, a check on the front that needs no truth (at the
    /// station, so about 1 % smaller than the change of QNH per 100 m of altitude).
    public private(set) var frontPressureChanges: [Double?] = []
    /// The filter's last estimate.
    public private(set) var final: AltitudeEstimate?
    /// Time of the first row, in seconds; scoring starts at `firstTime + scoringStart`.
    public private(set) var firstTime = 0.0

    /// Fuses and scores `rows` (in time order).
    ///
    /// - Parameters:
    ///   - rows: the recording's rows, in time order (times in seconds, reference altitudes in metres).
    ///   - parameters: the filter's parameters; the naive baselines take their GPS sigma from them,
    ///     √(σ_e² + σ_g²) in metres.
    ///   - truth: what to score against; nil scores nothing (the truth-free figures are still computed).
    ///   - scoringStart: seconds after the first row before which nothing is scored (the warm-up).
    /// - Throws: `RecordingEvaluationError`: parameters that cannot start a filter, the row the filter refused, a
    ///   static truth without enough fixes, or (with a truth) no row to score after the warm-up.
    public init(
        _ rows: [Row], parameters: AltitudeModelParameters, truth: Truth?,
        scoringStart: Double = 600
    ) throws(RecordingEvaluationError) {
        firstTime = rows.first?.time ?? 0
        let start = firstTime + scoringStart
        var truthValue: Double?
        if truth == .staticMedian {
            let fixes = rows.compactMap { row in
                row.time >= start ? row.reading?.gpsAltitude.map { (time: row.time, altitude: $0) } : nil
            }
            guard let found = StaticTruth(fixes: fixes) else {
                throw .tooFewFixesForStaticTruth(found: fixes.count, needed: 2 * StaticTruth.defaultBlockCount)
            }
            staticTruth = found
            truthValue = found.altitude
        }
        var filter: AltitudeFilter
        do { filter = try AltitudeFilter(parameters: parameters) } catch { throw .invalidParameters(error) }
        let gpsSigma =
            (parameters.gpsErrorStandardDeviation * parameters.gpsErrorStandardDeviation
            + parameters.gpsWhiteNoiseStandardDeviation * parameters.gpsWhiteNoiseStandardDeviation).squareRoot()
        var cumulative = NaiveAveragingBaseline(gpsStandardDeviation: gpsSigma)
        var windowed = NaiveAveragingBaseline(window: 600, gpsStandardDeviation: gpsSigma)
        var kalman = EstimatorScore(), naive = EstimatorScore(), naive600 = EstimatorScore()
        var nisSum = 0.0, nisCount = 0
        var pressures: [(time: Double, pressure: Double)] = []
        var gpsOnly = EstimatorScore(), baroOnly = EstimatorScore()
        /// The first fix minus the barometer's relative altitude then: barometer alone = this + relative altitude.
        var baroAnchor: Double?
        /// Without any fix, the barometer alone is anchored at the fused altitude of the first pressure reading
        /// instead (then it shows how far the fused track leaves the raw barometer), scored beside until a fix comes.
        var baroOnlyWithoutFix = EstimatorScore()
        var startAnchor: Double?
        for (index, row) in rows.enumerated() {
            if truth == .reference, let reference = row.reference { truthValue = reference }
            guard let reading = row.reading else { continue }
            let estimate: AltitudeEstimate
            do { estimate = try filter.process(reading) } catch { throw .refused(rowIndex: index, error) }
            readingCount += 1
            final = estimate
            if let p = reading.pressure { pressures.append((reading.time, p)) }
            let a = cumulative.update(time: reading.time, pressure: reading.pressure, gpsAltitude: reading.gpsAltitude)
            let b = windowed.update(time: reading.time, pressure: reading.pressure, gpsAltitude: reading.gpsAltitude)
            if let z = reading.gpsAltitude, let record = estimate.gpsUpdate {
                fixCount += 1
                if !record.decision.wasApplied {
                    gatedFixes.append(
                        GatedFix(
                            time: reading.time, altitude: z, innovation: record.innovation,
                            normalizedInnovationSquared: record.normalizedInnovationSquared))
                } else if reading.time >= start {
                    nisSum += record.normalizedInnovationSquared
                    nisCount += 1
                    largestAcceptedInnovation = max(largestAcceptedInnovation, abs(record.innovation))
                }
            }
            if baroAnchor == nil, filter.firstPressureAltitude != nil, let z = reading.gpsAltitude {
                baroAnchor = z - estimate.relativeAltitude
            }
            if startAnchor == nil, reading.pressure != nil {
                startAnchor = estimate.altitude - estimate.relativeAltitude
            }
            if reading.time >= start {
                let sigma = estimate.altitudeStandardDeviation
                if let z = reading.gpsAltitude { gpsOnly.add(error: z - estimate.altitude, sigma: sigma) }
                if let anchor = baroAnchor, reading.pressure != nil {
                    baroOnly.add(error: anchor + estimate.relativeAltitude - estimate.altitude, sigma: sigma)
                }
                if let anchor = startAnchor, reading.pressure != nil {
                    baroOnlyWithoutFix.add(error: anchor + estimate.relativeAltitude - estimate.altitude, sigma: sigma)
                }
            }
            guard reading.time >= start, let t = truthValue else { continue }
            kalman.add(error: estimate.altitude - t, sigma: estimate.altitudeStandardDeviation)
            if let h = a.altitudeMeters, let s = a.reportedStandardDeviation { naive.add(error: h - t, sigma: s) }
            if let h = b.altitudeMeters, let s = b.reportedStandardDeviation { naive600.add(error: h - t, sigma: s) }
        }
        if nisCount > 0 { acceptedFixMeanNIS = nisSum / Double(nisCount) }
        agreement = ["gps_only": gpsOnly, "baro_only": baroAnchor == nil ? baroOnlyWithoutFix : baroOnly]
        fronts = filter.fronts
        frontPressureChanges = fronts.map { front in
            guard front.startTime >= start, let a = Self.lastPressure(pressures, atOrBefore: front.startTime),
                let b = Self.lastPressure(pressures, atOrBefore: front.endTime)
            else { return nil }
            return b - a
        }
        if truth != nil {
            guard kalman.count > 0 else {
                throw .nothingToScore(
                    duration: (rows.last?.time ?? firstTime) - firstTime, scoringStart: scoringStart,
                    hasReference: truthValue != nil || truth == .staticMedian)
            }
            scores = ["kalman": kalman, "naive": naive, "naive_600s": naive600]
        }
    }
}

extension RecordingEvaluation {
    /// The last pressure at or before `time` in a time-ordered series, by binary search; nil before the first.
    static func lastPressure(_ series: [(time: Double, pressure: Double)], atOrBefore time: Double) -> Double? {
        var low = 0, high = series.count
        while low < high {
            let middle = (low + high) / 2
            if series[middle].time <= time { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? series[low - 1].pressure : nil
    }
}
