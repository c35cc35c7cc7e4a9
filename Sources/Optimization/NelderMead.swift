/// The Nelder-Mead downhill simplex: a derivative-free minimiser of a function of a few variables.
///
/// A simplex of n + 1 points moves through reflection (α = 1), expansion (γ = 2), contraction (ρ = ½) and
/// shrink (σ = ½) steps, the standard coefficients of Nelder and Mead (1965) as given by Lagarias et al.,
/// "Convergence properties of the Nelder-Mead simplex method in low dimensions" (SIAM J. Optim. 9, 1998). It
/// needs no gradient, so it suits an objective that is a whole filter run (a log-likelihood), which is smooth
/// but whose derivatives nobody wrote down. After convergence the search restarts once from the best point with
/// a fresh simplex, the usual guard against a simplex that collapsed onto a non-stationary point.
///
/// Non-finite objective values count as +∞, so the objective may refuse parameters outside its domain.
public struct NelderMead: Sendable, Equatable {
    /// Stop when the simplex's function values span less than this (absolute, in the objective's unit: nats for
    /// a negative log-likelihood).
    public var valueTolerance: Double
    /// Stop when every vertex is within this distance of the best one, in each coordinate (absolute, in the
    /// coordinates' unit: for parameters searched as ln θ, a relative change of θ).
    public var pointTolerance: Double
    /// Stop after this many evaluations of the objective (give or take one step's), converged or not.
    public var maximumEvaluations: Int

    /// A minimiser with the given stopping rules.
    ///
    /// The search has converged when both tolerances hold at once: the values span at most `valueTolerance` and
    /// the simplex fits in a box of half-width `pointTolerance` around its best vertex.
    ///
    /// - Parameters:
    ///   - valueTolerance: the largest spread of the objective over the simplex at convergence, in the
    ///     objective's unit.
    ///   - pointTolerance: the largest distance, coordinate by coordinate, of a vertex from the best one at
    ///     convergence, in the coordinates' unit.
    ///   - maximumEvaluations: the budget of objective evaluations, restart included; the search stops once it
    ///     is spent (overrunning it by at most the n + 1 evaluations of one step) and reports that it did not
    ///     converge.
    public init(valueTolerance: Double = 1e-6, pointTolerance: Double = 1e-5, maximumEvaluations: Int = 2_000) {
        self.valueTolerance = valueTolerance
        self.pointTolerance = pointTolerance
        self.maximumEvaluations = maximumEvaluations
    }

    /// Where the search ended.
    public struct Result: Sendable, Equatable {
        /// The best point found.
        public var point: [Double]
        /// The objective at `point`.
        public var value: Double
        /// Evaluations of the objective used, both searches together.
        public var evaluations: Int
        /// Whether the tolerances were met before `maximumEvaluations`.
        public var converged: Bool
    }

    /// Minimises `objective` from `start`, with an initial simplex of `start` plus `step[i]` along each axis i.
    ///
    /// The steps set the scale of the first moves: about the distance from `start` to the minimum, or a standard
    /// error's worth where the start is already close. The search then restarts once from its best point with the
    /// same steps, and the better of the two ends is returned.
    ///
    /// - Parameters:
    ///   - objective: the function to minimise, of a point with as many coordinates as `start`; a NaN or
    ///     infinite value counts as +∞, so it may refuse a point outside its domain.
    ///   - start: the first vertex of the simplex.
    ///   - step: the offset of the other n vertices from `start`, one per coordinate, in that coordinate's unit.
    /// - Returns: the best vertex found, its value, the evaluations used and whether the tolerances were met
    ///   within `maximumEvaluations`.
    /// - Precondition: `step` has one finite, non-zero entry per coordinate of `start`, and `start` is not empty.
    public func minimize(_ objective: ([Double]) -> Double, from start: [Double], step: [Double]) -> Result {
        precondition(start.count == step.count && !start.isEmpty, "NelderMead: one step per coordinate")
        precondition(step.allSatisfy { $0 != 0 && $0.isFinite }, "NelderMead: steps must be finite and non-zero")
        var evaluations = 0
        func f(_ x: [Double]) -> Double {
            evaluations += 1
            let value = objective(x)
            return value.isFinite ? value : .infinity
        }
        var best = search(f, from: start, step: step, evaluations: { evaluations })
        // One restart from the best point, with the original step sizes.
        if evaluations < maximumEvaluations {
            let again = search(f, from: best.point, step: step, evaluations: { evaluations })
            if again.value <= best.value { best = again }
        }
        return Result(
            point: best.point, value: best.value, evaluations: evaluations,
            converged: best.converged && evaluations <= maximumEvaluations)
    }

    private func search(
        _ f: ([Double]) -> Double, from start: [Double], step: [Double],
        evaluations: () -> Int
    ) -> (point: [Double], value: Double, converged: Bool) {
        let n = start.count
        var simplex = [start]
        for i in 0..<n {
            var vertex = start
            vertex[i] += step[i]
            simplex.append(vertex)
        }
        var values = simplex.map(f)
        while true {
            // Order the vertices by value.
            let order = values.indices.sorted { values[$0] < values[$1] }
            simplex = order.map { simplex[$0] }
            values = order.map { values[$0] }
            let spread = values[n] - values[0]
            let size =
                simplex.dropFirst().map { vertex in
                    zip(vertex, simplex[0]).map { abs($0 - $1) }.max() ?? 0
                }.max() ?? 0
            if (spread <= valueTolerance && size <= pointTolerance) || spread.isNaN {
                return (simplex[0], values[0], true)
            }
            if evaluations() >= maximumEvaluations { return (simplex[0], values[0], false) }
            // Centroid of all but the worst.
            var centroid = [Double](repeating: 0, count: n)
            for vertex in simplex.dropLast() { for i in 0..<n { centroid[i] += vertex[i] / Double(n) } }
            func along(_ t: Double) -> [Double] { (0..<n).map { centroid[$0] + t * (simplex[n][$0] - centroid[$0]) } }
            // Reflection x_r = c + α (c − x_worst), α = 1.
            let reflected = along(-1)
            let fr = f(reflected)
            if fr < values[0] {
                // Expansion x_e = c + γ (x_r − c), γ = 2.
                let expanded = along(-2)
                let fe = f(expanded)
                if fe < fr {
                    simplex[n] = expanded
                    values[n] = fe
                } else {
                    simplex[n] = reflected
                    values[n] = fr
                }
                continue
            }
            if fr < values[n - 1] {
                simplex[n] = reflected
                values[n] = fr
                continue
            }
            // Contraction, outside (between c and x_r) or inside (between c and x_worst), ρ = ½.
            let outside = fr < values[n]
            let contracted = along(outside ? -0.5 : 0.5)
            let fc = f(contracted)
            if fc < (outside ? fr : values[n]) {
                simplex[n] = contracted
                values[n] = fc
                continue
            }
            // Shrink every vertex towards the best, σ = ½.
            for j in 1...n {
                simplex[j] = (0..<n).map { simplex[0][$0] + 0.5 * (simplex[j][$0] - simplex[0][$0]) }
                values[j] = f(simplex[j])
            }
        }
    }
}
