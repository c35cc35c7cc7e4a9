import Foundation

extension GPSErrorModelBank {
    /// Gives every member the same marginal of the column state C: the bank's mixture, N(C̄, V̄).
    ///
    /// The column is a property of the atmosphere, not of the receiver, so the hypotheses about the receiver must
    /// not disagree about it. Separate members did: each member's C soaked up the slow GPS wander its own error
    /// model left over (on a static station C is nearly unobservable, and on an indoor desk one member's column
    /// reached +196 °C), and the likelihoods then favoured whichever column explained the wander best rather than
    /// the right receiver.
    ///
    /// Before each reading (after the switching prior has moved the weights, where the mixing step of interacting
    /// multiple models stands), with weights w_j, means C_j and variances P_CC,j:
    ///
    ///     C̄ = Σ w_j C_j,    V̄ = Σ w_j (P_CC,j + (C_j − C̄)²)
    ///
    /// and each member's joint Gaussian is refactored as p(C) p(rest | C), keeping its own conditional of the other
    /// states on the column and replacing its marginal of C by the shared one. With K = P_·C / P_CC (K_C = 1):
    ///
    ///     x' = x + K (C̄ − C_j),    P' = P + K Kᵀ (V̄ − P_CC,j)
    ///
    /// P' is positive definite: P − K Kᵀ P_CC is the conditional covariance (positive semidefinite, zero only
    /// along C) and K Kᵀ V̄ adds V̄ > 0 along K. This is the mixing step of interacting multiple models (Blom and
    /// Bar-Shalom 1988) applied to the column alone, with the column common to every hypothesis.
    ///
    /// That form is used where it narrows the member's column (V̄ ≤ P_CC,j). Where it would widen it, the widening
    /// is the one the model's own column noise makes, along g = ∂x/∂C = (γ, γ, 0, 1, 0) (U and B move by the column
    /// coupling γ, the station's altitude and pressure stay), and the mean then follows the widened Gaussian's
    /// regression (`KalmanFilter.replaceMarginal(of:mean:variance:wideningAlong:)`):
    ///
    ///     P̃ = P + g gᵀ (V̄ − P_CC,j),    x' = x + P̃_·C (C̄ − C_j) / V̄,    P' = P̃
    ///
    /// K is the slope that the member's own spread of C fitted, and widening along it extrapolates that slope
    /// √(V̄ / P_CC,j) times beyond it. A member whose column was known to 0.06 K, with K_U = 685 m/K from wild
    /// readings, widened to the mixture's V̄ = 3,574 K² (members' columns spread over ±144 K), took P_UU from
    /// 1,900 m² to 1.7·10⁹ m² along K, with B − U still known to centimetres: U and B correlated to 1 − 10⁻¹², a
    /// covariance whose next linear update lost positive definiteness to rounding. Along g the same step adds
    /// γ² (V̄ − P_CC,j) to P_UU, at most about 100² m²/K² × V̄ (|γ| = h₀ s_U / T₀ ≤ 11,000 m × 2.66 / 288 K; γ is
    /// −3.6 m/K at 1,000 m in standard air), and P_UB grows with P_UU and P_BB, so B − U keeps its variance and the
    /// member its conditioning. (g is written for the state [U, B, Ḃ, C, e]; without the tendency it has no Ḃ.)
    mutating func shareColumn() throws(AltitudeModelError) {
        guard let c = members.first?.parameters.columnIndex, let (mean, variance) = columnMarginal(c),
            variance > 0, variance.isFinite, mean.isFinite
        else { return }
        for j in members.indices where isRunning(j) {
            try members[j].conditionColumn(mean: mean, variance: variance)
        }
    }

    /// The mixture's (C̄, V̄) of the column state at index `c`; nil until every member has started. Not mutating, so
    /// that the weights' closure reads the members in place (from `shareColumn`, it copied the bank).
    private func columnMarginal(_ c: Int) -> (mean: Double, variance: Double)? {
        withWeights { w in
            var mean = 0.0
            for j in members.indices where isRunning(j) {
                guard members[j].isStarted else { return nil }
                mean += w[j] * members[j].core.mean[c, 0]
            }
            var variance = 0.0
            for j in members.indices where isRunning(j) {
                let d = members[j].core.mean[c, 0] - mean
                variance += w[j] * (members[j].core.covariance[c, c] + d * d)
            }
            return (mean, variance)
        }
    }
}

extension AltitudeFilter {
    /// Replaces the marginal of the column state C by N(`mean`, `variance`) (kelvin, K²): keeping the other states'
    /// conditional on C where that narrows C, widening along the model's column direction g = (γ, γ, 0, 1, 0) where it
    /// does not (see `GPSErrorModelBank.shareColumn()`); nothing without the column state.
    mutating func conditionColumn(mean newMean: Double, variance newVariance: Double) throws(AltitudeModelError) {
        guard let c = parameters.columnIndex, isStarted else { return }
        do {
            // Narrowing needs no direction: the plain replacement, without building g (an array) every reading.
            if newVariance <= core.covariance[c, c] && core.model.columnCoupling.isFinite {
                try core.replaceMarginal(of: c, mean: newMean, variance: newVariance)
            } else {
                try core.replaceMarginal(
                    of: c, mean: newMean, variance: newVariance, wideningAlong: columnChangeDirection(columnIndex: c))
            }
        } catch { throw .numerical(String(describing: error)) }
    }

    /// g = ∂x/∂C, how the state moves with a change of the column's temperature offset C (kelvin): U and B by the
    /// column coupling γ in effect (metres per kelvin, `AltitudeModel.columnCoupling`), C by 1, the tendency and the
    /// GPS error not at all. The direction of the model's own column noise (Q's column block is σ_C² (1 − φ_C²) g gᵀ).
    func columnChangeDirection(columnIndex c: Int) -> [Double] {
        var g = [Double](repeating: 0, count: core.stateCount)
        let gamma = core.model.columnCoupling
        g[AltitudeModel.altitudeIndex] = gamma
        g[AltitudeModel.weatherIndex] = gamma
        g[c] = 1
        return g
    }
}
