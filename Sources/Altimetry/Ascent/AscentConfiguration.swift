import StateEstimation

/// The choices behind an ascent count (see `Docs/ascent.md` for why each has its value).
public struct AscentConfiguration: Sendable, Equatable, Codable {
    /// The centred moving average applied to the fused altitude before turning points are sought, in seconds.
    ///
    /// The smoothed track still carries the barometer's white noise (about 0.1 m per reading); the highest
    /// sample of a summit and the lowest of a valley are then biased by the noise's extremes, a few tenths of a
    /// metre at every turning point. Averaging over 10 s cuts that noise by √10 at 1 Hz, while a rounded hilltop
    /// loses only (curvature × w²/24), centimetres for any hill a hiker walks.
    public var averagingTime: Seconds = 10
    /// The hysteresis in units of σ_Δ, the one-sigma uncertainty of the difference between two adjacent averaged
    /// altitudes (see `hysteresis(differenceStandardDeviation:)`).
    public var hysteresisSigmas: Double = 3
    /// The hysteresis values, in metres, of the GPS-only comparison (gpxpy's own rule, no threshold, is always given).
    public var gpsHysteresisValues: [Meters] = [3, 5, 10]

    /// The defaults, which `altimetry ascent` uses without options.
    public init() {}

    /// The lags at which the hysteresis is derived, in units of the averaging window: 1, 3, 6, 12, 30, 60, 120, 240
    /// and 360 windows (10 s to 1 h for the default window). Beyond the last, H stays at its last value: a reversal
    /// that took longer than an hour is compared with the uncertainty of an hour's difference.
    public var hysteresisLagWindows: [Double] = [1, 3, 6, 12, 30, 60, 120, 240, 360]

    /// The lags, in seconds.
    func hysteresisLags(averagingTime: Seconds) -> [Double] { hysteresisLagWindows.map { $0 * max(averagingTime, 1) } }
}
