import Foundation
import LinearAlgebra

/// ln 2π, in the log-likelihood of a Gaussian.
let logTwoPi = log(2 * Double.pi)

/// What the update kernel computed, beyond what it left in its workspace.
struct UpdateOutcome {
    var normalizedInnovationSquared: Double
    var logLikelihoodIncrement: Double
    var decision: UpdateDecision
}

extension KalmanFilter {
    /// Updates the state with a scalar measurement z of variance R, at the filter's current time.
    ///
    /// This is the hot path: nothing is allocated and the record is a plain value. With h the 1 x n observation
    /// row, u = P⁻ hᵀ, S = h u + R and y = z − h(x⁻), the gain is K = u / S: S is the 1 x 1 Cholesky factor's
    /// square, s = √S, exactly what LAPACK's `dpotrf` computes for order one, so the scalar case is done inline.
    /// The covariance update is the Joseph form P = (I − K h) P⁻ (I − K h)ᵀ + K R Kᵀ, evaluated in O(n²) because
    /// I − K h is the identity minus a rank-one matrix.
    ///
    /// - Parameters:
    ///   - value: the measurement z, in the kind's unit.
    ///   - kind: the measurement kind, of dimension 1.
    ///   - variance: R, the measurement's noise variance, in the kind's unit squared; > 0.
    ///   - gate: the innovation gate for this measurement.
    ///   - held: a state the update must not move, or nil: its gain is set to zero (a Schmidt, or "consider",
    ///     update), so its mean and variance stay while its uncertainty still widens S and the others' gains, and
    ///     the Joseph form gives the covariance of that suboptimal gain exactly.
    /// - Returns: the record of the update (innovation, its variance, NIS, log-likelihood increment, decision).
    /// - Throws: `EstimationError.nonFiniteMeasurement`; `.nonFinite(.measurementNoise)` or
    ///   `.notPositiveDefinite(.measurementNoise, leadingMinor: 1)` for R; `.dimensionMismatch` if the kind is
    ///   not scalar, its H is not 1 x n or the gate was built for another dimension; `.nonFinite` if H, h(x) or
    ///   the result holds NaN or infinity; `.notPositiveDefinite(.innovationCovariance, leadingMinor: 1)`.
    ///   The filter is unchanged after a throw.
    /// - Complexity: about 6 n² multiply-adds, the Joseph form taken as the rank-one update it is
    ///   (`Matrix.formJosephUpdate`); no allocation.
    @discardableResult
    public mutating func update<Kind: MeasurementKind>(
        _ value: Double, kind: Kind, variance: Double, gate: Gate = .off, held: Int? = nil
    ) throws(EstimationError) -> ScalarUpdateRecord {
        guard value.isFinite else { throw .nonFiniteMeasurement(component: 0, value: value) }
        guard variance.isFinite else { throw .nonFinite(.measurementNoise) }
        guard variance > 0 else { throw .notPositiveDefinite(.measurementNoise, leadingMinor: 1) }
        guard kind.dimension == 1 else {
            throw .dimensionMismatch(
                .measurement, expected: "a scalar kind", actual: "a kind of dimension \(kind.dimension)")
        }
        let outcome = try Self.applyScalarUpdate(
            value, variance: variance, kind: kind, gate: gate, held: held ?? -1, mean: &mean,
            covariance: &covariance, step: &workspace.step,
            update: &workspace.scalar)
        if outcome.decision.wasApplied { recordedRun?.recordFiltered(mean: mean, covariance: covariance) }
        return ScalarUpdateRecord(
            time: time, innovation: outcome.innovation, innovationVariance: outcome.innovationVariance,
            normalizedInnovationSquared: outcome.normalizedInnovationSquared, decision: outcome.decision)
    }

    /// What the scalar kernel computed: the record's statistics (the log-likelihood follows from them).
    struct ScalarOutcome {
        var innovation: Double
        var innovationVariance: Double
        var normalizedInnovationSquared: Double
        var decision: UpdateDecision
    }

    /// The scalar update kernel: the m = 1 case of `applyUpdate`, the same operations in the same order (so the
    /// same bits), with the 1 x 1 quantities kept in registers and each n-vector or n x n matrix touched through
    /// one buffer pointer. z and R are validated; on success the new mean and covariance are swapped in, on a
    /// throw nothing changed. The 1 x 1 quantities (z, R, y, S, √S) stay out of the workspace: the culprit search
    /// of a non-finite result reads only H and h(x⁻), and each write through a workspace matrix costs a
    /// uniqueness check.
    @inline(__always)
    static func applyScalarUpdate<Kind: MeasurementKind>(
        _ z: Double, variance: Double, kind: Kind, gate: Gate, held: Int = -1, mean: inout Matrix,
        covariance: inout Matrix,
        step filter: inout StepWorkspace, update: inout UpdateWorkspace
    ) throws(EstimationError) -> ScalarOutcome {
        let n = mean.rows
        if let dof = gate.degreesOfFreedom, dof != 1 {
            throw .dimensionMismatch(.measurement, expected: "dimension \(dof), as the gate", actual: "dimension 1")
        }
        // H at x⁻, and the prediction h(x⁻).
        update.observationMatrix.setZero()
        kind.observationMatrix(at: mean, into: &update.observationMatrix)
        guard update.observationMatrix.rows == 1, update.observationMatrix.columns == n else {
            throw .dimensionMismatch(
                .observationMatrix, expected: "1x\(n)",
                actual: "\(update.observationMatrix.rows)x\(update.observationMatrix.columns)")
        }
        kind.predictedMeasurement(at: mean, observationMatrix: update.observationMatrix, into: &update.predicted)
        guard update.predicted.rows == 1, update.predicted.columns == 1 else {
            throw .dimensionMismatch(
                .predictedMeasurement, expected: "1x1", actual: "\(update.predicted.rows)x\(update.predicted.columns)")
        }
        precondition(
            covariance.elements.count == n * n && update.crossCovariance.elements.count == n
                && filter.mean.elements.count == n && filter.covariance.elements.count == n * n
                && filter.josephWorkspace.elements.count == n * (n + 1), "scalar update: shapes")
        // y = z − h(x⁻), as z + (−1) h(x⁻) (what `add(_:scaledBy: -1)` computes).
        let y = z + -1 * update.predicted.elements[0]
        // U = P⁻ hᵀ, into U's storage; S = h U + R.
        var hu = 0.0
        update.observationMatrix.elements.withUnsafeBufferPointer { h in
            covariance.elements.withUnsafeBufferPointer { p in
                update.crossCovariance.elements.withUnsafeMutableBufferPointer { u in
                    // A constant n lets the optimiser unroll the loops for the usual small states.
                    switch n {
                    case 3: hu = crossCovarianceLoops(3, p, h, u)
                    case 4: hu = crossCovarianceLoops(4, p, h, u)
                    case 5: hu = crossCovarianceLoops(5, p, h, u)
                    default: hu = crossCovarianceLoops(n, p, h, u)
                    }
                }
            }
        }
        let s = hu + variance

        // The 1 x 1 Cholesky factor l = √S: what dpotrf computes for order one, without the call.
        guard s.isFinite else { throw update.nonFiniteCulprit(otherwise: .innovationCovariance) }
        guard s > 0 else { throw .notPositiveDefinite(.innovationCovariance, leadingMinor: 1) }
        let l = s.squareRoot()
        let w = y / l
        let nis = w * w

        // The gate.
        var decision = UpdateDecision.accepted
        var inflation = 1.0
        if nis > gate.threshold {
            switch gate.action {
            case .reject:
                return ScalarOutcome(
                    innovation: y, innovationVariance: s, normalizedInnovationSquared: nis,
                    decision: .rejected(.innovationGate(threshold: gate.threshold)))
            case .inflate:
                // R' = R + (c − 1) S, so that S' = c S and the NIS against S' is the threshold.
                inflation = nis / gate.threshold
                decision = .inflated(factor: inflation)
            }
        }

        // K = U / S' (S' = c S when inflated), in U's storage; R' = R + (c − 1) S.
        let r = variance + (inflation - 1) * s
        let factor = 1 / (s * inflation)
        var finite = (mean: true, covariance: true)
        update.observationMatrix.elements.withUnsafeBufferPointer { h in
            mean.elements.withUnsafeBufferPointer { x in
                covariance.elements.withUnsafeBufferPointer { p in
                    update.crossCovariance.elements.withUnsafeMutableBufferPointer { k in
                        filter.mean.elements.withUnsafeMutableBufferPointer { updated in
                            filter.josephWorkspace.elements.withUnsafeMutableBufferPointer { b in
                                filter.covariance.elements.withUnsafeMutableBufferPointer { c in
                                    switch n {
                                    case 3: finite = scalarUpdateLoops(3, held, factor, y, r, x, p, h, k, updated, b, c)
                                    case 4: finite = scalarUpdateLoops(4, held, factor, y, r, x, p, h, k, updated, b, c)
                                    case 5: finite = scalarUpdateLoops(5, held, factor, y, r, x, p, h, k, updated, b, c)
                                    default:
                                        finite = scalarUpdateLoops(n, held, factor, y, r, x, p, h, k, updated, b, c)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        guard finite.mean else { throw update.nonFiniteCulprit(otherwise: .updatedMean) }
        guard finite.covariance else { throw update.nonFiniteCulprit(otherwise: .updatedCovariance) }
        swap(&mean, &filter.mean)
        swap(&covariance, &filter.covariance)
        return ScalarOutcome(innovation: y, innovationVariance: s, normalizedInnovationSquared: nis, decision: decision)
    }

    /// Updates the state with a measurement z of any dimension m and noise covariance R, at the current time.
    ///
    /// S = H P⁻ Hᵀ + R is factorised by Cholesky (`dpotrf`), the NIS is |L⁻¹ y|², and the gain solves
    /// S Kᵀ = H P⁻ with the factor (`dpotrs`); nothing is inverted. The covariance update is the Joseph form.
    /// The record's arrays are allocated; the filter's own work is not.
    ///
    /// - Parameters:
    ///   - values: z, m values in the kind's units.
    ///   - kind: the measurement kind, of dimension m.
    ///   - noise: R, m x m symmetric positive definite, in squared measurement units.
    ///   - gate: the innovation gate for this measurement.
    /// - Returns: the record of the update.
    /// - Throws: `.nonFiniteMeasurement(component:value:)`; `.dimensionMismatch` for z, R, H or the gate;
    ///   `.nonFinite`, `.notSymmetric` or `.notPositiveDefinite(.measurementNoise, leadingMinor:)` for R;
    ///   `.notPositiveDefinite(.innovationCovariance, leadingMinor:)`; `.nonFinite` for H, h(x) or the result.
    ///   The filter is unchanged after a throw.
    /// - Complexity: O(n³ + n² m + n m² + m³).
    @discardableResult
    public mutating func update<Kind: MeasurementKind>(
        _ values: [Double], kind: Kind, noise: Matrix, gate: Gate = .off
    ) throws(EstimationError) -> UpdateRecord {
        let m = kind.dimension
        guard m >= 1 else {
            throw .dimensionMismatch(.measurement, expected: "a kind of dimension >= 1", actual: "dimension \(m)")
        }
        guard values.count == m else {
            throw .dimensionMismatch(.measurement, expected: "\(m) values", actual: "\(values.count) values")
        }
        for (index, value) in values.enumerated() where !value.isFinite {
            throw .nonFiniteMeasurement(component: index, value: value)
        }
        guard noise.rows == m, noise.columns == m else {
            throw .dimensionMismatch(.measurementNoise, expected: "\(m)x\(m)", actual: "\(noise.rows)x\(noise.columns)")
        }
        if m == 1 {
            let record = try update(values[0], kind: kind, variance: noise.elements[0], gate: gate)
            return UpdateRecord(record)
        }
        guard noise.isFinite else { throw .nonFinite(.measurementNoise) }
        try Self.checkSymmetric(noise, quantity: .measurementNoise)
        if workspace.vector.count <= m {
            workspace.vector += Array(repeating: nil, count: m + 1 - workspace.vector.count)
        }
        if workspace.vector[m] == nil {
            workspace.vector[m] = UpdateWorkspace(stateCount: stateCount, measurementCount: m)
        }
        // Take the workspace out (a move, no copy) so that the kernel holds it exclusively.
        guard var update = workspace.vector[m] else {
            throw .dimensionMismatch(.measurement, expected: "a workspace", actual: "none")
        }
        workspace.vector[m] = nil
        defer { workspace.vector[m] = update }
        update.innovationFactor.assign(noise)
        do {
            try update.innovationFactor.overwriteWithCholeskyFactor()
        } catch {
            if case .notPositiveDefinite(_, let minor) = error {
                throw .notPositiveDefinite(.measurementNoise, leadingMinor: minor)
            }
            throw .nonFinite(.measurementNoise)
        }
        update.measurement.elements.withUnsafeMutableBufferPointer { z in
            for i in 0..<m { z[i] = values[i] }
        }
        update.noise.assign(noise)
        update.noise.symmetrize()
        let outcome = try Self.applyUpdate(
            kind: kind, gate: gate, mean: &mean, covariance: &covariance,
            step: &workspace.step, update: &update)
        if outcome.decision.wasApplied { recordedRun?.recordFiltered(mean: mean, covariance: covariance) }
        return UpdateRecord(
            time: time, innovation: update.innovation.elements, innovationCovariance: update.innovationCovariance,
            normalizedInnovationSquared: outcome.normalizedInnovationSquared,
            logLikelihoodIncrement: outcome.logLikelihoodIncrement, decision: outcome.decision)
    }

    /// The update kernel of the general update: z and R are already in `update.measurement` and `update.noise`
    /// and validated. On success the new mean and covariance are swapped in; on a throw nothing changed.
    /// Scalar updates go through `applyScalarUpdate`, which computes what this kernel's m = 1 branches compute,
    /// in the same order; those branches are kept so that this kernel stays correct for any m.
    static func applyUpdate<Kind: MeasurementKind>(
        kind: Kind, gate: Gate, mean: inout Matrix, covariance: inout Matrix,
        step filter: inout StepWorkspace, update: inout UpdateWorkspace
    ) throws(EstimationError) -> UpdateOutcome {
        let n = mean.rows
        let m = update.measurement.rows
        if let dof = gate.degreesOfFreedom, dof != m {
            throw .dimensionMismatch(.measurement, expected: "dimension \(dof), as the gate", actual: "dimension \(m)")
        }

        // H at x⁻, and the prediction h(x⁻).
        update.observationMatrix.setZero()
        kind.observationMatrix(at: mean, into: &update.observationMatrix)
        guard update.observationMatrix.rows == m, update.observationMatrix.columns == n else {
            throw .dimensionMismatch(
                .observationMatrix, expected: "\(m)x\(n)",
                actual: "\(update.observationMatrix.rows)x\(update.observationMatrix.columns)")
        }
        kind.predictedMeasurement(at: mean, observationMatrix: update.observationMatrix, into: &update.predicted)
        guard update.predicted.rows == m, update.predicted.columns == 1 else {
            throw .dimensionMismatch(
                .predictedMeasurement, expected: "\(m)x1",
                actual: "\(update.predicted.rows)x\(update.predicted.columns)")
        }

        // y = z − h(x⁻)
        update.innovation.assign(update.measurement)
        update.innovation.add(update.predicted, scaledBy: -1)
        // U = P⁻ Hᵀ,  S = H U + R  (symmetrised: H U is symmetric only up to rounding)
        Matrix.multiplyByLoops(covariance, .none, update.observationMatrix, .transposed, into: &update.crossCovariance)
        update.innovationCovariance.assign(update.noise)
        Matrix.multiplyByLoops(
            update.observationMatrix, .none, update.crossCovariance, .none,
            into: &update.innovationCovariance, beta: 1)

        // S = L Lᵀ; NIS = |L⁻¹ y|²; log det S = 2 Σ log Lᵢᵢ.
        var nis = 0.0
        var logDeterminant = 0.0
        if m == 1 {
            // The 1 x 1 Cholesky factor: what dpotrf computes for order one, without the call.
            let s = update.innovationCovariance.elements[0]
            guard s.isFinite else { throw update.nonFiniteCulprit(otherwise: .innovationCovariance) }
            guard s > 0 else { throw .notPositiveDefinite(.innovationCovariance, leadingMinor: 1) }
            let l = s.squareRoot()
            update.innovationFactor.elements[0] = l
            let w = update.innovation.elements[0] / l
            update.whitenedInnovation.elements[0] = w
            nis = w * w
            logDeterminant = log(s)
        } else {
            update.innovationCovariance.symmetrize()
            update.innovationFactor.assign(update.innovationCovariance)
            do {
                try update.innovationFactor.overwriteWithCholeskyFactor()
            } catch {
                if case .notPositiveDefinite(_, let minor) = error {
                    throw .notPositiveDefinite(.innovationCovariance, leadingMinor: minor)
                }
                throw update.nonFiniteCulprit(otherwise: .innovationCovariance)
            }
            update.whitenedInnovation.assign(update.innovation)
            do {
                try Matrix.solveTriangular(update.innovationFactor, &update.whitenedInnovation)
            } catch {
                throw .notPositiveDefinite(.innovationCovariance, leadingMinor: m)
            }
            for i in 0..<m {
                let w = update.whitenedInnovation.elements[i]
                nis += w * w
                logDeterminant += 2 * log(update.innovationFactor.elements[i + i * m])
            }
        }
        let logLikelihood = -0.5 * (nis + Double(m) * logTwoPi + logDeterminant)

        // The gate.
        var decision = UpdateDecision.accepted
        var inflation = 1.0
        if nis > gate.threshold {
            switch gate.action {
            case .reject:
                return UpdateOutcome(
                    normalizedInnovationSquared: nis, logLikelihoodIncrement: logLikelihood,
                    decision: .rejected(.innovationGate(threshold: gate.threshold)))
            case .inflate:
                // R' = R + (c − 1) S, so that S' = c S and the NIS against S' is the threshold.
                inflation = nis / gate.threshold
                decision = .inflated(factor: inflation)
            }
        }

        if m == 1 {
            // K = U / S' (S' = c S when inflated), in U's storage; R' = R + (c − 1) S.
            let s = update.innovationCovariance.elements[0]
            let r = update.noise.elements[0] + (inflation - 1) * s
            update.crossCovariance.scale(by: 1 / (s * inflation))
            if inflation != 1 { update.noise.elements[0] = r }
            // x = x⁻ + K y
            filter.mean.assign(mean)
            Matrix.multiplyByLoops(update.crossCovariance, .none, update.innovation, .none, into: &filter.mean, beta: 1)
            // Joseph form with A = I − K h taken as the rank-one update it is: O(n²).
            Matrix.formJosephUpdate(
                covariance, gain: update.crossCovariance, observationRow: update.observationMatrix,
                noiseVariance: r, into: &filter.covariance, workspace: &filter.josephWorkspace)
        } else {
            // Kᵀ: solve S' Kᵀ = Uᵀ with the factor of S (S' = c S when inflated).
            Self.transpose(update.crossCovariance, into: &update.gainTransposed)
            do {
                try update.innovationFactor.solveWithCholeskyFactor(&update.gainTransposed)
            } catch {
                throw .notPositiveDefinite(.innovationCovariance, leadingMinor: m)
            }
            if inflation != 1 {
                update.gainTransposed.scale(by: 1 / inflation)
                // R' = R + (c − 1) S (every update rewrites R); the record keeps the original S.
                update.noise.add(update.innovationCovariance, scaledBy: inflation - 1)
            }
            // x = x⁻ + K y
            filter.mean.assign(mean)
            Matrix.multiplyByLoops(
                update.gainTransposed, .transposed, update.innovation, .none, into: &filter.mean, beta: 1)
            // Joseph form: P = A P⁻ Aᵀ + K R Kᵀ with A = I − K H.
            filter.josephFactor.setIdentity()
            Matrix.multiplyByLoops(
                update.gainTransposed, .transposed, update.observationMatrix, .none,
                into: &filter.josephFactor, alpha: -1, beta: 1)
            Matrix.formCongruence(
                filter.josephFactor, .none, covariance, into: &filter.covariance, workspace: &filter.product)
            Matrix.formCongruence(
                update.gainTransposed, .transposed, update.noise, into: &filter.covariance,
                workspace: &update.gainProduct, beta: 1)
        }
        // One check of the results catches NaN or infinity anywhere upstream; only then look for the culprit.
        guard filter.mean.allElementsFinite else { throw update.nonFiniteCulprit(otherwise: .updatedMean) }
        guard filter.covariance.allElementsFinite else { throw update.nonFiniteCulprit(otherwise: .updatedCovariance) }
        swap(&mean, &filter.mean)
        swap(&covariance, &filter.covariance)
        return UpdateOutcome(
            normalizedInnovationSquared: nis, logLikelihoodIncrement: logLikelihood, decision: decision)
    }

    /// B ← Aᵀ into a preallocated matrix.
    @inline(__always)
    static func transpose(_ a: Matrix, into b: inout Matrix) {
        let rows = a.rows, columns = a.columns
        a.elements.withUnsafeBufferPointer { source in
            b.elements.withUnsafeMutableBufferPointer { target in
                for j in 0..<columns {
                    for i in 0..<rows { target[j + i * columns] = source[i + j * rows] }
                }
            }
        }
    }
}

extension UpdateWorkspace {
    /// The error for a non-finite result: the model's H or h(x) if either holds NaN or infinity, else `quantity`.
    func nonFiniteCulprit(otherwise quantity: EstimationError.Quantity) -> EstimationError {
        if !observationMatrix.allElementsFinite { return .nonFinite(.observationMatrix) }
        if !predicted.allElementsFinite { return .nonFinite(.predictedMeasurement) }
        return .nonFinite(quantity)
    }
}

/// U = P hᵀ into `u`; returns h U. The sums of `Matrix.multiplyByLoops`, in its order, but for the terms of
/// h's zeros (a barometer sees 2 of the altitude model's 5 states, a GPS 3): each such term is ±0, and a sum that
/// starts at +0 is never −0, so leaving it out changes no bit (P is finite; see `predictLoops`).
@inline(__always)
private func crossCovarianceLoops(
    _ n: Int, _ p: UnsafeBufferPointer<Double>, _ h: UnsafeBufferPointer<Double>,
    _ u: UnsafeMutableBufferPointer<Double>
) -> Double {
    for i in 0..<n { u[i] = 0 }
    for l in 0..<n where h[l] != 0 {
        let hl = h[l]
        for i in 0..<n { u[i] += p[i &+ l &* n] * hl }
    }
    var hu = 0.0
    for l in 0..<n where h[l] != 0 { hu += h[l] * u[l] }
    return hu
}

/// The commit of a scalar update: K = U · factor in U's storage, x = x⁻ + K y, and the Joseph form
/// C = (I − k h) P (I − k h)ᵀ + r k kᵀ = B − g kᵀ + r k kᵀ with B = P − k vᵀ and g = B hᵀ, exactly as
/// `Matrix.formJosephUpdate` computes it (same terms, same order, but for the terms of h's zeros, left out as in
/// `crossCovarianceLoops`). Each Bᵢⱼ = Pᵢⱼ − kᵢ vⱼ is formed where it is used, as the same two operations, rather
/// than stored: C reads only B's lower triangle and g only its columns where h is not zero. Its v = P hᵀ is U
/// itself: P is symmetric to the last bit (every step mirrors its lower triangle), so vⱼ = Σₗ hₗ Pₗⱼ and
/// Uⱼ = Σₗ Pⱼₗ hₗ are the same products summed in the same order. `b` holds v, then g. Returns whether the new mean
/// and the new covariance are finite (the covariance is checked on its lower triangle, of which the upper is a
/// copy).
@inline(__always)
private func scalarUpdateLoops(
    _ n: Int, _ held: Int, _ factor: Double, _ y: Double, _ r: Double, _ x: UnsafeBufferPointer<Double>,
    _ pp: UnsafeBufferPointer<Double>, _ h: UnsafeBufferPointer<Double>, _ k: UnsafeMutableBufferPointer<Double>,
    _ updated: UnsafeMutableBufferPointer<Double>, _ b: UnsafeMutableBufferPointer<Double>,
    _ c: UnsafeMutableBufferPointer<Double>
) -> (mean: Bool, covariance: Bool) {
    // v = U, kept in b[0..<n] before K takes U's storage; g goes in b[n..<2n].
    let g = n
    for i in 0..<n {
        b[i] = k[i]
        k[i] *= factor
    }
    // A held state's gain is zero; B = P − k vᵀ below is (I − K h) P⁻ for any K, so the covariance stays exact.
    if held >= 0, held < n { k[held] = 0 }
    // x = x⁻ + K y (the product's sum starts at 0, as in `multiplyByLoops` with β = 1).
    var meanFinite = FinitenessCheck()
    for i in 0..<n {
        let value = (0.0 + k[i] * y) + x[i]
        updated[i] = value
        meanFinite.include(value)
    }
    // g = B hᵀ, Bᵢₗ = Pᵢₗ − kᵢ vₗ.
    for i in 0..<n { b[g &+ i] = 0 }
    for l in 0..<n where h[l] != 0 {
        let hl = h[l], vl = b[l]
        for i in 0..<n { b[g &+ i] += (pp[i &+ l &* n] - k[i] * vl) * hl }
    }
    // C = B − g kᵀ + r k kᵀ, lower triangle, mirrored.
    var covarianceFinite = FinitenessCheck()
    for j in 0..<n {
        let kj = k[j], vj = b[j]
        for i in j..<n {
            let value = (pp[i &+ j &* n] - k[i] * vj) - b[g &+ i] * kj + r * k[i] * kj
            c[i &+ j &* n] = value
            c[j &+ i &* n] = value
            covarianceFinite.include(value)
        }
    }
    return (meanFinite.allFinite, covarianceFinite.allFinite)
}
