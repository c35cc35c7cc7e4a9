import Altimetry
import StateEstimation

/// The simulated GPS altitude: truth plus a correlated error, white noise, outages and outliers.
///
/// A fix at time t reads
///
///     z = h(t) + e(t) + v + o,   v ~ N(0, σ_w²),
///
/// where e is a first-order Gauss-Markov process (stationary spread σ_e, correlation time τ; advanced with
/// the exact discretisation φ = exp(−Δt/τ) over the actual, irregular steps), v white noise, and o the
/// multipath offset of an injected outlier (zero otherwise). The defaults σ_e = 10 m and τ = 60 s are the
/// seed's illustrative values, σ_w = 1 m the fusion model's.
public struct GPSModel: Sendable, Equatable, Codable {
    /// When fixes arrive (default 1 Hz, delays up to 10 % of an interval), before outages are cut out.
    public var clock: SampleClock
    /// Stationary standard deviation σ_e of the correlated error, in metres.
    public var correlatedErrorStandardDeviation: Meters
    /// Correlation time τ of the correlated error, in seconds.
    public var correlationTime: Seconds
    /// Standard deviation σ_w of the white noise, in metres.
    public var whiteNoiseStandardDeviation: Meters
    /// Stretches without fixes.
    public var outages: [GPSOutage]
    /// Injected multipath outliers, or `nil` for none.
    public var outliers: MultipathOutliers?
    /// The accuracy each fix reports.
    public var reportedAccuracy: ReportedVerticalAccuracy
    /// Receiver faults (jumps, a cold start); none by default.
    public var faults: [GPSFault] = []

    /// A receiver on `clock` with the given errors (metres), correlation time (seconds) and outages.
    ///
    /// - Parameters:
    ///   - clock: when fixes arrive, before outages are cut out; 1 Hz with delays up to 10 % of an interval by default.
    ///   - correlatedErrorStandardDeviation: σ_e, the correlated error's stationary standard deviation, in metres.
    ///   - correlationTime: τ, the correlated error's correlation time, in seconds.
    ///   - whiteNoiseStandardDeviation: σ_w, the white noise's standard deviation, in metres.
    ///   - outages: stretches without fixes.
    ///   - outliers: injected multipath outliers, or nil for none.
    ///   - reportedAccuracy: the accuracy each fix reports.
    public init(
        clock: SampleClock = SampleClock(rate: 1, jitter: 0.1),
        correlatedErrorStandardDeviation: Meters = 10, correlationTime: Seconds = 60,
        whiteNoiseStandardDeviation: Meters = 1, outages: [GPSOutage] = [],
        outliers: MultipathOutliers? = nil, reportedAccuracy: ReportedVerticalAccuracy = .none
    ) {
        self.clock = clock
        self.correlatedErrorStandardDeviation = correlatedErrorStandardDeviation
        self.correlationTime = correlationTime
        self.whiteNoiseStandardDeviation = whiteNoiseStandardDeviation
        self.outages = outages
        self.outliers = outliers
        self.reportedAccuracy = reportedAccuracy
    }

    /// The standard deviation of a non-outlier fix's error, √(σ_e² + σ_w²), in metres.
    public var errorStandardDeviation: Meters {
        (correlatedErrorStandardDeviation * correlatedErrorStandardDeviation
            + whiteNoiseStandardDeviation * whiteNoiseStandardDeviation).squareRoot()
    }

    /// The vertical accuracy a fix reports, in metres, or `nil`.
    var reportedAccuracyValue: Meters? {
        switch reportedAccuracy {
        case .none: return nil
        case .constant(let value): return value
        case .modelStandardDeviation(let k): return k * errorStandardDeviation
        }
    }
}
