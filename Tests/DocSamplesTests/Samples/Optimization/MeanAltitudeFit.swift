import Foundation
import LinearAlgebra
import Optimization

/// The maximum-likelihood mean of GPS altitudes (metres) logged at one spot, and its standard error from the
/// curvature of the negative log-likelihood at its minimum; nil for no altitudes. The search runs on (μ, ln σ),
/// so σ stays positive.
func fitMeanAltitude(_ altitudes: [Double]) -> (meanMeters: Double, standardErrorMeters: Double?)? {
    guard let first = altitudes.first else { return nil }
    // −ℓ(μ, ln σ) = Σ [ln σ + (zᵢ − μ)² / 2σ²] in nats, without the constant (n/2) ln 2π.
    func negativeLogLikelihood(_ x: [Double]) -> Double {
        let variance = exp(2 * x[1])
        return altitudes.reduce(0) { $0 + x[1] + ($1 - x[0]) * ($1 - x[0]) / (2 * variance) }
    }
    let fit = NelderMead(valueTolerance: 1e-10, pointTolerance: 1e-6)
        .minimize(negativeLogLikelihood, from: [first, 0], step: [1, 0.5])
    // Observed information I = ∇²(−ℓ) at the minimum; the covariance is I⁻¹ (nil where −ℓ is flat).
    let information = NumericalHessian.at(fit.point, step: [0.01, 0.01], of: negativeLogLikelihood)
    let covariance = NumericalHessian.inverseOfPositiveDefinite(information)
    return (fit.point[0], covariance.map { $0[0, 0].squareRoot() })
}
