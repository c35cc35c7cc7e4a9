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

extension KalmanFilter {
    /// Replaces the marginal of one state by N(`mean`, `variance`), widening it, where `variance` exceeds Pᵢᵢ, along a
    /// direction d the owner's model gives rather than along the state's own regression K = P·ᵢ / Pᵢᵢ.
    ///
    /// `replaceMarginal(of:mean:variance:)` widens along K: P' = P + K Kᵀ (v − Pᵢᵢ), the exact marginalisation of
    /// the filter's conditional p(rest | xᵢ) over the wider N(m, v). K is the slope that the filter's own spread of xᵢ
    /// fitted, and the widening extrapolates it √(v / Pᵢᵢ) times beyond that spread: a state known to √Pᵢᵢ = 0.06
    /// whose K puts another state at 685 units per unit of xᵢ, widened to v = 3,574, gives that other state a
    /// variance of 685² × 3,574 = 1.7·10⁹ along K alone. Here the widening is instead the one the model's own noise
    /// on xᵢ makes, d with dᵢ = 1 (each state's change per unit change of xᵢ that the model's process noise
    /// couples to it), and only then is the mean conditioned:
    ///
    ///     v ≤ Pᵢᵢ:  as `replaceMarginal(of:mean:variance:)`
    ///     v > Pᵢᵢ:  P̃ = P + d dᵀ (v − Pᵢᵢ),    K̃ = P̃·ᵢ / v = (K Pᵢᵢ + d (v − Pᵢᵢ)) / v,    x' = x + K̃ (m − xᵢ),    P' = P̃
    ///
    /// P̃ adds a positive semidefinite term to P, so it stays positive definite, and P̃ᵢᵢ = v; K̃ blends the filter's
    /// regression and the model's direction by the share of v each variance holds, so the two cases meet at
    /// v = Pᵢᵢ. In place; the direction is the caller's array. In a recorded run the result stands as the epoch's
    /// filtered state.
    ///
    /// - Parameters:
    ///   - index: i, the state whose marginal is replaced, in 0 ..< `stateCount`.
    ///   - m: the new mean of state i, in its unit.
    ///   - v: the new variance of state i, in its unit squared; finite and positive.
    ///   - direction: d, n values with dᵢ = 1, each state's change per unit of xᵢ; all finite.
    /// - Throws: `EstimationError.nonFinite(.updatedMean)` unless m is finite, v finite and positive and Pᵢᵢ
    ///   positive; `.nonFinite(.updatedCovariance)` unless d and the widening d dᵀ (v − Pᵢᵢ) are finite; the filter
    ///   is then unchanged.
    public mutating func replaceMarginal(
        of index: Int, mean m: Double, variance v: Double, wideningAlong direction: [Double]
    ) throws(EstimationError) {
        let n = stateCount
        precondition(
            direction.count == n && index >= 0 && index < n && direction[index] == 1,
            "replaceMarginal: a direction of \(n) values with 1 at \(index)")
        let pii = covariance[index, index]
        guard m.isFinite, v.isFinite, v > 0, pii > 0, pii.isFinite else { throw .nonFinite(.updatedMean) }
        let largest = direction.reduce(0) { max($0, abs($1)) }
        guard direction.allSatisfy(\.isFinite), (largest * largest * max(v - pii, 0)).isFinite else {
            throw .nonFinite(.updatedCovariance)
        }
        if v > pii {
            let widen = v - pii
            for c in 0..<n {
                for r in 0..<n { covariance[r, c] += direction[r] * direction[c] * widen }
            }
            covariance[index, index] = v
        }
        try replaceMarginal(of: index, mean: m, variance: v)
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

extension KalmanFilter {
    /// Replaces the joint marginal of the states `indices` by N(`mean`, `covariance`), keeping the other states'
    /// conditional on them: `replaceMarginal(of:mean:variance:)` for a block.
    ///
    /// With S the replaced states and R the rest, the joint Gaussian factors as p(x_S) p(x_R | x_S); with the
    /// regression K = P_RS P_SS⁻¹ (P_SS factorised by Cholesky, not inverted) and the new N(m, V) of x_S,
    ///
    ///     x_R' = x_R + K (m − x_S),    P_RS' = K V,    P_RR' = P_RR − K P_SR + K V Kᵀ,    x_S' = m,    P_SS' = V.
    ///
    /// P' is positive definite when V is and P was: the conditional covariance P_RR − K P_SR stays and K V Kᵀ adds
    /// V's spread along K. In a recorded run the result stands as the epoch's filtered state, as a reset does.
    ///
    /// - Parameters:
    ///   - indices: S, distinct states in 0 ..< `stateCount`.
    ///   - m: the new mean of x_S, one value per index.
    ///   - V: the new covariance of x_S, |S| x |S|, symmetric positive definite.
    /// - Throws: `EstimationError.nonFinite` for a non-finite mean or covariance,
    ///   `.notPositiveDefinite(.updatedCovariance, …)` if P_SS or V is not positive definite; the filter is then
    ///   unchanged.
    public mutating func replaceMarginal(of indices: [Int], mean m: [Double], covariance V: Matrix)
        throws(EstimationError)
    {
        let n = stateCount, k = indices.count
        precondition(
            m.count == k && V.rows == k && V.columns == k && Set(indices).count == k
                && indices.allSatisfy { (0..<n).contains($0) }, "replaceMarginal: a block of distinct states")
        guard m.allSatisfy(\.isFinite), V.isFinite else { throw .nonFinite(.updatedMean) }
        let rest = (0..<n).filter { !indices.contains($0) }
        var pss = Matrix(rows: k, columns: k)
        for a in 0..<k { for b in 0..<k { pss[a, b] = covariance[indices[a], indices[b]] } }
        // K = P_RS P_SS⁻¹, solved as P_SS Kᵀ = P_SR.
        var kt = Matrix(rows: k, columns: rest.count)
        for a in 0..<k { for (r, i) in rest.enumerated() { kt[a, r] = covariance[indices[a], i] } }
        do {
            _ = try V.choleskyFactor()
            let factor = try pss.choleskyFactor()
            try factor.solveWithCholeskyFactor(&kt)
        } catch {
            throw .notPositiveDefinite(.updatedCovariance, leadingMinor: 1)
        }
        var newMean = mean.elements
        var newCovariance = covariance
        for (r, i) in rest.enumerated() {
            var shift = 0.0
            for a in 0..<k { shift += kt[a, r] * (m[a] - mean[indices[a], 0]) }
            newMean[i] += shift
        }
        // K V, then P_RR' = P_RR − K P_SR + (K V) Kᵀ.
        var kv = Matrix(rows: rest.count, columns: k)
        for r in 0..<rest.count {
            for b in 0..<k {
                var sum = 0.0
                for a in 0..<k { sum += kt[a, r] * V[a, b] }
                kv[r, b] = sum
            }
        }
        for (r, i) in rest.enumerated() {
            for (s, j) in rest.enumerated() {
                var reduce = 0.0, add = 0.0
                for a in 0..<k {
                    reduce += kt[a, r] * covariance[indices[a], j]
                    add += kv[r, a] * kt[a, s]
                }
                newCovariance[i, j] = covariance[i, j] - reduce + add
            }
            for b in 0..<k {
                newCovariance[i, indices[b]] = kv[r, b]
                newCovariance[indices[b], i] = kv[r, b]
            }
        }
        for a in 0..<k {
            newMean[indices[a]] = m[a]
            for b in 0..<k { newCovariance[indices[a], indices[b]] = V[a, b] }
        }
        newCovariance.symmetrize()
        try reset(mean: newMean, covariance: newCovariance)
    }
}
