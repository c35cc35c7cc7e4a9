/// A hysteresis that grows with the time a reversal took: H(τ), in metres, for a reversal over τ seconds.
///
/// The uncertainty of an altitude difference grows with the time between its two ends: the barometer's noise
/// is the same at any lag, but the weather (and the air column) can move further in ten minutes than in ten
/// seconds. A constant H sized for ten seconds counts the slow wander of the fused track as climbs; one sized
/// for ten minutes misses every small quick climb. `AscentAnalysis` builds H(τ) = k σ_Δ(τ) from the smoothed
/// track's uncertainty of differences at a few lags (`Docs/ascent.md`).
///
/// H is piecewise linear between the points given, constant before the first and after the last, and made
/// non-decreasing (a longer reversal never needs less than a shorter one).
public struct AscentHysteresis: Sendable, Equatable, Codable {
    /// The lags τ, in seconds, increasing.
    public let lags: [Double]
    /// H at each lag, in metres, non-decreasing.
    public let values: [Meters]

    /// A constant hysteresis of `value` metres at any lag.
    ///
    /// - Precondition: `value` is finite and non-negative.
    public init(constant value: Meters) {
        self.init(lags: [0], values: [value])
    }

    /// H through the points (τᵢ, Hᵢ); values are raised to the largest before them so that H never decreases.
    ///
    /// - Parameters:
    ///   - lags: τᵢ, in seconds, strictly increasing.
    ///   - values: Hᵢ, in metres, one per lag.
    /// - Precondition: at least one point, lags strictly increasing, values finite and non-negative.
    public init(lags: [Double], values: [Meters]) {
        precondition(!lags.isEmpty && lags.count == values.count, "AscentHysteresis: one value per lag, at least one")
        precondition(zip(lags, lags.dropFirst()).allSatisfy { $0 < $1 }, "AscentHysteresis: lags must increase")
        precondition(
            values.allSatisfy { $0 >= 0 && $0.isFinite },
            "AscentHysteresis: values must be finite and non-negative metres")
        self.lags = lags
        var running = 0.0
        self.values = values.map {
            running = max(running, $0)
            return running
        }
    }

    /// H at the shortest lag, in metres: no reversal smaller than this is ever counted.
    public var smallest: Meters { values[0] }

    /// The longest lag given, in seconds: H is constant beyond it.
    public var longestLag: Double { lags[lags.count - 1] }

    /// H(τ), in metres.
    public func value(atLag lag: Double) -> Meters {
        guard lag > lags[0] else { return values[0] }
        guard lag < longestLag else { return values[values.count - 1] }
        var upper = 1
        while lags[upper] < lag { upper += 1 }
        let f = (lag - lags[upper - 1]) / (lags[upper] - lags[upper - 1])
        return values[upper - 1] + f * (values[upper] - values[upper - 1])
    }
}
