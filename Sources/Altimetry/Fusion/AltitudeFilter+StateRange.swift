import LinearAlgebra
import StateEstimation

extension AltitudeFilter {
    /// Brings the mean back inside the model's range, before each measurement the filter linearises (the column's
    /// temperature, the GPS altitude) and after the reading: the column scale k = 1 + C/T₀ within
    /// `AltitudeModel.columnScaleRange`, the log-pressure altitude U within `AltitudeModel.logPressureAltitudeRange`
    /// and the weather tendency Ḃ within `AltitudeModel.tendencyRange`.
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
    ///
    /// The weather tendency Ḃ is held last, with U and C kept where the holds before put them, by the projection onto
    /// the three constraints at once. Ḃ enters no measurement's linearisation, but over a gap it moves B by Ḃ τ_Ḃ
    /// (τ_Ḃ = 30 min), and QNH = 1013.25 hPa · exp(B/H₀) is exponential in B: a tendency of 2,000 m/s (10⁶ hPa/h),
    /// which the barometer's update can give a bank member from a lopsided prior as above and which the holds of U
    /// and C leave in place, moves B by 4·10⁶ m over a 60-year gap, and the QNH's sigma overflows.
    ///
    /// Inlined, the test alone: it runs up to three times a row, and no real recording fails it; the holds are out of
    /// line (`holdStateOutsideModelRange`).
    @inline(__always)
    mutating func holdStateInModelRange() throws(AltitudeModelError) {
        let outside =
            Self.isOutside(core.mean[AltitudeModel.altitudeIndex, 0], AltitudeModel.logPressureAltitudeRange)
            || parameters.columnIndex.map { Self.isOutside(core.mean[$0, 0], AltitudeModel.columnOffsetRange) } ?? false
            || (parameters.hasTendency
                && Self.isOutside(core.mean[AltitudeModel.tendencyIndex, 0], AltitudeModel.tendencyRange))
        if outside { try holdStateOutsideModelRange() }
    }

    /// Whether `value` lies outside `range` (NaN does not).
    @inline(__always)
    private static func isOutside(_ value: Double, _ range: ClosedRange<Double>) -> Bool {
        value < range.lowerBound || value > range.upperBound
    }

    /// The holds of `holdStateInModelRange()`, where the mean has left the range: C and U (C again with U kept where
    /// both bind), then Ḃ with U and C kept.
    @inline(never)
    private mutating func holdStateOutsideModelRange() throws(AltitudeModelError) {
        let u = AltitudeModel.altitudeIndex
        let column = parameters.columnIndex
        if let c = column {
            try holdColumn(c, andAltitude: u)
        } else {
            try hold(u, within: AltitudeModel.logPressureAltitudeRange)
        }
        guard parameters.hasTendency else { return }
        let t = AltitudeModel.tendencyIndex, range = AltitudeModel.tendencyRange
        let rate = core.mean[t, 0]
        guard Self.isOutside(rate, range) else { return }
        try holdJointly(
            t, at: min(max(rate, range.lowerBound), range.upperBound), keeping: column.map { [u, $0] } ?? [u])
    }

    /// Holds C within the column scales' range and U within its own, C again with U kept where both bind.
    private mutating func holdColumn(_ c: Int, andAltitude u: Int) throws(AltitudeModelError) {
        let columnRange = AltitudeModel.columnOffsetRange
        try hold(c, within: columnRange)
        try hold(u, within: AltitudeModel.logPressureAltitudeRange)
        let column = core.mean[c, 0]
        guard Self.isOutside(column, columnRange) else { return }
        try holdJointly(c, at: min(max(column, columnRange.lowerBound), columnRange.upperBound), keeping: [u])
    }

    /// Moves state `i` to `target` and keeps each state of `kept` where it is, by the estimate projection onto all
    /// these constraints at once (Simon and Chia, 2002),
    ///
    ///     x' = x + P E (Eᵀ P E)⁻¹ (m − Eᵀ x),    E = [eᵢ, e_kept…],    m − Eᵀ x = (target − xᵢ, 0, …, 0),
    ///
    /// with Eᵀ P E factorised as L Lᵀ, not inverted; the covariance is kept. Nothing when Eᵀ P E is singular to
    /// rounding, a pivot L_aa² at most 10⁻¹² of its diagonal entry (for two states, det(Eᵀ P E) ≤ 10⁻¹² P_ii P_jj):
    /// the states then move as one, and no projection keeps some of them and moves another.
    private mutating func holdJointly(_ i: Int, at target: Double, keeping kept: [Int]) throws(AltitudeModelError) {
        let P = core.covariance
        let indices = [i] + kept
        let k = indices.count
        var block = Matrix(rows: k, columns: k)
        for a in 0..<k {
            for b in 0..<k { block[a, b] = P[indices[a], indices[b]] }
        }
        // v = (Eᵀ P E)⁻¹ (m − Eᵀ x).
        var v = Matrix(rows: k, columns: 1)
        v[0, 0] = target - core.mean[i, 0]
        do {
            let factor = try block.choleskyFactor()
            guard (0..<k).allSatisfy({ factor[$0, $0] * factor[$0, $0] > 1e-12 * block[$0, $0] }) else { return }
            try factor.solveWithCholeskyFactor(&v)
        } catch {
            return
        }
        var mean = (0..<core.stateCount).map { r in
            core.mean[r, 0] + (0..<k).reduce(0) { $0 + P[r, indices[$1]] * v[$1, 0] }
        }
        mean[i] = target
        for j in kept { mean[j] = core.mean[j, 0] }
        try reset(mean: mean, covariance: P)
    }

    /// Holds state `index` within `range` by the estimate projection, where it has left it.
    private mutating func hold(_ index: Int, within range: ClosedRange<Double>) throws(AltitudeModelError) {
        let value = core.mean[index, 0]
        guard Self.isOutside(value, range) else { return }
        do {
            try core.replaceMarginal(
                of: index, mean: min(max(value, range.lowerBound), range.upperBound),
                variance: core.covariance[index, index])
        } catch {
            throw .numerical(String(describing: error))
        }
    }
}
