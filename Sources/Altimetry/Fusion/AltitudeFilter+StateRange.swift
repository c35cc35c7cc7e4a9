import LinearAlgebra
import StateEstimation

extension AltitudeFilter {
    /// Brings the mean back inside the model's range, before each measurement the filter linearises (the column's
    /// temperature, the GPS altitude) and after the reading: the column scale k = 1 + C/T₀ within
    /// `AltitudeModel.columnScaleRange`, the log-pressure altitude U within `AltitudeModel.logPressureAltitudeRange`
    /// and the weather tendency Ḃ within `AltitudeModel.tendencyRange`.
    ///
    /// A numerical guard, not a model: real columns stay within ±60 K of the standard atmosphere and real pressures
    /// (10 to 1,200 hPa at any QNH) put U within −3 km to 40 km, so no real recording reaches it. Readings that no
    /// atmosphere could produce (a fuzzer's) can pull the linear update anywhere, and outside these ranges the GPS
    /// measurement h = k h₀(U) loses its meaning (as k → 0 the altitude stops seeing U, and exp(−L U/T₀) overflows).
    ///
    /// The hold is the estimate projection of a constrained Kalman filter (Simon and Chia, 2002): the mean nearest
    /// to the filter's in the metric P⁻¹ among those with the state xᵢ at its bound m, x' = x + P eᵢ (m − xᵢ)/Pᵢᵢ,
    /// which moves the states correlated with xᵢ with it; the covariance is kept. Holding U moves C along their
    /// correlation, and where both bind C is held with U kept (`holdJointly`); Ḃ is held last, with U and C kept.
    ///
    /// Inlined, the test alone: it runs up to three times a row; the holds are out of line.
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
        do { try core.reset(mean: mean, covariance: P) } catch { throw .numerical(String(describing: error)) }
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
