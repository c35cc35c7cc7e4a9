import Foundation
import StateEstimation

/// What a GPS receiver's altitude error is, as the filter models it: a correlated part and a white part.
///
/// A fix at time t reads z = h + e(t) + w, with
///
/// - e a first-order Gauss-Markov process of stationary spread σ_e and correlation time τ (the error of satellite
///   geometry, multipath and the atmosphere, which changes over minutes and more): over a step Δt,
///   e ← φ e + √(σ_e² (1 − φ²)) ξ, φ = exp(−Δt/τ);
/// - w white, of spread σ_w (the receiver's fix-to-fix scatter).
///
/// A fix that reports its vertical accuracy a (one sigma) is trusted accordingly: its whole spread is k a, k the
/// `accuracyScale`; the model keeps e with its spread σ_e and gives the rest of the reported variance to the white
/// part, R = max(σ_w², (k a)² − σ_e²) (`whiteVariance(reportedAccuracy:)`). A fix claiming 40 m is then weighted
/// about 1/1500 of one claiming 5 m.
///
/// Averaging N fixes over a span T gains only as much as the span holds independent samples of e: its error is about
/// σ_e √(2τ/T) for T ≫ τ, not σ/√N (the seed's "statistical trap"). How a receiver's σ_e and τ are found:
/// `altimetry identify` for a recording, `ReceiverLearner` while fusing.
public struct GPSReceiverModel: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// σ_e, the correlated error's stationary standard deviation, in metres.
    public var errorStandardDeviation: Meters
    /// τ, the correlated error's correlation time, in seconds.
    public var correlationTime: Seconds
    /// σ_w, the white noise's standard deviation, in metres.
    public var whiteNoiseStandardDeviation: Meters
    /// k, the scale on a reported vertical accuracy (1 trusts it as reported).
    public var accuracyScale: Double

    /// A receiver with σ_e and σ_w in metres, τ in seconds and the scale k on reported accuracies.
    ///
    /// - Parameters:
    ///   - errorStandardDeviation: σ_e, in metres.
    ///   - correlationTime: τ, in seconds.
    ///   - whiteNoiseStandardDeviation: σ_w, in metres.
    ///   - accuracyScale: k, dimensionless.
    public init(
        errorStandardDeviation: Meters, correlationTime: Seconds, whiteNoiseStandardDeviation: Meters = 1,
        accuracyScale: Double = 1
    ) {
        self.errorStandardDeviation = errorStandardDeviation
        self.correlationTime = correlationTime
        self.whiteNoiseStandardDeviation = whiteNoiseStandardDeviation
        self.accuracyScale = accuracyScale
    }

    /// The variance of a fix's white part, in m²: σ_w², or (k a)² − σ_e² where the fix reports an accuracy a that
    /// leaves more (see the type's discussion).
    ///
    /// - Parameter reportedAccuracy: the fix's reported vertical accuracy a, one sigma in metres, or nil.
    @inline(__always)
    public func whiteVariance(reportedAccuracy: Meters?) -> Double {
        let white = whiteNoiseStandardDeviation * whiteNoiseStandardDeviation
        guard let reportedAccuracy else { return white }
        let a = reportedAccuracy * accuracyScale
        return max(white, a * a - errorStandardDeviation * errorStandardDeviation)
    }

    /// φ = exp(−Δt/τ), the correlated error's decay over `dt` seconds.
    @inline(__always)
    public func decay(over dt: Seconds) -> Double { exp(-dt / correlationTime) }

    /// Whether every number is finite and positive, as a receiver the filter can use must be (a saved state's is
    /// checked so before use).
    var isValid: Bool {
        [errorStandardDeviation, correlationTime, whiteNoiseStandardDeviation, accuracyScale]
            .allSatisfy { $0.isFinite && $0 > 0 }
    }

    /// The spread that fixes of this receiver keep about their own mean over a run of `duration` seconds, in metres,
    /// with white variance `whiteVariance` (m²) per fix:
    ///
    ///     s(T) = √(σ_w² + σ_e² (1 − g(T/τ))),   g(x) = 2 (x − 1 + e^(−x)) / x²,
    ///
    /// since the mean of a stationary Gauss-Markov error over T has variance σ_e² g(T/τ), and its sample variance
    /// about that mean is the rest. Over a run much shorter than τ the correlated error barely moves (s → σ_w); over a
    /// run much longer it scatters by its whole spread (s → √(σ_e² + σ_w²)).
    public func runStandardDeviation(over duration: Seconds, whiteVariance: Double) -> Meters {
        let x = duration / correlationTime
        // g(x) = 1 − x/3 + x²/12 − ... near zero, where the closed form loses its digits.
        let g = x < 1e-3 ? 1 - x / 3 : x.isFinite ? 2 * (x - 1 + exp(-x)) / (x * x) : 0
        let e2 = errorStandardDeviation * errorStandardDeviation
        return (whiteVariance + e2 * max(0, 1 - g)).squareRoot()
    }

    /// The stationary spread of a fix's whole error, √(σ_e² + σ_w²), in metres.
    public var totalStandardDeviation: Meters {
        (errorStandardDeviation * errorStandardDeviation + whiteNoiseStandardDeviation * whiteNoiseStandardDeviation)
            .squareRoot()
    }

    public var description: String {
        String(
            format: "%.1f m / %.0f s (white %.1f m, accuracy scale %.2f)", errorStandardDeviation, correlationTime,
            whiteNoiseStandardDeviation, accuracyScale)
    }
}
