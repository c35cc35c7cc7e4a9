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
    /// The one-sigma range of air temperature about the standard atmosphere assumed when the track has none, in K.
    ///
    /// Half the plausible span of a hiker's air: 25 K below standard is −29.5 °C at 3,000 m (deep winter at
    /// altitude), 25 K above is 33.5 °C at 1,000 m (a heat wave in the valley). Taken as one sigma, so the stated
    /// ascent sigma holds in any season, at the price of being wide on an ordinary day.
    public var assumedTemperatureDeviation: Double = 25
    /// The hysteresis values, in metres, of the GPS-only comparison (gpxpy's own rule, no threshold, is always given).
    public var gpsHysteresisValues: [Meters] = [3, 5, 10]

    /// The defaults, which `altimetry ascent` uses without options.
    public init() {}

    /// The hysteresis H = `hysteresisSigmas` σ_Δ, in metres.
    public func hysteresis(differenceStandardDeviation sigma: Meters) -> Meters { hysteresisSigmas * sigma }
}
