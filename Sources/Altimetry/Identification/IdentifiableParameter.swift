/// A parameter of the altitude model that `altimetry identify` can estimate from a recording.
///
/// Each is searched on a log scale (all are positive, and their plausible ranges span decades), inside bounds
/// that keep the filter physical; an estimate that ends on a bound is reported as not identifiable.
public enum IdentifiableParameter: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    /// σ_e, the GPS error's stationary spread, in metres.
    case gpsSigma = "gps_sigma"
    /// τ, the GPS error's correlation time, in seconds.
    case gpsTau = "gps_tau"
    /// σ_g, the GPS's white noise, in metres.
    case gpsWhite = "gps_white"
    /// k, the scale on the reported vertical accuracy (dimensionless).
    case gpsVaccScale = "gps_vacc_scale"
    /// q_b, the weather's random-walk density, in hPa²/s.
    case weatherQ = "weather_q"
    /// σ_p, the barometer's white noise, in hPa.
    case baroSigma = "baro_sigma"

    /// The parameter's `--params` key.
    public var key: String { rawValue }

    /// Its value in `parameters`.
    public func value(in parameters: AltitudeModelParameters) -> Double {
        switch self {
        case .gpsSigma: return parameters.gpsErrorStandardDeviation
        case .gpsTau: return parameters.gpsCorrelationTime
        case .gpsWhite: return parameters.gpsWhiteNoiseStandardDeviation
        case .gpsVaccScale: return parameters.gpsVerticalAccuracyScale
        case .weatherQ: return parameters.weatherNoiseDensity
        case .baroSigma: return parameters.barometerNoiseStandardDeviation
        }
    }

    /// Sets its value in `parameters`.
    ///
    /// - Parameters:
    ///   - value: the new value, in the parameter's unit.
    ///   - parameters: the parameters to change.
    public func set(_ value: Double, in parameters: inout AltitudeModelParameters) {
        switch self {
        case .gpsSigma: parameters.gpsErrorStandardDeviation = value
        case .gpsTau: parameters.gpsCorrelationTime = value
        case .gpsWhite: parameters.gpsWhiteNoiseStandardDeviation = value
        case .gpsVaccScale: parameters.gpsVerticalAccuracyScale = value
        case .weatherQ: parameters.weatherNoiseDensity = value
        case .baroSigma: parameters.barometerNoiseStandardDeviation = value
        }
    }

    /// The search's bounds, in the parameter's unit: wide enough for any receiver or barometer met so far.
    public var bounds: ClosedRange<Double> {
        switch self {
        case .gpsSigma: return 0.05...500
        case .gpsTau: return 1...1e7
        case .gpsWhite: return 0.01...200
        case .gpsVaccScale: return 0.05...20
        case .weatherQ: return 1e-9...1
        case .baroSigma: return 1e-4...5
        }
    }
}

/// One identified parameter: its estimate, standard error and whether the recording determines it.
public struct IdentifiedParameter: Sendable, Equatable, Codable {
    /// Which parameter.
    public var parameter: IdentifiableParameter
    /// The maximum-likelihood estimate, in the parameter's unit.
    public var value: Double
    /// Its standard error from the curvature of the log-likelihood, in the parameter's unit (delta method on the
    /// log scale: SE(θ) = θ SE(ln θ)); nil where the curvature gave none.
    public var standardError: Double?
    /// Whether the recording determines it: a curvature that is positive, a log-scale standard error of at most
    /// `IdentifiedParameter.identifiableLogStandardError`, and an estimate away from the search's bounds.
    public var isIdentifiable: Bool
    /// Why not, when it is not identifiable.
    public var reason: String?

    /// The largest standard error of ln θ at which a parameter counts as identified: 0.5, a one-sigma interval
    /// of a factor 1.65 either way. A Gauss-Markov error seen for fewer than about two correlation times has a
    /// relative error √(τ/2T) of 0.5 or more on σ_e, and τ worse: such a figure is not worth a `--params` file.
    public static let identifiableLogStandardError = 0.5
}
