import Altimetry
import StateEstimation

/// A stretch of time without GPS fixes (a tunnel, a canyon, a building), [start, start + duration).
///
/// The receiver's correlated error keeps evolving during the outage; the first fix after it carries
/// whatever the Gauss-Markov process has become, which after an outage much longer than τ is nearly a fresh
/// draw.
public struct GPSOutage: Sendable, Equatable, Codable {
    /// Start of the outage, in seconds since the start of the scenario.
    public var start: Seconds
    /// Length of the outage, in seconds.
    public var duration: Seconds

    /// An outage from `start` for `duration`, both in seconds.
    ///
    /// - Parameters:
    ///   - start: the outage's start, in seconds since the start of the scenario.
    ///   - duration: its length, in seconds.
    public init(start: Seconds, duration: Seconds) {
        self.start = start
        self.duration = duration
    }

    /// End of the outage (exclusive), in seconds.
    public var end: Seconds { start + duration }

    /// Whether a time falls inside the outage.
    ///
    /// - Parameter time: seconds since the start of the scenario; in the outage when `start` ≤ `time` < `start +
    ///   duration`.
    public func contains(_ time: Seconds) -> Bool { time >= start && time < end }
}
