/// Total ascent and descent of one signal by one rule, for comparison beside the fused figure.
public struct AscentTotals: Sendable, Equatable, Codable {
    /// The rule, such as "gpxpy" or "hysteresis".
    public var rule: String
    /// The hysteresis used, in metres (0 for gpxpy's rule).
    public var hysteresis: Meters
    /// Total ascent and descent, in metres (both positive).
    public var ascent: Meters
    /// Total descent, in metres (positive).
    public var descent: Meters

    /// Totals by `rule` with `hysteresis`, `ascent` and `descent` in metres.
    ///
    /// - Parameters:
    ///   - rule: the counting rule's name.
    ///   - hysteresis: the hysteresis it counted with, in metres.
    ///   - ascent: the total ascent, in metres.
    ///   - descent: the total descent, in metres.
    public init(rule: String, hysteresis: Meters, ascent: Meters, descent: Meters) {
        self.rule = rule
        self.hysteresis = hysteresis
        self.ascent = ascent
        self.descent = descent
    }
}
