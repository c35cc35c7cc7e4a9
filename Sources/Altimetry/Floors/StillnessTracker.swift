import StateEstimation

/// The still samples since the last confident transition, reduced to robust block levels, and what they say
/// about the weather and about any change the counter did not count.
///
/// Still samples are cut into blocks of `block` seconds. A block's level is the median of its altitudes and its
/// time the median of its times: for a linear trend sampled evenly the two medians sit on the trend, and a
/// pulse of a few seconds (a door, the ventilation) cannot move a median of a minute of samples.
///
/// The weather rate w, in m/s of apparent climb, is the median of the rates (Lₖ − Lₖ₋₁) / (τₖ − τₖ₋₁) between
/// consecutive blocks of the same still stretch. Weather drifts the whole stretch at one slow rate, so most
/// pairs measure it; a ramp or a slow lift too slow to count steps the level once and spoils only the one or
/// two pairs it overlaps, which the median ignores. A straight-line fit would instead tilt to absorb the step.
///
/// The residual over the blocks since the anchor (the last confident transition, or the start) is
///
///     r = (L_last − L_first) − floorHeight · (n_last − n_first) − w · (τ_last − τ_first),
///
/// the change of level not explained by the floors counted between the first and last block (n is the
/// counted floor at each block) nor by the weather over the time between them.
struct StillnessTracker: Sendable {
    /// A completed block: its median time (s), median altitude (m) and the counted floor while it was recorded.
    struct Level: Sendable, Equatable {
        var time: Seconds
        var altitude: Meters
        var floor: Int
    }

    private let block: Seconds
    private var blockStart: Seconds?
    private var blockTimes: [Seconds] = []
    private var blockAltitudes: [Meters] = []
    /// The previous block of the current still stretch, the left end of the next rate.
    private var previousInStretch: Level?
    private(set) var first: Level?
    private(set) var last: Level?
    /// Rates between consecutive blocks of one still stretch since the anchor, in m/s.
    private(set) var rates: [Double] = []

    init(block: Seconds) {
        self.block = block
    }

    /// Adds a still sample recorded on `floor`; returns true when it completed a block.
    mutating func add(time: Seconds, altitude: Meters, floor: Int) -> Bool {
        var completed = false
        if let start = blockStart, time >= start + block {
            finishBlock(floor: floor)
            completed = true
        }
        if blockStart == nil { blockStart = time }
        blockTimes.append(time)
        blockAltitudes.append(altitude)
        return completed
    }

    /// Ends the current still stretch at a counted transition: the partial block becomes a level, and no rate
    /// spans the transition. `floor` is the floor before the transition.
    mutating func breakStretch(floor: Int) {
        finishBlock(floor: floor)
        previousInStretch = nil
    }

    /// Forgets everything: a confident transition is the new anchor.
    mutating func reset() {
        self = StillnessTracker(block: block)
    }

    /// The median of the block-to-block rates, in m/s, or nil before there is one.
    var medianRate: Double? { Self.median(rates) }

    /// The residual r for the weather rate `weatherRate` (m/s), or nil before two blocks exist.
    func residual(weatherRate: Double, floorHeight: Meters) -> Meters? {
        guard let first, let last, last.time > first.time else { return nil }
        return (last.altitude - first.altitude) - floorHeight * Double(last.floor - first.floor)
            - weatherRate * (last.time - first.time)
    }

    private mutating func finishBlock(floor: Int) {
        defer {
            blockStart = nil
            blockTimes.removeAll(keepingCapacity: true)
            blockAltitudes.removeAll(keepingCapacity: true)
        }
        guard let time = Self.median(blockTimes), let altitude = Self.median(blockAltitudes) else { return }
        let level = Level(time: time, altitude: altitude, floor: floor)
        if let previous = previousInStretch, level.time > previous.time {
            rates.append((level.altitude - previous.altitude) / (level.time - previous.time))
        }
        previousInStretch = level
        if first == nil { first = level }
        last = level
    }

    /// The median of `values`: the middle value, or the mean of the two middle values; nil when empty.
    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
