import Altimetry
import Randomness
import StateEstimation

/// When a sensor delivers its samples: a nominal rate with a random delivery delay (jitter).
///
/// Sample k arrives at
///
///     t_k = phase + k / rate + jitter · u_k / rate,   u_k ~ U[0, 1) independent,
///
/// a regular grid (computed as k / rate, so that integer-second instants are exact and two sensors whose
/// grids share an instant produce exactly equal times) plus a delay of up to `jitter` of an interval.
/// Consecutive samples are at least (1 − jitter) / rate apart, so with jitter below 1 the times increase
/// strictly, and the grid never drifts.
public struct SampleClock: Sendable, Equatable, Codable {
    /// Nominal sampling rate, in hertz (positive).
    public var rate: Double
    /// Largest delivery delay as a fraction of the nominal interval, in [0, 1).
    public var jitter: Double
    /// Time of the first grid instant, in seconds (non-negative).
    public var phase: Seconds

    /// A clock at `rate` samples per second with `jitter` (a fraction of the interval), starting at `phase` seconds.
    ///
    /// - Parameters:
    ///   - rate: the nominal sampling rate, in hertz (positive).
    ///   - jitter: the largest delivery delay as a fraction of the nominal interval, in [0, 1); 0 by default.
    ///   - phase: the time of the first grid instant, in seconds (non-negative); 0 by default.
    public init(rate: Double, jitter: Double = 0, phase: Seconds = 0) {
        self.rate = rate
        self.jitter = jitter
        self.phase = phase
    }

    /// Sample times in [0, duration), drawing the delays from `generator`.
    func times(before duration: Seconds, using generator: inout SeededGenerator) -> [Seconds] {
        var times: [Seconds] = []
        // Capped so that an absurd duration fails by running out of memory gradually, not by overflowing Int.
        times.reserveCapacity(Int(min(max(0, (duration - phase) * rate), 1e8)) + 1)
        var k = 0.0
        while true {
            let delay = jitter > 0 ? jitter * generator.uniform() / rate : 0
            let t = phase + k / rate + delay
            if t >= duration { break }
            times.append(t)
            k += 1
        }
        return times
    }
}
