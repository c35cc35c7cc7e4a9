/// Total ascent and descent of a track with their one sigma, its segments and extremes, and the comparisons.
public struct AscentReport: Sendable, Equatable, Codable {
    /// A value with its one-sigma uncertainty and the two parts of that sigma.
    public struct Uncertain: Sendable, Equatable, Codable {
        /// The value, in metres.
        public var value: Meters
        /// One sigma, in metres: √(filter² + temperature²).
        public var standardDeviation: Meters
        /// The part from the filter's covariance, in metres.
        public var filterStandardDeviation: Meters
        /// The part from the assumed air temperature, in metres (0 when the track carries temperature).
        public var temperatureStandardDeviation: Meters
    }

    /// Total ascent, in metres.
    public var ascent: Uncertain
    /// Total descent, in metres (positive).
    public var descent: Uncertain
    /// The highest and lowest (averaged) fused altitude, in metres above mean sea level.
    public var highest: Uncertain
    /// The lowest (averaged) fused altitude, in metres above mean sea level.
    public var lowest: Uncertain
    /// Each climb and descent, in order.
    public var segments: [AscentSegment]
    /// The hysteresis used, in metres, and the difference sigma σ_Δ it was derived from.
    public var hysteresis: Meters
    /// The difference sigma σ_Δ, in metres: the one sigma of the change between two averaged altitudes.
    public var differenceStandardDeviation: Meters
    /// Whether the air temperature was assumed (the track carries none).
    public var temperatureAssumed: Bool
    /// The one-sigma temperature range assumed about the standard atmosphere, in K (0 when measured).
    public var assumedTemperatureDeviation: Double
    /// GPS altitude alone: gpxpy's rule, then each hysteresis of the configuration; empty without fixes.
    public var gpsOnly: [AscentTotals]
    /// The raw barometer (pressure altitude at standard QNH, temperature-scaled where measured) with the same
    /// averaging and hysteresis as the fused altitude; nil without pressures.
    public var barometerOnly: AscentTotals?
}
