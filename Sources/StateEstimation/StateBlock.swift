import Foundation
import LinearAlgebra

/// A ready-made, exactly discretised block of states: the building bricks of most navigation models.
///
/// Each block writes its part of F(dt) and Q(dt) on the diagonal of the full matrices, at a given offset:
///
/// - `randomWalk`: one state driven by white noise of density q (unit²/s):
///   F = 1,  Q = q dt.
/// - `gaussMarkov`: a first-order Gauss-Markov state of stationary standard deviation σ and correlation time τ
///   (autocorrelation σ² exp(−|Δt|/τ)):
///   F = φ = exp(−dt/τ),  Q = σ² (1 − φ²),
///   which holds for any dt and keeps the stationary variance σ² (Maybeck, *Stochastic Models*, vol. 1, §4.11;
///   Brown and Hwang, *Introduction to Random Signals*, §2.9).
/// - `constantVelocity`: a value p and its rate v, the rate driven by white acceleration noise of density q
///   (unit²/s³, the unit being that of p):
///   F = [1 dt; 0 1],  Q = q [dt³/3  dt²/2; dt²/2  dt]
///   (Bar-Shalom, Li and Kirubarajan, *Estimation with Applications to Tracking and Navigation*, §6.2.2).
///
/// These are exact: composing the discretisations over dt₁ and dt₂ gives the discretisation over dt₁ + dt₂, so
/// irregular measurement times cost nothing in accuracy.
public enum StateBlock: Sendable, Equatable, Hashable, Codable {
    /// A random walk with white-noise density `noiseDensity` q, in unit²/s. q = 0 is a constant.
    case randomWalk(noiseDensity: Double)
    /// A first-order Gauss-Markov state: stationary standard deviation σ (unit) and correlation time τ (s).
    case gaussMarkov(standardDeviation: Double, correlationTime: Seconds)
    /// A value and its rate; the rate is driven by white acceleration noise of density q, in unit²/s³.
    case constantVelocity(accelerationNoiseDensity: Double)

    /// The number of states in the block: 1, 1 or 2.
    public var stateCount: Int {
        switch self {
        case .randomWalk, .gaussMarkov: return 1
        case .constantVelocity: return 2
        }
    }

    /// Checks the block's parameters.
    ///
    /// - Throws: `EstimationError.invalidParameter` for a negative or non-finite density or standard deviation,
    ///   or a correlation time that is not positive and finite.
    public func validate() throws(EstimationError) {
        switch self {
        case .randomWalk(let q):
            guard q.isFinite, q >= 0 else {
                throw .invalidParameter(name: "random-walk noise density", value: q, expectation: "finite and >= 0")
            }
        case .gaussMarkov(let sigma, let tau):
            guard sigma.isFinite, sigma >= 0 else {
                throw .invalidParameter(
                    name: "Gauss-Markov standard deviation", value: sigma, expectation: "finite and >= 0")
            }
            guard tau.isFinite, tau > 0 else {
                throw .invalidParameter(
                    name: "Gauss-Markov correlation time", value: tau, expectation: "finite and > 0 s")
            }
        case .constantVelocity(let q):
            guard q.isFinite, q >= 0 else {
                throw .invalidParameter(name: "acceleration noise density", value: q, expectation: "finite and >= 0")
            }
        }
    }

    /// Writes the block's F(dt) and Q(dt) at rows and columns `offset..<offset + stateCount`.
    ///
    /// Elements outside the block are not touched, so blocks compose into a block-diagonal model.
    ///
    /// - Parameters:
    ///   - dt: the step, in seconds.
    ///   - offset: the index of the block's first state.
    ///   - transition: the full n x n F.
    ///   - processNoise: the full n x n Q.
    /// - Complexity: O(1); one `exp` for a Gauss-Markov block.
    public func write(over dt: Seconds, at offset: Int, transition: inout Matrix, processNoise: inout Matrix) {
        switch self {
        case .randomWalk(let q):
            transition[offset, offset] = 1
            processNoise[offset, offset] = q * dt
        case .gaussMarkov(let sigma, let tau):
            let phi = exp(-dt / tau)
            transition[offset, offset] = phi
            processNoise[offset, offset] = sigma * sigma * (1 - phi * phi)
        case .constantVelocity(let q):
            let i = offset, j = offset + 1
            transition[i, i] = 1
            transition[i, j] = dt
            transition[j, j] = 1
            let dt2 = dt * dt
            processNoise[i, i] = q * dt2 * dt / 3
            processNoise[i, j] = q * dt2 / 2
            processNoise[j, i] = q * dt2 / 2
            processNoise[j, j] = q * dt
        }
    }
}
