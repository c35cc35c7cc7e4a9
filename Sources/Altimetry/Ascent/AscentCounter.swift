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

    /// The hysteresis H(τ), in metres, for a reversal that took τ seconds.
    public let hysteresis: AscentHysteresis
    /// The turning points confirmed so far, in order.
    public private(set) var turningPoints: [TurningPoint] = []
    /// +1 going up, −1 going down, 0 until the first reversal.
    private var direction = 0
    /// The candidate extreme in the current direction (the running maximum going up, the minimum going down).
    private var candidate: TurningPoint?
    /// While the direction is open: the lowest sample and the highest after it, the highest and the lowest after it.
    private var lowest: TurningPoint?
    private var highestAfterLowest: TurningPoint?
    private var highest: TurningPoint?
    private var lowestAfterHighest: TurningPoint?
    /// The samples of the last `hysteresis.longestLag` seconds, the start of a reversal in each test.
    private var recent: [TurningPoint] = []
    private var recentStart = 0
    private var count = 0

    /// A counter with a constant hysteresis of H metres.
    ///
    /// - Parameter hysteresis: H, in metres.
    /// - Precondition: H is finite and non-negative.
    public init(hysteresis: Meters) {
        precondition(
            hysteresis >= 0 && hysteresis.isFinite,
            "AscentCounter: the hysteresis must be a finite, non-negative number of metres")
        self.hysteresis = AscentHysteresis(constant: hysteresis)
    }

    /// A counter whose hysteresis grows with the time a reversal took.
    public init(hysteresis: AscentHysteresis) {
        self.hysteresis = hysteresis
    }

    /// Feeds the next sample. Non-finite altitudes are skipped (they still take an index).
    ///
    /// A reversal from the candidate extreme is confirmed at a sample c once, for some earlier sample j at or
    /// after the extreme, the altitude has moved back by more than H(t_c − t_j) between j and c. With a constant
    /// H the extreme itself is the j that decides (it is the furthest), which is the classic rule; with H(τ)
    /// growing, a quick reversal long after the extreme still counts, and a slow drift must be larger to count.
    ///
    /// - Parameters:
    ///   - time: the sample's time, in seconds, not before the previous sample's.
    ///   - altitude: the sample's altitude, in metres.
    public mutating func add(time: Double, altitude: Meters) {
        defer { count += 1 }
        guard altitude.isFinite else { return }
        let point = TurningPoint(index: count, time: time, altitude: altitude)
        switch direction {
        case 0:
            if lowest == nil || altitude < lowest?.altitude ?? altitude {
                lowest = point
                highestAfterLowest = point
            } else if altitude > highestAfterLowest?.altitude ?? altitude {
                highestAfterLowest = point
            }
            if highest == nil || altitude > highest?.altitude ?? altitude {
                highest = point
                lowestAfterHighest = point
            } else if altitude < lowestAfterHighest?.altitude ?? altitude {
                lowestAfterHighest = point
            }
            remember(point)
            guard let low = lowest, let high = highest else { return }
            if reversed(by: 1, from: low, at: point), let peak = highestAfterLowest {
                turningPoints.append(low)
                direction = 1
                candidate = peak
            } else if reversed(by: -1, from: high, at: point), let trough = lowestAfterHighest {
                turningPoints.append(high)
                direction = -1
                candidate = trough
            } else {
                return
            }
            forgetBefore(candidate)
        default:
            guard let extreme = candidate else { return }
            let d = Double(direction)
            remember(point)
            if d * (altitude - extreme.altitude) > 0 {
                candidate = point
                forgetBefore(point)
            } else if reversed(by: -d, from: extreme, at: point) {
                turningPoints.append(extreme)
                direction = -direction
                candidate = point
                forgetBefore(point)
            }
        }
    }

    /// Whether the altitude at `c` has moved in direction `d` (+1 up, −1 down) by more than H(t_c − t_j) from
    /// some sample j: the extreme `from`, or a recent sample after it.
    private func reversed(by d: Double, from extreme: TurningPoint, at c: TurningPoint) -> Bool {
        let move = d * (c.altitude - extreme.altitude)
        // The extreme is the furthest start; below the smallest H nothing can count.
        guard move > hysteresis.smallest else { return false }
        if move > hysteresis.value(atLag: c.time - extreme.time) { return true }
        for j in recent[recentStart...] where j.index > extreme.index {
            if d * (c.altitude - j.altitude) > hysteresis.value(atLag: c.time - j.time) { return true }
        }
        return false
    }

    /// Keeps `point` among the recent samples and drops those older than the longest lag.
    private mutating func remember(_ point: TurningPoint) {
        guard hysteresis.lags.count > 1 else { return }
        recent.append(point)
        while recentStart < recent.count, recent[recentStart].time < point.time - hysteresis.longestLag {
            recentStart += 1
        }
        if recentStart > 4_096 && recentStart * 2 > recent.count {
            recent.removeFirst(recentStart)
            recentStart = 0
        }
    }

    /// Drops the recent samples before `point` (a new extreme: no reversal can start before it).
    private mutating func forgetBefore(_ point: TurningPoint?) {
        guard let point else { return }
        while recentStart < recent.count, recent[recentStart].index < point.index { recentStart += 1 }
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

    /// Counts a whole series at once with a constant hysteresis H metres.
    ///
    /// - Parameters:
    ///   - times: the samples' times, in seconds, non-decreasing.
    ///   - altitudes: one altitude per time, in metres; non-finite ones are skipped.
    ///   - hysteresis: H, in metres, finite and non-negative.
    public static func count(times: [Double], altitudes: [Meters], hysteresis: Meters) -> AscentCounter {
        count(times: times, altitudes: altitudes, hysteresis: AscentHysteresis(constant: hysteresis))
    }

    /// Counts a whole series at once with a hysteresis H(τ).
    ///
    /// - Parameters:
    ///   - times: the samples' times, in seconds, non-decreasing.
    ///   - altitudes: one altitude per time, in metres; non-finite ones are skipped.
    ///   - hysteresis: H(τ), in metres, for a reversal that took τ seconds.
    public static func count(times: [Double], altitudes: [Meters], hysteresis: AscentHysteresis) -> AscentCounter {
        var counter = AscentCounter(hysteresis: hysteresis)
        for (t, h) in zip(times, altitudes) { counter.add(time: t, altitude: h) }
        return counter
    }
}
