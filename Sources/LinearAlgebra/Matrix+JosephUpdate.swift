/// The Joseph-form covariance update for one scalar measurement, in O(n²).
extension Matrix {
    /// C ← (I − k h) P (I − k h)ᵀ + r k kᵀ for a symmetric P (n x n), a gain column k (n x 1), an observation
    /// row h (1 x n) and a variance r: the Joseph form of a scalar Kalman update, exactly symmetric.
    ///
    /// The factor A = I − k h is the identity minus a rank-one matrix, so the products are taken with that
    /// structure instead of as general n x n products (which would cost 2n³):
    ///
    ///     v = P hᵀ,   B = A P = P − k vᵀ,   g = B hᵀ,   C = B Aᵀ + r k kᵀ = B − g kᵀ + r k kᵀ,
    ///
    /// each element of B and C being what the full product computes, term for term, but for the identity's
    /// zeros. Only C's lower triangle is computed and it is mirrored, so C is symmetric to the last bit. The
    /// form holds for any k, optimal or not, and keeps C positive semi-definite up to rounding, which is why
    /// filters use it (Bucy and Joseph, *Filtering for Stochastic Processes*, 1968; Grewal and Andrews,
    /// *Kalman Filtering*, §6.4).
    ///
    /// - Parameters:
    ///   - p: P, n x n symmetric.
    ///   - gain: k, n x 1.
    ///   - observationRow: h, 1 x n.
    ///   - r: the measurement noise variance r.
    ///   - c: the n x n result; must not share storage with P.
    ///   - workspace: n x (n + 1) scratch that receives B and g.
    /// - Precondition: the shapes agree.
    /// - Complexity: about 3.5 n² multiply-adds, no allocation when C and the workspace are uniquely referenced.
    @inlinable
    public static func formJosephUpdate(
        _ p: Matrix, gain: Matrix, observationRow: Matrix, noiseVariance r: Double,
        into c: inout Matrix, workspace: inout Matrix
    ) {
        let n = p.rows
        precondition(
            p.columns == n && gain.rows == n && gain.columns == 1 && observationRow.rows == 1
                && observationRow.columns == n && c.rows == n && c.columns == n
                && workspace.rows == n && workspace.columns == n + 1,
            "formJosephUpdate: P \(p.rows)x\(p.columns), k \(gain.rows)x\(gain.columns), h \(observationRow.rows)x\(observationRow.columns), C \(c.rows)x\(c.columns)"
        )
        p.elements.withUnsafeBufferPointer { pp in
            gain.elements.withUnsafeBufferPointer { k in
                observationRow.elements.withUnsafeBufferPointer { h in
                    workspace.elements.withUnsafeMutableBufferPointer { b in
                        c.elements.withUnsafeMutableBufferPointer { cp in
                            // B = P − k vᵀ with v_j = Σₗ hₗ Pₗⱼ (column j of P against h).
                            for j in 0..<n {
                                var v = 0.0
                                for l in 0..<n { v += h[l] * pp[l &+ j &* n] }
                                for i in 0..<n { b[i &+ j &* n] = pp[i &+ j &* n] - k[i] * v }
                            }
                            // g = B hᵀ, into the workspace's last column.
                            let g = n * n
                            for i in 0..<n { b[g &+ i] = 0 }
                            for l in 0..<n {
                                let hl = h[l]
                                for i in 0..<n { b[g &+ i] += b[i &+ l &* n] * hl }
                            }
                            // C = B − g kᵀ + r k kᵀ, lower triangle.
                            for j in 0..<n {
                                let kj = k[j]
                                for i in j..<n { cp[i &+ j &* n] = b[i &+ j &* n] - b[g &+ i] * kj + r * k[i] * kj }
                            }
                            for j in 0..<n {
                                for i in (j + 1)..<Swift.max(j + 1, n) { cp[j &+ i &* n] = cp[i &+ j &* n] }
                            }
                        }
                    }
                }
            }
        }
    }
}
