import LinearAlgebra

extension KalmanFilter {
    /// Replaces the marginal of one state by N(`mean`, `variance`), keeping the other states' conditional on it.
    ///
    /// The joint Gaussian factors as p(xᵢ) p(rest | xᵢ); the owner replaces p(xᵢ) (several filters that must agree
    /// on a quantity they share, for example) and the conditional stays. With K = P·ᵢ / Pᵢᵢ (Kᵢ = 1):
    ///
    ///     x' = x + K (m − xᵢ),    P' = P + K Kᵀ (v − Pᵢᵢ)
    ///
    /// P' is positive definite for v > 0: P − K Kᵀ Pᵢᵢ is the conditional covariance (positive semidefinite, zero
    /// only along eᵢ) and K Kᵀ v adds v along K. In place, without allocation. In a recorded run the result stands as
    /// the epoch's filtered state, as a reset does.
    ///
    /// - Parameters:
    ///   - index: i, the state whose marginal is replaced, in 0 ..< `stateCount`.
    ///   - m: the new mean of state i, in its unit.
    ///   - v: the new variance of state i, in its unit squared; finite and positive.
    /// - Throws: `EstimationError.nonFinite(.updatedMean)` unless m is finite and v finite and positive, or Pᵢᵢ is
    ///   not positive; the filter is then unchanged.
    public mutating func replaceMarginal(of index: Int, mean m: Double, variance v: Double) throws(EstimationError) {
        let n = stateCount
        precondition(index >= 0 && index < n, "replaceMarginal: index \(index) outside 0..<\(n)")
        let pii = covariance[index, index]
        guard m.isFinite, v.isFinite, v > 0, pii > 0, pii.isFinite else { throw .nonFinite(.updatedMean) }
        let shift = m - mean[index, 0]
        let widen = (v - pii) / (pii * pii)
        precondition(
            mean.elements.count == n && covariance.elements.count == n * n, "replaceMarginal: shapes")
        mean.elements.withUnsafeMutableBufferPointer { x in
            covariance.elements.withUnsafeMutableBufferPointer { p in
                // A constant n lets the optimiser unroll the loops for the usual small states.
                switch n {
                case 5: marginalLoops(5, index, pii, shift, widen, m, v, x, p)
                default: marginalLoops(n, index, pii, shift, widen, m, v, x, p)
                }
            }
        }
        recordedRun?.recordFiltered(mean: mean, covariance: covariance)
    }
}

/// The loops of `KalmanFilter.replaceMarginal(of:mean:variance:)` on the n-vector x and the n x n column-major P:
/// x += K (m − xᵢ) and P += K Kᵀ (v − Pᵢᵢ) with K = P·ᵢ / Pᵢᵢ (as P·ᵢ / Pᵢᵢ · shift and P·ᵢ P·ᵢᵀ · widen, from
/// column i of P before the change), then xᵢ = m and Pᵢᵢ = v. Element (r, c) of P is at r + c n.
@inline(__always)
private func marginalLoops(
    _ n: Int, _ index: Int, _ pii: Double, _ shift: Double, _ widen: Double, _ m: Double, _ v: Double,
    _ x: UnsafeMutableBufferPointer<Double>, _ p: UnsafeMutableBufferPointer<Double>
) {
    withUnsafeTemporaryAllocation(of: Double.self, capacity: n) { column in
        for r in 0..<n { column[r] = p[r &+ index &* n] }
        for r in 0..<n { x[r] += column[r] / pii * shift }
        for c in 0..<n {
            for r in 0..<n { p[r &+ c &* n] += column[r] * column[c] * widen }
        }
    }
    x[index] = m
    p[index &+ index &* n] = v
}
