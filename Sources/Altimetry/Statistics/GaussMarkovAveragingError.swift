import StateEstimation

/// A parameter outside the domain of the Gauss-Markov averaging statistics.
public enum GaussMarkovAveragingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stationary standard deviation σ that is negative or not finite, in the error's unit (metres for GPS altitude).
    case standardDeviationNotValid(Double)
    /// A correlation time τ, in seconds, that is not positive and finite.
    case correlationTimeNotPositive(Seconds)
    /// A sample interval Δt, in seconds, that is not positive and finite.
    case sampleIntervalNotPositive(Seconds)
    /// A number of samples below one.
    case sampleCountNotPositive(Int)
    /// A number of Monte Carlo trials below one.
    case trialCountNotPositive(Int)
    /// A target standard deviation that is not positive and finite.
    case targetNotPositive(Double)
    /// A target so small that reaching it would take more than `maximumSampleCount` samples.
    case targetUnreachable(target: Double, maximumSampleCount: Int)

    public var description: String {
        switch self {
        case .standardDeviationNotValid(let sigma):
            return "standard deviation \(sigma) is not a non-negative, finite number"
        case .correlationTimeNotPositive(let tau):
            return "correlation time \(tau) s is not a positive, finite number"
        case .sampleIntervalNotPositive(let dt):
            return "sample interval \(dt) s is not a positive, finite number"
        case .sampleCountNotPositive(let n):
            return "sample count \(n) is not at least 1"
        case .trialCountNotPositive(let n):
            return "trial count \(n) is not at least 1"
        case .targetNotPositive(let target):
            return "target standard deviation \(target) is not a positive, finite number"
        case .targetUnreachable(let target, let limit):
            return "target standard deviation \(target) needs more than \(limit) samples"
        }
    }
}
