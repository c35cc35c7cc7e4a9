import LinearAlgebra

/// A linear combination of the states at several epochs, L = Σₖ aₖᵀ xₖ: a difference of two altitudes, a sum of
/// climbs, an average over a window.
public struct StateCombination: Sendable, Equatable {
    /// The terms (epoch k, coefficient vector aₖ of length n), in increasing epoch order, each epoch at most once.
    public private(set) var terms: [(epoch: Int, coefficients: [Double])]

    /// An empty combination.
    public init() { terms = [] }

    /// Adds `coefficient` times state element `index` at `epoch`; epochs must not decrease from one call to the next.
    ///
    /// - Parameters:
    ///   - coefficient: the weight of the state element in the combination.
    ///   - index: the state element, in 0 ..< n.
    ///   - epoch: the epoch k of the run.
    ///   - n: the run's state dimension.
    /// - Precondition: `epoch` is at least the last one added.
    public mutating func add(_ coefficient: Double, of index: Int, at epoch: Int, stateCount n: Int) {
        precondition(index >= 0 && index < n, "state index \(index) outside 0..<\(n)")
        if let last = terms.last?.epoch {
            precondition(epoch >= last, "StateCombination: epochs must not decrease (\(epoch) after \(last))")
            if epoch == last {
                terms[terms.count - 1].coefficients[index] += coefficient
                return
            }
        }
        var coefficients = [Double](repeating: 0, count: n)
        coefficients[index] = coefficient
        terms.append((epoch, coefficients))
    }

    public static func == (lhs: StateCombination, rhs: StateCombination) -> Bool {
        lhs.terms.count == rhs.terms.count
            && zip(lhs.terms, rhs.terms).allSatisfy { $0.epoch == $1.epoch && $0.coefficients == $1.coefficients }
    }
}

extension SmoothedRun {
    /// The variance of the smoothed error of each combination, Var(Σₖ aₖᵀ (xₖ − xₖˢ)), from the smoother's
    /// cross-covariances.
    ///
    /// The smoothed errors of a linear-Gaussian model form a backward Markov chain (Rauch, Tung and Striebel;
    /// Särkkä, *Bayesian Filtering and Smoothing*, §8.2):
    ///
    ///     x̃ₖ = Cₖ x̃ₖ₊₁ + wₖ,   Cₖ = Pₖ Fᵀ (P⁻ₖ₊₁)⁻¹,   Var(wₖ) = Pₖˢ − Cₖ Pₖ₊₁ˢ Cₖᵀ,
    ///
    /// with wₖ independent of x̃ₖ₊₁, …, x̃_N, so Cov(x̃ᵢ, x̃ⱼ) = Cᵢ ⋯ Cⱼ₋₁ Pⱼˢ for i < j. A forward sweep carries
    /// each combination as bₖᵀ x̃ₖ plus independent noise: at epoch k add aₖ to bₖ; at its last epoch add
    /// bᵀ Pₖˢ b; otherwise add bᵀ Pₖˢ b − cᵀ Pₖ₊₁ˢ c (the variance of bᵀ wₖ) and move on with c = Cₖᵀ b.
    ///
    /// - Parameters:
    ///   - combinations: the combinations, each with terms in increasing epoch order.
    ///   - run: the filter run this was smoothed from (for F, Pₖ and P⁻ₖ₊₁).
    /// - Returns: one variance per combination (0 for an empty one).
    /// - Throws: `EstimationError.dimensionMismatch` if the run does not match; `.notPositiveDefinite` if a
    ///   predicted covariance cannot be factorised.
    /// - Complexity: O(E n³ + T n²) for the E epochs spanned by the combinations and T terms in all.
    public func errorVariances(of combinations: [StateCombination], run: FilterRun) throws(EstimationError) -> [Double]
    {
        let n = stateCount
        guard run.stateCount == n, run.epochCount == epochCount else {
            throw .dimensionMismatch(
                .recordedRun, expected: "the run this was smoothed from (\(epochCount) epochs)",
                actual: "\(run.epochCount) epochs of dimension \(run.stateCount)")
        }
        var variances = [Double](repeating: 0, count: combinations.count)
        for (index, combination) in combinations.enumerated() {
            for term in combination.terms
            where term.epoch < 0 || term.epoch >= epochCount || term.coefficients.count != n {
                throw .dimensionMismatch(
                    .recordedRun, expected: "epochs in 0..<\(epochCount) with \(n) coefficients",
                    actual: "epoch \(term.epoch) with \(term.coefficients.count) (combination \(index))")
            }
        }
        // Combinations in order of their first epoch; the active ones carry (index, next term, b).
        let order = combinations.indices.filter { !combinations[$0].terms.isEmpty }
            .sorted { combinations[$0].terms[0].epoch < combinations[$1].terms[0].epoch }
        guard let firstIndex = order.first else { return variances }
        var pending = order[...]
        var active: [(index: Int, nextTerm: Int, b: [Double])] = []
        var gainTransposed = Matrix(rows: n, columns: n)
        var factor = Matrix(rows: n, columns: n)
        var k = combinations[firstIndex].terms[0].epoch
        while !active.isEmpty || !pending.isEmpty {
            while let next = pending.first, combinations[next].terms[0].epoch == k {
                active.append((next, 0, [Double](repeating: 0, count: n)))
                pending = pending.dropFirst()
            }
            if active.isEmpty, let next = pending.first {
                k = combinations[next].terms[0].epoch
                continue
            }
            let current = covariance(at: k)
            var needsGain = false
            for a in active.indices {
                let terms = combinations[active[a].index].terms
                if active[a].nextTerm < terms.count, terms[active[a].nextTerm].epoch == k {
                    for i in 0..<n { active[a].b[i] += terms[active[a].nextTerm].coefficients[i] }
                    active[a].nextTerm += 1
                }
                if active[a].nextTerm == terms.count {
                    variances[active[a].index] = max(
                        0, variances[active[a].index] + Self.quadratic(current, active[a].b))
                } else {
                    needsGain = true
                }
            }
            active.removeAll { $0.nextTerm == combinations[$0.index].terms.count }
            if needsGain {
                // Cᵀ = (P⁻ₖ₊₁)⁻¹ F Pₖ, as the smoother computes it.
                factor = run.predictedCovariance(at: k + 1)
                do {
                    try factor.overwriteWithCholeskyFactor()
                    Matrix.multiplyByLoops(
                        run.transition(at: k + 1), .none, run.filteredCovariance(at: k), .none,
                        into: &gainTransposed)
                    try factor.solveWithCholeskyFactor(&gainTransposed)
                } catch {
                    throw .notPositiveDefinite(.predictedCovariance, leadingMinor: n)
                }
                let following = covariance(at: k + 1)
                for a in active.indices {
                    var c = [Double](repeating: 0, count: n)
                    for i in 0..<n {
                        var sum = 0.0
                        for j in 0..<n { sum += gainTransposed[i, j] * active[a].b[j] }
                        c[i] = sum
                    }
                    variances[active[a].index] += Self.quadratic(current, active[a].b) - Self.quadratic(following, c)
                    active[a].b = c
                }
            }
            k += 1
        }
        return variances.map { max(0, $0) }
    }

    /// vᵀ M v.
    private static func quadratic(_ m: Matrix, _ v: [Double]) -> Double {
        var sum = 0.0
        for j in v.indices { for i in v.indices { sum += v[i] * m[i, j] * v[j] } }
        return sum
    }
}
