/// Total ascent and descent of a track with their one sigma, its segments and extremes, and the comparisons.
public struct AscentReport: Sendable, Equatable, Codable {
    /// A value with its one-sigma uncertainty and the two parts of that sigma.
    ///
    /// The variance splits into the part the air column's temperature explains
    /// (`SmoothedAltitudeTrack.columnVariances(of:)`) and the rest: standardDeviation² = pressure² + column².
    public struct Uncertain: Sendable, Equatable, Codable {
        /// The value, in metres.
        public var value: Meters
        /// One sigma, in metres: the smoothed error of the whole state (altitude and column together).
        public var standardDeviation: Meters
        /// The pressure's part, in metres: the sigma were the column's temperature known (barometer, weather, GPS).
        public var pressureStandardDeviation: Meters
        /// The column's part, in metres: what the uncertainty of the air column's temperature leaves in the figure.
        public var columnStandardDeviation: Meters
    }

    /// Total ascent, in metres; its sigma is at least `differenceStandardDeviation` (a climb below the hysteresis
    /// is not counted), so standardDeviation² ≥ pressure² + column² for the totals.
    public var ascent: Uncertain
    /// Total descent, in metres (positive); its sigma floored as the ascent's.
    public var descent: Uncertain
    /// The highest and lowest (averaged) fused altitude, in metres above mean sea level.
    public var highest: Uncertain
    /// The lowest (averaged) fused altitude, in metres above mean sea level.
    public var lowest: Uncertain
    /// Each climb and descent, in order.
    public var segments: [AscentSegment]
    /// The hysteresis at the shortest lag (one averaging window), in metres, and the difference sigma σ_Δ it was
    /// derived from.
    public var hysteresis: Meters
    /// The hysteresis at every lag (`AscentHysteresis`): k times the uncertainty of a difference that long.
    public var hysteresisByLag: AscentHysteresis
    /// The difference sigma σ_Δ at the shortest lag, in metres: the one sigma of the change between two averaged
    /// altitudes one averaging window apart.
    public var differenceStandardDeviation: Meters
    /// Whether the air temperature was assumed (the track carries none): the column's temperature is then the
    /// model's prior (`column_temp_prior_sigma` about the standard atmosphere) as far as GPS has not learned it.
    public var temperatureAssumed: Bool
    /// The smoothed column temperature's one sigma, in K (the median over the track; NaN without the column state).
    public var columnTemperatureStandardDeviation: Double
    /// GPS altitude alone: gpxpy's rule, then each hysteresis of the configuration; empty without fixes.
    public var gpsOnly: [AscentTotals]
    /// The raw barometer (pressure altitude at standard QNH, temperature-scaled where measured) with the same
    /// averaging and hysteresis as the fused altitude; nil without pressures.
    public var barometerOnly: AscentTotals?
    /// GPS altitudes and pressures removed as impossible (`ImpossibleAltitudes`) before anything was counted.
    public var impossibleValues: Int = 0
}
