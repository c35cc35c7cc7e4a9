import Foundation

/// A first-order Gauss-Markov process: a stationary, exponentially correlated Gaussian error.
///
/// Its autocorrelation is σ² exp(−|Δt|/τ). Over a step Δt the exact discretisation is
///
///     e(t + Δt) = φ e(t) + w,   φ = exp(−Δt/τ),   w ~ N(0, σ² (1 − φ²)),
///
/// which holds for any Δt > 0, regular or not, and keeps the variance at σ² forever. This is the model
/// the seed uses for GPS altitude error (σ = 10 m, τ = 60 s are its illustrative values).
public struct GaussMarkovProcess: Sendable, Equatable, Codable {
    /// Stationary standard deviation σ, in the unit of the process.
    public var standardDeviation: Double
    /// Correlation time τ, in seconds.
    public var correlationTime: Double
    /// The current value e(t).
    public private(set) var value: Double

    /// A process started from a draw of its stationary distribution, N(0, σ²).
    ///
    /// - Parameters:
    ///   - standardDeviation: σ, the stationary standard deviation, in the process's unit.
    ///   - correlationTime: τ, in seconds.
    ///   - generator: the source of the initial draw (one Gaussian draw).
    /// - Precondition: σ ≥ 0 and τ > 0.
    public init(standardDeviation: Double, correlationTime: Double, using generator: inout SeededGenerator) {
        precondition(
            standardDeviation >= 0 && correlationTime > 0,
            "Gauss-Markov needs sigma >= 0 and tau > 0, got \(standardDeviation), \(correlationTime)")
        self.standardDeviation = standardDeviation
        self.correlationTime = correlationTime
        self.value = standardDeviation * generator.gaussian()
    }

    /// A process started from a given value, for a known initial error or a deterministic test.
    ///
    /// - Parameters:
    ///   - standardDeviation: σ, the stationary standard deviation, in the process's unit.
    ///   - correlationTime: τ, in seconds.
    ///   - value: the initial value, in the process's unit.
    /// - Precondition: σ ≥ 0 and τ > 0.
    public init(standardDeviation: Double, correlationTime: Double, value: Double) {
        precondition(
            standardDeviation >= 0 && correlationTime > 0,
            "Gauss-Markov needs sigma >= 0 and tau > 0, got \(standardDeviation), \(correlationTime)")
        self.standardDeviation = standardDeviation
        self.correlationTime = correlationTime
        self.value = value
    }

    /// The correlation kept over a step, φ = exp(−Δt/τ).
    ///
    /// - Parameter step: Δt, in seconds.
    public func correlation(over step: Double) -> Double {
        exp(-step / correlationTime)
    }

    /// Advances the process by `step` seconds with the exact discretisation and returns the new value.
    ///
    /// A zero step leaves the value unchanged (it still consumes one draw, so the stream stays aligned).
    /// Each call consumes exactly one Gaussian draw from `generator`.
    ///
    /// - Parameters:
    ///   - step: Δt, in seconds, at least 0.
    ///   - generator: the source of the step's one Gaussian draw.
    /// - Precondition: `step >= 0`.
    @discardableResult
    public mutating func advance(by step: Double, using generator: inout SeededGenerator) -> Double {
        precondition(step >= 0, "A Gauss-Markov step must be non-negative, got \(step)")
        let phi = correlation(over: step)
        value = phi * value + standardDeviation * (1 - phi * phi).squareRoot() * generator.gaussian()
        return value
    }
}
