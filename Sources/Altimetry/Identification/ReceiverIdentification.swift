import Foundation
import Optimization
import StateEstimation

/// What a recording says about its GPS receiver and barometer: the Allan deviation of the GPS error, a
/// Gauss-Markov-plus-white fit to it, and the maximum-likelihood parameters through the filter.
///
/// The GPS error series is the GPS altitude itself where the recording is static (or has no barometer), and the
/// GPS altitude minus the barometric altitude at standard QNH where it moves: the motion cancels and the weather
/// is left, a slow random walk that shows at the longest averaging times only. A recording counts as static when
/// the barometric altitude's 60-s changes stay under 3 m in 95 % of the cases (a weather random walk of
/// 1 hPa/√h moves it 1.1 m a minute at one sigma, real weather far less; a walker 5 to 30 m). The series is taken fix after fix at the median fix interval τ₀, gaps
/// ignored.
///
/// The Allan fit gives the starting point of the maximum-likelihood search and, with the reported accuracies a,
/// a first scale k = √((σ_e² + σ_g²) / mean(a²)). The maximum-likelihood fit (`MaximumLikelihoodFit`) then frees
/// σ_e, τ and σ_g, and k where fixes report an accuracy; on a static recording also q_b and σ_p. On a moving
/// recording the barometer sees the motion plus the weather and the GPS the motion plus its error, so the
/// weather's random walk and a slow GPS error are told apart only by their dynamics: freeing q_b there let the
/// weather run to zero and a long-τ GPS error take its place, so q_b and σ_p keep their given values. On a static recording (and one without a
/// barometer, which must be static) the altitude is held still, q_h = 10⁻⁶ m²/s, for the likelihood: with the
/// moving model's 10 m²/s a wandering GPS error is explained as motion of the receiver, and the barometer, which
/// says there is none, is then explained away as noise (the indoor desk's maximum ran to σ_p = 5 hPa).
public struct ReceiverIdentification: Sendable, Equatable {
    /// Which series the Allan deviation was taken of.
    public enum Series: String, Sendable, Equatable, Codable {
        /// The GPS altitude of a static receiver, in metres.
        case gpsAltitude = "GPS altitude (static)"
        /// GPS minus barometric altitude of a moving receiver, in metres.
        case gpsMinusBarometricAltitude = "GPS minus barometric altitude (moving)"
    }

    /// The series of the Allan deviation.
    public var series: Series
    /// The recording's length, first to last reading, in seconds.
    public var duration: Seconds
    /// The number of GPS fixes.
    public var fixCount: Int
    /// The overlapping Allan deviation of the series.
    public var allan: AllanDeviation
    /// The Gauss-Markov-plus-white fit to it.
    public var allanFit: GaussMarkovNoise
    /// Why the recording does not determine the fit's σ_e and τ (nor the scale k computed from σ_e); nil when it
    /// does (`GaussMarkovNoise.notIdentifiableReason(duration:samplingInterval:)`).
    public var allanFitNotIdentifiableReason: String?
    /// k from the Allan fit and the reported accuracies; nil without `gps_vacc_m`.
    public var allanVerticalAccuracyScale: Double?
    /// The maximum-likelihood fit.
    public var maximumLikelihood: MaximumLikelihoodFit
    /// Why each parameter that the likelihood did not free kept its given value: no `gps_vacc_m`, no barometer,
    /// or (q_b and σ_p) a moving recording.
    public var notEstimated: [IdentifiableParameter: String]
    /// The log-likelihood under the parameters identification started from (the defaults), in nats.
    public var defaultLogLikelihood: Double
    /// The starting parameters with every identifiable estimate in place: what `--out` writes. The GPS error model
    /// is fixed (`learnsReceiver` false) where σ_e and τ are both identified, and adapts where they are not:
    /// a receiver whose error the recording did not determine is learned while fusing (`ReceiverLearner`), not
    /// replaced by the defaults' 10 m over 60 s.
    public var identifiedParameters: AltitudeModelParameters

    /// Identifies the model from `readings`, starting from (and keeping the other parameters of) `base`.
    ///
    /// - Parameters:
    ///   - readings: the track, in time order, with at least 16 fixes.
    ///   - base: the starting point, whose parameters that are not identified are kept.
    /// - Throws: `IdentificationError.noGPS` without fixes, `.tooFewSamples` with fewer than 16 fixes,
    ///   `.filter` if the filter refuses a reading.
    public init(readings: [AltitudeReading], base: AltitudeModelParameters = AltitudeModelParameters())
        throws(IdentificationError)
    {
        let fixes = readings.filter { $0.gpsAltitude != nil }
        guard !fixes.isEmpty else { throw .noGPS }
        guard fixes.count >= 16 else { throw .tooFewSamples(needed: 16, found: fixes.count) }
        let hasBarometer = readings.contains { $0.pressure != nil }
        duration = (readings.last?.time ?? 0) - (readings.first?.time ?? 0)
        fixCount = fixes.count
        series = !hasBarometer || Self.isStatic(readings) ? .gpsAltitude : .gpsMinusBarometricAltitude
        let values = Self.errorSeries(readings, series: series)
        let intervals = zip(fixes.dropFirst(), fixes).map { $0.time - $1.time }.sorted()
        let tau0 = max(intervals[intervals.count / 2], 1e-3)
        allan = try AllanDeviation(series: values, samplingInterval: tau0)
        allanFit = try GaussMarkovNoise.fitted(to: allan)
        allanFitNotIdentifiableReason = allanFit.notIdentifiableReason(duration: duration, samplingInterval: tau0)
        let accuracies = fixes.compactMap(\.gpsVerticalAccuracy)
        if accuracies.isEmpty {
            allanVerticalAccuracyScale = nil
        } else {
            let meanSquare = accuracies.reduce(0) { $0 + $1 * $1 } / Double(accuracies.count)
            let total =
                allanFit.correlatedStandardDeviation * allanFit.correlatedStandardDeviation
                + allanFit.whiteStandardDeviation * allanFit.whiteStandardDeviation
            allanVerticalAccuracyScale = (total / meanSquare).squareRoot()
        }
        // The search starts from the Allan fit, inside the bounds.
        var start = base
        if series == .gpsAltitude {
            start.altitudeNoiseDensity = Self.staticAltitudeNoiseDensity
        }
        var free: [IdentifiableParameter] = [.gpsSigma, .gpsTau, .gpsWhite]
        let initial: [(IdentifiableParameter, Double)] = [
            (.gpsSigma, allanFit.correlatedStandardDeviation), (.gpsTau, allanFit.correlationTime),
            (.gpsWhite, allanFit.whiteStandardDeviation), (.gpsVaccScale, allanVerticalAccuracyScale ?? 1),
        ]
        for (parameter, value) in initial {
            let b = parameter.bounds
            parameter.set(min(max(value, b.lowerBound * 2), b.upperBound / 2), in: &start)
        }
        var notEstimated: [IdentifiableParameter: String] = [:]
        if allanVerticalAccuracyScale != nil {
            free.append(.gpsVaccScale)
        } else {
            notEstimated[.gpsVaccScale] = "no gps_vacc_m in the recording"
        }
        if !hasBarometer {
            notEstimated[.weatherQ] = "no barometer in the recording"
            notEstimated[.baroSigma] = "no barometer in the recording"
        } else if series == .gpsAltitude {
            free += [.weatherQ, .baroSigma]
        } else {
            let reason =
                "kept at its given value on a moving recording, where the weather and a slow GPS error differ only "
                + "in their dynamics"
            notEstimated[.weatherQ] = reason
            notEstimated[.baroSigma] = reason
        }
        self.notEstimated = notEstimated
        defaultLogLikelihood = try MaximumLikelihoodFit.logLikelihood(of: readings, parameters: base)
        maximumLikelihood = try MaximumLikelihoodFit.fit(readings, free: free, start: start)
        var identified = base
        for estimate in maximumLikelihood.estimates where estimate.isIdentifiable {
            estimate.parameter.set(estimate.value, in: &identified)
        }
        let fit = maximumLikelihood
        let receiverIdentified = [IdentifiableParameter.gpsSigma, .gpsTau].allSatisfy {
            fit.estimate(of: $0)?.isIdentifiable == true
        }
        identified.learnsReceiver = !receiverIdentified
        identifiedParameters = identified
    }

    /// The altitude's random-walk density used for the likelihood of a static recording, in m²/s.
    public static let staticAltitudeNoiseDensity = 1e-6

    /// Whether the barometric altitude's 60-s changes stay under 3 m in 95 % of the cases.
    static func isStatic(_ readings: [AltitudeReading]) -> Bool {
        let samples = readings.compactMap { r in
            r.pressure.map { (time: r.time, altitude: NaiveAveragingBaseline.pressureAltitude($0)) }
        }
        guard samples.count >= 2 else { return true }
        var changes: [Double] = []
        var j = 0
        for i in samples.indices {
            while j < samples.count && samples[j].time < samples[i].time + 60 { j += 1 }
            guard j < samples.count else { break }
            changes.append(abs(samples[j].altitude - samples[i].altitude))
        }
        guard !changes.isEmpty else { return true }
        changes.sort()
        return changes[min(changes.count - 1, Int(0.95 * Double(changes.count)))] < 3
    }

    /// The GPS error series: the GPS altitude, or the GPS altitude minus the latest barometric altitude.
    static func errorSeries(_ readings: [AltitudeReading], series: Series) -> [Double] {
        var values: [Double] = []
        var barometric: Double?
        for r in readings {
            if let p = r.pressure { barometric = NaiveAveragingBaseline.pressureAltitude(p) }
            guard let z = r.gpsAltitude else { continue }
            switch series {
            case .gpsAltitude: values.append(z)
            case .gpsMinusBarometricAltitude: if let b = barometric { values.append(z - b) }
            }
        }
        return values
    }
}
