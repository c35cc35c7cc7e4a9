import StateEstimation

/// The counter's moving average of altitude, s(t), and enough of its past to read it at earlier times.
///
/// s(tᵢ) is the plain mean of the samples with times in (tᵢ − window, tᵢ]; at 1 Hz and a 5 s window that is the
/// seed's mean of samples i−4…i. Between two samples s is read by linear interpolation when they are at most
/// `maximumInterval` apart, and held at the earlier value across a longer gap (nothing is known about the gap,
/// so a change during it appears as a step at its end rather than as a slow, uncountable ramp).
struct SmoothedAltitudeHistory: Sendable {
    private struct Point: Sendable {
        var time: Seconds
        var value: Meters
    }

    private let window: Seconds
    private let maximumInterval: Seconds
    /// How far back, in seconds, `value(at:)` will be asked to read.
    private let horizon: Seconds
    private var raw: [Point] = []
    private var rawHead = 0
    private var smoothed: [Point] = []
    private var smoothedHead = 0

    init(window: Seconds, maximumInterval: Seconds, horizon: Seconds) {
        self.window = window
        self.maximumInterval = maximumInterval
        self.horizon = horizon
    }

    /// Appends a raw sample and returns the smoothed altitude at its time, in metres.
    ///
    /// - Complexity: O(k), k the number of samples in the smoothing window (the mean is recomputed, not
    ///   updated, so it is bit-for-bit the seed's).
    mutating func append(time: Seconds, altitude: Meters) -> Meters {
        raw.append(Point(time: time, value: altitude))
        while rawHead < raw.count, raw[rawHead].time <= time - window { rawHead += 1 }
        Self.compact(&raw, head: &rawHead)
        var sum = 0.0
        for index in rawHead..<raw.count { sum += raw[index].value }
        let mean = sum / Double(raw.count - rawHead)
        smoothed.append(Point(time: time, value: mean))
        // Keep every point inside the horizon plus the last one before it, the left end of any bracket.
        while smoothedHead + 1 < smoothed.count, smoothed[smoothedHead + 1].time <= time - horizon { smoothedHead += 1 }
        Self.compact(&smoothed, head: &smoothedHead)
        return mean
    }

    /// The smoothed altitude at `time`, in metres, which must not precede the retained history.
    ///
    /// Linear between retained points at most `maximumInterval` apart, held across longer gaps; clamped to the
    /// oldest retained value before it.
    func value(at time: Seconds) -> Meters {
        // Binary search for the last point at or before `time`.
        var low = smoothedHead
        var high = smoothed.count
        while low < high {
            let middle = (low + high) / 2
            if smoothed[middle].time <= time { low = middle + 1 } else { high = middle }
        }
        guard low > smoothedHead else { return smoothed[smoothedHead].value }
        let left = smoothed[low - 1]
        guard left.time != time, low < smoothed.count else { return left.value }
        let right = smoothed[low]
        guard right.time - left.time <= maximumInterval else { return left.value }
        let fraction = (time - left.time) / (right.time - left.time)
        return left.value + fraction * (right.value - left.value)
    }

    private static func compact(_ points: inout [Point], head: inout Int) {
        if head > 256, head * 2 > points.count {
            points.removeFirst(head)
            head = 0
        }
    }
}
