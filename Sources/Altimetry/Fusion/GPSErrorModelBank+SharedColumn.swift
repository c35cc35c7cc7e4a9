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
    mutating func shareColumn() throws(AltitudeModelError) {
        guard let c = members.first?.parameters.columnIndex, let (mean, variance) = columnMarginal(c),
            variance > 0, variance.isFinite, mean.isFinite
        else { return }
        for j in members.indices {
            try members[j].conditionColumn(mean: mean, variance: variance)
        }
    }

    /// The mixture's (C̄, V̄) of the column state at index `c`; nil until every member has started. Not mutating, so
    /// that the weights' closure reads the members in place (from `shareColumn`, it copied the bank).
    private func columnMarginal(_ c: Int) -> (mean: Double, variance: Double)? {
        withWeights { w in
            var mean = 0.0
            for j in members.indices {
                guard members[j].isStarted else { return nil }
                mean += w[j] * members[j].core.mean[c, 0]
            }
            var variance = 0.0
            for j in members.indices {
                let d = members[j].core.mean[c, 0] - mean
                variance += w[j] * (members[j].core.covariance[c, c] + d * d)
            }
            return (mean, variance)
        }
    }
}

extension AltitudeFilter {
    /// Replaces the marginal of the column state C by N(`mean`, `variance`) (kelvin, K²), keeping the other states'
    /// conditional on C (see `GPSErrorModelBank.shareColumn()`); nothing without the column state.
    mutating func conditionColumn(mean newMean: Double, variance newVariance: Double) throws(AltitudeModelError) {
        guard let c = parameters.columnIndex, isStarted else { return }
        do { try core.replaceMarginal(of: c, mean: newMean, variance: newVariance) } catch {
            throw .numerical(String(describing: error))
        }
    }
}
