import Altimetry
import Foundation
import StateEstimation

/// A weather front: the sea-level pressure changes by a given amount over a given time, smoothly.
///
/// The change follows a raised-cosine ramp from `start` to `start + duration`,
///
///     Δb(t) = change · ½ (1 − cos(π x)),   x = clamp((t − start) / duration, 0, 1),
///
/// so the pressure and its rate are continuous; the steepest rate, π/2 · change / duration at mid-front, is
/// about 1.57 times the mean rate. Before the front the offset is 0; after it, `change` for good.
public struct PressureFront: Sendable, Equatable, Codable {
    /// When the change begins, in seconds since the start of the scenario.
    public var start: Seconds
    /// How long the change takes, in seconds (positive).
    public var duration: Seconds
    /// Total change of sea-level pressure, in hPa (negative for the falling pressure of an approaching front).
    public var change: Hectopascals

    /// A front from `start` for `duration` (seconds) changing sea-level pressure by `change` hPa.
    ///
    /// - Parameters:
    ///   - start: the front's start, in seconds since the start of the scenario.
    ///   - duration: how long the change takes, in seconds.
    ///   - change: the total change of sea-level pressure, in hPa.
    public init(start: Seconds, duration: Seconds, change: Hectopascals) {
        self.start = start
        self.duration = duration
        self.change = change
    }

    /// When the change is complete, in seconds.
    public var end: Seconds { start + duration }

    /// The front's contribution to the sea-level pressure offset at a time, in hPa.
    ///
    /// - Parameter time: seconds since the start of the scenario.
    public func offset(at time: Seconds) -> Hectopascals {
        if time <= start { return 0 }
        if time >= end { return change }
        let x = (time - start) / duration
        return change * 0.5 * (1 - cos(Double.pi * x))
    }
}
