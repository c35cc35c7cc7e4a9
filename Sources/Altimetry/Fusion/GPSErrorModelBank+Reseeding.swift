import Foundation
import LinearAlgebra
import StateEstimation

extension GPSErrorModelBank {
    /// Moves each member's own share by the switching prior and the member's memory, and gives every member whose
    /// probability mass is mostly inflow the state that inflow carries: the mixing step of interacting multiple
    /// models (Blom and Bar-Shalom 1988) applied only where it dominates a member's prior.
    ///
    /// The switching prior is the Markov chain of interacting multiple models: with ε = 1 − exp(−Δt/T) and K
    /// hypotheses, p_jj = 1 − ε + ε/K and p_ij = ε/K, so the predicted weight of member j is
    ///
    ///     c_j = Σ_i p_ij w_i = (1 − ε + ε/K) w_j + (ε/K)(1 − w_j)
    ///
    /// and its mixed prior is a mixture whose component i has the weight μ_{i|j} = p_ij w_i / c_j. The share of
    /// member j's own state in it is ρ_j = μ_{j|j} = (1 − ε + ε/K) w_j / c_j; the rest is inflow, the mass that
    /// switched in from the other hypotheses and carries their states x_i, since a receiver that changes its error
    /// model does not move the altitude. A static multiple-model bank moves the weights but not the states, so a
    /// member whose weight is held up by the inflow alone keeps a state that stands for almost none of its mass:
    /// a slow hypothesis 150 m off, with a GPS error state of −150 m, predicts the fixes as well as the right one,
    /// keeps 10⁻³ of the weight from the inflow and widens the mixture's variance by 10⁻³ × (150 m)².
    ///
    /// One step's inflow share is small (ε/K is 2·10⁻⁵ at 1 Hz) but it compounds, and the inflow that entered
    /// long ago has been conditioned on the data under member j's model ever since. The member's own share o_j, the
    /// part of its mass that its Gaussian state represents, therefore evolves as
    ///
    ///     o_j ← o_j ρ_j                       (the switching prior's inflow)
    ///     1 − o_j ← (1 − o_j) exp(−Δt / τ_j)  (the member forgets where the inflow came from)
    ///
    /// where τ_j is the hypothesis' correlation time: the fixes pin U + e and the barometer U − B, so the direction
    /// (δU, δB, −δU) in which the inflow's state differs from the member's own is seen only through the reversion of
    /// the GPS error to zero, at the rate 1/τ_j. In a steady state with a weight w, 1 − o_j ≈ (1 − w)/(T K w) /
    /// (1/τ_j + (1 − w)/(T K w)): a member whose mass is mostly inflow has w < τ_j / (T K + τ_j), 0.07 for τ = 3,600 s,
    /// 6·10⁻³ for 300 s and 6·10⁻⁴ for 30 s with T = 3,600 s and K = 13.
    ///
    /// The member's prior is then a two-component mixture, its own state with o_j and the inflow with 1 − o_j.
    /// Interacting multiple models collapse every member's mixture into one Gaussian at every step; mixing the live
    /// members that way let a member that led for a few minutes pull every other member's altitude with it. Here
    /// the mixture is approximated by its dominant component, and only where the two components are distinct modes:
    /// where o_j < 1/2 and the member's altitude state U_j lies outside the inflow's gate,
    ///
    ///     (U_j − Ū)² > 25 (P_UU,j + V_U),    Ū and V_U the mean and variance of U over the others' mixture
    ///
    /// (25, the gate's 5², as `normalizedInnovationCap`), the member takes the inflow's moments,
    ///
    ///     x_j = Σ_{i≠j} w_i x_i / W,    P_j = Σ_{i≠j} w_i (P_i + (x_i − x_j)(x_i − x_j)ᵀ) / W,    W = Σ_{i≠j} w_i,
    ///
    /// except its GPS error, which is drawn afresh from the hypothesis' stationary N(0, σ_e,j²), independent of the
    /// rest: a receiver whose surroundings change starts the new regime's error from that regime's own spread. Then
    /// o_j starts again at 1. A member whose own share is above one half, or whose state the inflow's gate admits,
    /// keeps its state untouched. Without the gate every member whose weight dipped for a few minutes took the
    /// leader's state: on the indoor desk, whose hypotheses are all wrong and whose weights swing within minutes, the
    /// members lost the spread that carried its sigma (coverage 0.78 → 0.45); and carrying the inflow's GPS error
    /// into a 2 m hypothesis let it predict the next fixes from the leader's state and lead the bank at a 1.8 m sigma.
    ///
    /// - Parameter elapsed: Δt, the time since the previous reading, in seconds; the weights are those before the
    ///   switching prior moves them.
    /// - Throws: `AltitudeModelError.numerical` if a member refuses the inflow's state.
    /// - Complexity: O(K) a reading; O(K n²) more for each member reseeded.
    mutating func reseedInflowDominatedMembers(elapsed: Seconds) throws(AltitudeModelError) {
        guard elapsed > 0 else { return }
        let k = Double(enabledCount)
        let epsilon = -expm1(-elapsed / Self.switchingTime)
        let u = AltitudeModel.altitudeIndex
        // The gate's figures over every member, gathered in the same pass: each dominated member's inflow is the same
        // sums without it.
        var anyDominated = false
        var total = 0.0, sum = 0.0, square = 0.0
        for j in members.indices where isEnabled[j] {
            let w = Self.weight(fromLog: logWeights[j])
            let stay = (1 - epsilon + epsilon / k) * w
            let predicted = stay + epsilon / k * (1 - w)
            let rho = predicted > 0 ? stay / predicted : 1
            let inflow = (1 - ownShares[j] * rho) * exp(-elapsed / hypotheses[j].correlationTime)
            ownShares[j] = 1 - inflow
            if ownShares[j] < 0.5 { anyDominated = true }
            guard w > 0, members[j].isStarted else { continue }
            let x = members[j].core.mean[u, 0]
            total += w
            sum += w * x
            square += w * (members[j].core.covariance[u, u] + x * x)
        }
        guard anyDominated, members.indices.allSatisfy({ !isRunning($0) || members[$0].isStarted }) else { return }
        // Every inflow from the states before any member is reseeded.
        var reseeds: [(member: Int, mean: [Double], covariance: Matrix)] = []
        for j in members.indices where isEnabled[j] && ownShares[j] < 0.5 {
            let w = Self.weight(fromLog: logWeights[j])
            let x = members[j].core.mean[u, 0], p = members[j].core.covariance[u, u]
            let others = total - w
            guard others > 0 else { continue }
            let mean = (sum - w * x) / others
            let spread = max(0, (square - w * (p + x * x)) / others - mean * mean)
            // Only a member outside the inflow's gate is a mode of its own.
            guard (x - mean) * (x - mean) > Self.normalizedInnovationCap * (p + spread),
                var (m, P) = inflowMoments(excluding: j)
            else { continue }
            // The receiver's error is drawn afresh from the hypothesis' stationary N(0, σ_e²).
            let e = members[j].parameters.gpsErrorIndex
            m[e] = 0
            AltitudeFilter.forgetGPSError(
                in: &P, index: e, standardDeviation: hypotheses[j].correlatedStandardDeviation)
            reseeds.append((j, m, P))
        }
        for r in reseeds {
            try members[r.member].adoptState(mean: r.mean, covariance: r.covariance)
            ownShares[r.member] = 1
        }
    }

    /// The mean and covariance of the members' mixture with their weights, leaving out member `excluded`; nil when
    /// the others have no weight.
    func inflowMoments(excluding excluded: Int) -> ([Double], Matrix)? {
        guard let n = members.first?.core.stateCount else { return nil }
        var total = 0.0
        var mean = [Double](repeating: 0, count: n)
        for i in members.indices where i != excluded {
            let w = Self.weight(fromLog: logWeights[i])
            guard w > 0 else { continue }
            total += w
            for r in 0..<n { mean[r] += w * members[i].core.mean[r, 0] }
        }
        guard total > 0 else { return nil }
        for r in 0..<n { mean[r] /= total }
        var covariance = Matrix(rows: n, columns: n)
        for i in members.indices where i != excluded {
            let share = Self.weight(fromLog: logWeights[i]) / total
            guard share > 0 else { continue }
            let x = members[i].core.mean, P = members[i].core.covariance
            for c in 0..<n {
                for r in 0..<n {
                    covariance[r, c] += share * (P[r, c] + (x[r, 0] - mean[r]) * (x[c, 0] - mean[c]))
                }
            }
        }
        return (mean, covariance)
    }
}

extension AltitudeFilter {
    /// Replaces the state by N(`mean`, `covariance`) at the current time (see
    /// `GPSErrorModelBank.reseedInflowDominatedMembers(elapsed:)`); the front detectors forget their
    /// history, since the QNH moved by the new state, not by the weather.
    ///
    /// - Throws: `AltitudeModelError.numerical` if the covariance is not symmetric positive definite; the filter is
    ///   then unchanged.
    mutating func adoptState(mean: [Double], covariance: Matrix) throws(AltitudeModelError) {
        guard isStarted else { return }
        try reset(mean: mean, covariance: covariance)
        forgetDetectorHistory()
    }
}
