import StateEstimation

extension AltitudeFilter {
    /// Brings the mean back inside the model's range, before each measurement the filter linearises (the column's
    /// temperature, the GPS altitude) and after the reading: the column scale k = 1 + C/T₀ within
    /// `AltitudeModel.columnScaleRange` and the log-pressure altitude U within `AltitudeModel.logPressureAltitudeRange`.
    ///
    /// Readings that no atmosphere could produce (a GPS altitude of 1 km beside a pressure of 330 hPa, a station at
    /// 176 K) can pull the linear update anywhere. Outside these ranges the GPS measurement h = k h₀(U) loses its
    /// meaning: as k → 0 the altitude stops seeing U, which then runs away along the unobserved direction until
    /// exp(−L U/T₀) overflows the altitude (10³⁰ m) and the next update's gain loses the covariance's positive
    /// definiteness. Real columns stay within ±60 K of the standard atmosphere and real pressures (10 to 1,200 hPa
    /// at any QNH) put U within −3 km to 40 km, so the hold changes nothing a real recording reaches.
    ///
    /// The hold is the estimate projection of a constrained Kalman filter (Simon and Chia, 2002): the mean nearest
    /// to the filter's in the metric P⁻¹ among those with the state xᵢ at its bound m, x' = x + P eᵢ (m − xᵢ)/Pᵢᵢ,
    /// which moves the states correlated with xᵢ with it; the covariance is kept (`KalmanFilter.replaceMarginal`
    /// with the same variance).
    ///
    /// Why before each linearisation and not only after the reading: the barometer's measurement z = B − U is
    /// linear, and its update x⁺ = x + P Hᵀ y/S with H = (−1, 1, 0, …) moves U by (P_UB − P_UU) y/S, exact for any
    /// mean but unbounded. A prior that knows B − U to metres and U only to kilometres, B moving slightly more than U
    /// along their common direction (a member of the adaptive bank reseeded from members kilometres apart, or whose
    /// U the shared column moved by γ (C̄ − C_j)), turns an 11 km barometer innovation into a move of U by 1,200 km
    /// (P_UB − P_UU ≈ 9,300 m², S ≈ 90 m²). Linearised there, the fix's H = (∂h/∂U, ∂h/∂C) = (k exp(−L U/T₀), h₀/T₀)
    /// is of order exp(−L U/T₀) ≈ 10¹¹, S = H P Hᵀ + R reaches 10²⁹ m², and P⁺ = P − P Hᵀ H P/S subtracts terms of
    /// order P_UU to leave ones of order R/H²: the cancellation loses P's positive definiteness, or the update lands
    /// the mean so far out that the projections after the reading carry B along a near-singular P to 3·10⁶ m (a QNH
    /// of 10¹⁵⁷ hPa, whose sigma's square overflows). Held first, the fix is linearised where h = k h₀(U) holds, and
    /// its update is an ordinary one.
    ///
    /// Holding U moves C along their correlation, and where both bind that can take C out of its range again; C is
    /// then held with U where the first hold put it, by the projection onto both bounds at once (`holdJointly`).
    mutating func holdStateInModelRange() throws(AltitudeModelError) {
        let u = AltitudeModel.altitudeIndex
        guard let c = parameters.columnIndex else {
            try hold(u, within: AltitudeModel.logPressureAltitudeRange)
            return
        }
        let T0 = StandardAtmosphere.seaLevelTemperature
        let scales = AltitudeModel.columnScaleRange
        let columnRange = (scales.lowerBound - 1) * T0...(scales.upperBound - 1) * T0
        try hold(c, within: columnRange)
        try hold(u, within: AltitudeModel.logPressureAltitudeRange)
        let column = core.mean[c, 0]
        guard column < columnRange.lowerBound || column > columnRange.upperBound else { return }
        try holdJointly(c, at: min(max(column, columnRange.lowerBound), columnRange.upperBound), keeping: u)
    }

    /// Moves state `i` to `target` and keeps state `j` where it is, by the estimate projection onto both
    /// constraints, x' = x + P E (Eᵀ P E)⁻¹ (m − Eᵀ x) with E = [eᵢ, eⱼ] (Simon and Chia, 2002); the covariance is
    /// kept. Nothing when the 2 × 2 block Eᵀ P E is singular to rounding (the two states then move as one, and no
    /// projection keeps one and moves the other).
    private mutating func holdJointly(_ i: Int, at target: Double, keeping j: Int) throws(AltitudeModelError) {
        let P = core.covariance
        let pii = P[i, i], pjj = P[j, j], pij = P[i, j]
        let determinant = pii * pjj - pij * pij
        guard determinant > 1e-12 * pii * pjj, determinant.isFinite else { return }
        // (Eᵀ P E)⁻¹ (m − Eᵀ x), with the residual (target − xᵢ, 0).
        let r = target - core.mean[i, 0]
        let di = pjj * r / determinant, dj = -pij * r / determinant
        var mean = (0..<core.stateCount).map { core.mean[$0, 0] + P[$0, i] * di + P[$0, j] * dj }
        mean[i] = target
        mean[j] = core.mean[j, 0]
        try reset(mean: mean, covariance: P)
    }

    /// Inlined: it runs twice a row, and the test is all it does unless the state left its range.
    @inline(__always)
    private mutating func hold(_ index: Int, within range: ClosedRange<Double>) throws(AltitudeModelError) {
        let value = core.mean[index, 0]
        guard value < range.lowerBound || value > range.upperBound else { return }
        do {
            try core.replaceMarginal(
                of: index, mean: min(max(value, range.lowerBound), range.upperBound),
                variance: core.covariance[index, index])
        } catch {
            throw .numerical(String(describing: error))
        }
    }
}
