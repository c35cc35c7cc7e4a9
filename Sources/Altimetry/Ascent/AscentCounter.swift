/// Total ascent and descent of an altitude series, counted with a hysteresis, one sample at a time.
///
/// A climb or descent is counted only once the altitude has reversed by more than the hysteresis H from the
/// last extreme: the classic turning-point rule (a Schmitt trigger on altitude). Going up, the counter keeps the
/// highest sample since the last valley as the candidate summit; a sample more than H below it confirms the
/// summit as a turning point and the counter turns to going down, and so on. Until the first reversal of more
/// than H the direction is open. The counted ascent is the sum of the rises between successive turning points,
/// the descent the sum of the falls; at the end the last candidate extreme closes the last segment.
///
/// With H = 0 every reversal counts, and the ascent is the sum of every positive difference between successive
/// samples (the rule of gpxpy and most GPX tools). A larger H ignores wiggles smaller than H at the price of
/// also ignoring real climbs smaller than H.
///
/// This is the accumulator a streaming caller feeds one sample at a time; `AscentAnalysis` uses it on whole
/// tracks.
public struct AscentCounter: Sendable, Equatable {
    /// One extreme of the series: a summit or a valley (or the series' first and last extremes).
    public struct TurningPoint: Sendable, Equatable, Codable {
        /// The sample's index in the order fed (0-based).
        public var index: Int
        /// Its time, in seconds.
        public var time: Double
        /// Its altitude, in metres.
        public var altitude: Meters
    }

    /// The hysteresis H, in metres (non-negative).
    public let hysteresis: Meters
    /// The turning points confirmed so far, in order.
    public private(set) var turningPoints: [TurningPoint] = []
    /// +1 going up, −1 going down, 0 until the first reversal of more than H.
    private var direction = 0
    /// The candidate extreme in the current direction (the running maximum going up, the minimum going down).
    private var candidate: TurningPoint?
    /// The lowest and highest samples while the direction is open.
    private var lowest: TurningPoint?
    private var highest: TurningPoint?
    private var count = 0

    /// A counter with hysteresis H metres.
    ///
    /// - Precondition: H is finite and non-negative.
    public init(hysteresis: Meters) {
        precondition(hysteresis >= 0 && hysteresis.isFinite, "AscentCounter: the hysteresis must be a finite, non-negative number of metres")
        self.hysteresis = hysteresis
    }

    /// Feeds the next sample. Non-finite altitudes are skipped (they still take an index).
    public mutating func add(time: Double, altitude: Meters) {
        defer { count += 1 }
        guard altitude.isFinite else { return }
        let point = TurningPoint(index: count, time: time, altitude: altitude)
        switch direction {
        case 0:
            if lowest == nil || altitude < lowest?.altitude ?? altitude { lowest = point }
            if highest == nil || altitude > highest?.altitude ?? altitude { highest = point }
            guard let low = lowest, let high = highest, high.altitude - low.altitude > hysteresis else { return }
            if low.index < high.index {
                turningPoints.append(low)
                direction = 1
                candidate = high
            } else {
                turningPoints.append(high)
                direction = -1
                candidate = low
            }
        default:
            guard let extreme = candidate else { return }
            let d = Double(direction)
            if d * (altitude - extreme.altitude) > 0 {
                candidate = point
            } else if d * (extreme.altitude - altitude) > hysteresis {
                turningPoints.append(extreme)
                direction = -direction
                candidate = point
            }
        }
    }

    /// The turning points with the current candidate extreme closing the last segment.
    public var closedTurningPoints: [TurningPoint] {
        guard direction != 0, let candidate else { return turningPoints }
        return turningPoints + [candidate]
    }

    /// The total ascent, in metres: the sum of the rises between successive (closed) turning points.
    public var ascent: Meters { Self.totals(closedTurningPoints).ascent }
    /// The total descent, in metres (positive).
    public var descent: Meters { Self.totals(closedTurningPoints).descent }

    /// Ascent and descent between successive turning points.
    static func totals(_ points: [TurningPoint]) -> (ascent: Meters, descent: Meters) {
        var ascent = 0.0, descent = 0.0
        for (a, b) in zip(points, points.dropFirst()) {
            let gain = b.altitude - a.altitude
            if gain > 0 { ascent += gain } else { descent -= gain }
        }
        return (ascent, descent)
    }

    /// Counts a whole series at once.
    public static func count(times: [Double], altitudes: [Meters], hysteresis: Meters) -> AscentCounter {
        var counter = AscentCounter(hysteresis: hysteresis)
        for (t, h) in zip(times, altitudes) { counter.add(time: t, altitude: h) }
        return counter
    }
}
