import Foundation
import Randomness

/// A continuous Gaussian Markov process known exactly at some anchor times, sampled anywhere in between.
///
/// The simulator draws each continuous process at one sensor's sample times only (the weather at the
/// barometer's, the GPS error at the fixes'), so that one sensor's readings never depend on the other's
/// clock. At the other rows it draws the process from its exact law conditioned on the last value drawn
/// and the next anchor (a bridge), or forward from the last value after the final anchor; since both
/// processes are Markov, the values at all rows together have exactly the process's joint distribution.
///
/// For a Wiener process with variance rate q (W(t) − W(s) ~ N(0, q (t − s))), between a value a at t_a and
/// an anchor c at t_c:
///
///     W(t) ~ N(a + (c − a)(t − t_a)/(t_c − t_a),  q (t − t_a)(t_c − t)/(t_c − t_a)).
///
/// For a first-order Gauss-Markov process (σ, τ), with φ₁ = exp(−(t − t_a)/τ) and φ₂ = exp(−(t_c − t)/τ):
///
///     e(t) ~ N((φ₁(1 − φ₂²) a + φ₂(1 − φ₁²) c) / (1 − φ₁²φ₂²),  σ² (1 − φ₁²)(1 − φ₂²) / (1 − φ₁²φ₂²)),
///
/// the product of the forward law N(φ₁ a, σ²(1 − φ₁²)) and the likelihood of c given e(t).
struct AnchoredPath {
    enum Law {
        /// Wiener process with variance rate q, in unit²/s.
        case wiener(variancePerSecond: Double)
        /// First-order Gauss-Markov process with stationary σ and correlation time τ in s.
        case gaussMarkov(standardDeviation: Double, correlationTime: Double)
    }

    let law: Law
    let anchorTimes: [Double]
    let anchorValues: [Double]
    /// Index of the first anchor not yet passed.
    private var next = 0
    /// The latest time sampled (anchor or bridge) and its value.
    private var last: (time: Double, value: Double)

    /// - Precondition: anchors non-empty, the first at t = 0, times non-decreasing.
    init(law: Law, anchorTimes: [Double], anchorValues: [Double]) {
        precondition(anchorTimes.first == 0 && anchorTimes.count == anchorValues.count, "Anchors start at t = 0")
        self.law = law
        self.anchorTimes = anchorTimes
        self.anchorValues = anchorValues
        last = (0, anchorValues[0])
    }

    /// The value at `time`, drawing from `random` when `time` is not an anchor; times must not decrease.
    mutating func value(at time: Double, using random: inout SeededGenerator) -> Double {
        while next < anchorTimes.count, anchorTimes[next] < time {
            last = (anchorTimes[next], anchorValues[next])
            next += 1
        }
        if next < anchorTimes.count, anchorTimes[next] == time { return anchorValues[next] }
        if time == last.time { return last.value }
        let value: Double
        if next < anchorTimes.count {
            value = bridge(at: time, to: (anchorTimes[next], anchorValues[next]), using: &random)
        } else {
            value = forward(to: time, using: &random)
        }
        last = (time, value)
        return value
    }

    private func bridge(
        at t: Double, to anchor: (time: Double, value: Double),
        using random: inout SeededGenerator
    ) -> Double {
        let a = last.value, c = anchor.value
        switch law {
        case .wiener(let q):
            let span = anchor.time - last.time
            let mean = a + (c - a) * (t - last.time) / span
            let variance = q * (t - last.time) * (anchor.time - t) / span
            return mean + variance.squareRoot() * random.gaussian()
        case .gaussMarkov(let sigma, let tau):
            let phi1 = exp(-(t - last.time) / tau), phi2 = exp(-(anchor.time - t) / tau)
            let denominator = 1 - phi1 * phi1 * phi2 * phi2
            let mean = (phi1 * (1 - phi2 * phi2) * a + phi2 * (1 - phi1 * phi1) * c) / denominator
            let variance = sigma * sigma * (1 - phi1 * phi1) * (1 - phi2 * phi2) / denominator
            return mean + variance.squareRoot() * random.gaussian()
        }
    }

    private func forward(to t: Double, using random: inout SeededGenerator) -> Double {
        let step = t - last.time
        switch law {
        case .wiener(let q):
            return last.value + (q * step).squareRoot() * random.gaussian()
        case .gaussMarkov(let sigma, let tau):
            let phi = exp(-step / tau)
            return phi * last.value + sigma * (1 - phi * phi).squareRoot() * random.gaussian()
        }
    }
}
