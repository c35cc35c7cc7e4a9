import LinearAlgebra

/// The Hessian of a scalar function by central differences, for standard errors from the curvature of a
/// log-likelihood at its maximum.
///
/// With steps hᵢ:
///
///     ∂²f/∂xᵢ²    ≈ [f(x + hᵢeᵢ) − 2 f(x) + f(x − hᵢeᵢ)] / hᵢ²
///     ∂²f/∂xᵢ∂xⱼ ≈ [f(x + hᵢeᵢ + hⱼeⱼ) − f(x + hᵢeᵢ − hⱼeⱼ) − f(x − hᵢeᵢ + hⱼeⱼ) + f(x − hᵢeᵢ − hⱼeⱼ)] / (4 hᵢhⱼ)
///
/// both with an O(h²) truncation error. The observed information of a log-likelihood ℓ is −∇²ℓ, and the
/// asymptotic covariance of the maximum-likelihood estimate is its inverse (Pawitan, *In All Likelihood*, §8.3).
public enum NumericalHessian {
    /// The symmetric n × n Hessian of `f` at `x`, with step `step[i]` along coordinate i.
    ///
    /// A step trades the O(h²) truncation error against rounding, which grows as ε|f|/h²: a step of a few
    /// hundredths of the coordinate's scale suits a smooth log-likelihood (identification uses 0.05 in ln θ).
    ///
    /// - Parameters:
    ///   - x: the point, with n coordinates (the minimum of −ℓ for an observed information).
    ///   - step: the difference step hᵢ along each coordinate, positive, in that coordinate's unit.
    ///   - f: the function, of a point with n coordinates.
    /// - Returns: the n × n matrix of ∂²f/∂xᵢ∂xⱼ, in f's unit over the product of the coordinates' units.
    /// - Complexity: 2n² + 1 evaluations of `f`.
    /// - Precondition: `step` has one entry per coordinate of `x`.
    public static func at(_ x: [Double], step: [Double], of f: ([Double]) -> Double) -> Matrix {
        precondition(x.count == step.count, "NumericalHessian: one step per coordinate")
        let n = x.count
        let center = f(x)
        func shifted(_ i: Int, _ si: Double, _ j: Int, _ sj: Double) -> Double {
            var y = x
            y[i] += si * step[i]
            y[j] += sj * step[j]
            return f(y)
        }
        var H = Matrix(rows: n, columns: n)
        for i in 0..<n {
            var plus = x, minus = x
            plus[i] += step[i]
            minus[i] -= step[i]
            H[i, i] = (f(plus) - 2 * center + f(minus)) / (step[i] * step[i])
            for j in 0..<i {
                let value =
                    (shifted(i, 1, j, 1) - shifted(i, 1, j, -1) - shifted(i, -1, j, 1) + shifted(i, -1, j, -1))
                    / (4 * step[i] * step[j])
                H[i, j] = value
                H[j, i] = value
            }
        }
        return H
    }

    /// The inverse of a symmetric positive definite matrix (the covariance from an information matrix), by
    /// Cholesky; nil when the matrix is not positive definite (a direction of no curvature: not identifiable).
    ///
    /// A = L Lᵀ is factorised (LAPACK `dpotrf`) and the factor solved against the n columns of the identity
    /// (`dpotrs`): the inverse is wanted here, as the covariance itself, not as a step towards a solve.
    ///
    /// - Parameter A: a symmetric n × n matrix, such as the Hessian of −ℓ at its minimum.
    /// - Returns: A⁻¹, or nil when A is not square, has a non-finite element or is not positive definite.
    public static func inverseOfPositiveDefinite(_ A: Matrix) -> Matrix? {
        guard A.rows == A.columns, A.elements.allSatisfy(\.isFinite) else { return nil }
        guard let factor = try? A.choleskyFactor() else { return nil }
        var identity = Matrix.identity(A.rows)
        do { try factor.solveWithCholeskyFactor(&identity) } catch { return nil }
        return identity
    }
}
