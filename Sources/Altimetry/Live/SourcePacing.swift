import StateEstimation

/// How fast a recorded or simulated source delivers its readings.
public enum SourcePacing: Sendable, Equatable, Codable {
    /// Every reading at once, as fast as the consumer takes them.
    case immediate
    /// In step with the readings' times, `speed` times faster than real time (1 is real time): the reading at
    /// time t arrives (t − t₀) / speed seconds after the first.
    case realTime(speed: Double)

    /// The wall-clock delay, in seconds, before the reading at `time` given the first reading's time; nil for
    /// `.immediate` or a speed that is not positive and finite.
    ///
    /// - Parameters:
    ///   - time: the reading's time t, in seconds.
    ///   - start: the first reading's time t₀, in seconds.
    public func delay(of time: Seconds, after start: Seconds) -> Seconds? {
        guard case .realTime(let speed) = self, speed.isFinite, speed > 0 else { return nil }
        return max(0, (time - start) / speed)
    }
}
