import Altimetry
import Foundation
import StateEstimation

/// A fault of the barometer, on top of its noise: what a sensor does when it fails, not what the air does.
public enum BarometerFault: Sendable, Equatable, Codable {
    /// From `start` on, every reading is off by `change` hPa (a step that stays).
    case step(start: Seconds, change: Hectopascals)
    /// From `start` for `duration` seconds, every reading is off by `change` hPa, then right again.
    case spike(start: Seconds, duration: Seconds, change: Hectopascals)
    /// From `start` for `duration` seconds, every reading repeats the last one before `start`, bit for bit.
    case stuck(start: Seconds, duration: Seconds)

    /// The offset this fault adds at `time`, in hPa (0 for a stuck barometer, which `stuckSince` describes).
    func offset(at time: Seconds) -> Hectopascals {
        switch self {
        case .step(let start, let change): return time >= start ? change : 0
        case .spike(let start, let duration, let change): return time >= start && time < start + duration ? change : 0
        case .stuck: return 0
        }
    }

    /// Whether the reading at `time` repeats the last one before the fault.
    func isStuck(at time: Seconds) -> Bool {
        if case .stuck(let start, let duration) = self { return time >= start && time < start + duration }
        return false
    }
}

/// A fault of the GPS receiver, on top of its error model.
public enum GPSFault: Sendable, Equatable, Codable {
    /// From `start` for `duration` seconds every fix is off by `change` metres (a wrong datum, a receiver reset);
    /// `duration` may be infinite.
    case jump(start: Seconds, duration: Seconds, change: Meters)
    /// A cold start: the fixes before `duration` seconds are off by `offset` metres, which then fades over
    /// `fade` seconds, exp(−(t − duration)/fade), as the receiver converges.
    case coldStart(offset: Meters, duration: Seconds, fade: Seconds)

    /// The offset this fault adds to a fix at `time`, in metres.
    func offset(at time: Seconds) -> Meters {
        switch self {
        case .jump(let start, let duration, let change): return time >= start && time - start < duration ? change : 0
        case .coldStart(let offset, let duration, let fade):
            return time < duration ? offset : offset * exp(-(time - duration) / max(fade, 1e-9))
        }
    }
}
