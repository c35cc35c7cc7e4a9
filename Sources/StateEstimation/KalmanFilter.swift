import LinearAlgebra

/// A Kalman filter over any `StateSpaceModel`: predict to any time, update with any measurement kind, in any order.
///
/// The filter holds the time t (s), the mean x (n x 1) and the covariance P (n x n) of the state. Predicting to a
/// later time applies
///
///     x⁻ = F x,   P⁻ = F P Fᵀ + Q,
///
/// with F = F(dt) and Q = Q(dt) from the model; updating with a measurement z of some kind applies
///
///     y = z − h(x⁻)                        innovation
///     S = H P⁻ Hᵀ + R = L Lᵀ               innovation covariance, Cholesky-factorised
///     K = P⁻ Hᵀ S⁻¹                        gain, by two triangular solves with L
///     x = x⁻ + K y
///     P = (I − K H) P⁻ (I − K H)ᵀ + K R Kᵀ    Joseph form
///
/// after an optional innovation gate (`Gate`). See `Docs/engine.md` for why the Joseph form.
///
/// A filter is a value. Its matrices and scratch workspaces are allocated once by `init`, and a predict or an
/// update of a dimension seen before allocates nothing, provided the filter itself is not shared (a copy shares
/// buffers until either is mutated). Every throwing call leaves the filter exactly as it was.
public struct KalmanFilter<Model: StateSpaceModel>: Sendable {
    /// The time of the current estimate, in seconds.
    public internal(set) var time: Seconds
    /// The mean x of the state, n x 1, in the states' units.
    public internal(set) var mean: Matrix
    /// The covariance P of the state, n x n, symmetric positive definite, in the states' squared units.
    public internal(set) var covariance: Matrix
    /// The run recorded for the smoother, if recording was asked for.
    public internal(set) var recordedRun: FilterRun?
    /// Scratch matrices; not part of the filter's state.
    var workspace: FilterWorkspace
    /// The model that gives F(dt) and Q(dt). Stored last, so that the fields above have fixed offsets even when
    /// the filter's code runs unspecialised for a model defined in another module.
    public let model: Model

    /// A filter at `time` with the prior N(x0, P0).
    ///
    /// - Parameters:
    ///   - model: the state-space model; its `stateCount` is n.
    ///   - time: the time of the prior, in seconds.
    ///   - mean: x0, n values.
    ///   - covariance: P0, n x n symmetric positive definite.
    ///   - recordsRun: whether to record every epoch for `RauchTungStriebelSmoother` (see `FilterRun`).
    /// - Throws: `EstimationError.dimensionMismatch` if x0 or P0 is not of dimension n; `.nonFiniteTime`;
    ///   `.nonFinite` for NaN or infinity in x0 or P0; `.notSymmetric` if P0 is not symmetric (to 1e-12 relative);
    ///   `.notPositiveDefinite(.initialCovariance, leadingMinor:)` if Cholesky fails.
    public init(model: Model, time: Seconds, mean: [Double], covariance: Matrix, recordsRun: Bool = false) throws(EstimationError) {
        let n = model.stateCount
        guard n >= 1 else { throw .invalidParameter(name: "state count", value: Double(n), expectation: ">= 1") }
        guard time.isFinite else { throw .nonFiniteTime(time) }
        guard mean.count == n else { throw .dimensionMismatch(.initialMean, expected: "\(n) values", actual: "\(mean.count) values") }
        guard mean.allSatisfy(\.isFinite) else { throw .nonFinite(.initialMean) }
        self.model = model
        self.time = time
        self.mean = Matrix(rows: n, columns: 1, columnMajor: mean)
        self.covariance = try Self.validatedCovariance(covariance, stateCount: n, quantity: .initialCovariance)
        self.workspace = FilterWorkspace(stateCount: n)
        self.recordedRun = recordsRun ? FilterRun(stateCount: n) : nil
        recordedRun?.beginEpoch(time: time, transition: nil, processNoise: nil, mean: self.mean, covariance: self.covariance)
    }

    /// The state dimension n.
    public var stateCount: Int { mean.rows }

    /// The one-sigma uncertainty √Pᵢᵢ of state `index`, in its unit.
    public func standardDeviation(of index: Int) -> Double {
        covariance[index, index].squareRoot()
    }

    /// Predicts the state to a later time: x⁻ = F x, P⁻ = F P Fᵀ + Q.
    ///
    /// Predicting to the current time (dt = 0) changes nothing, so several measurements at one time are simply
    /// several updates. F and Q come from `model.discretize(over:transition:processNoise:)`; P⁻ is formed as a
    /// congruence and is symmetric to the last bit.
    ///
    /// - Parameter newTime: the time to predict to, in seconds; not earlier than `time`.
    /// - Throws: `EstimationError.nonFiniteTime`; `.timeWentBackwards(from: time, to: newTime)`;
    ///   `.dimensionMismatch` if the model replaced F or Q by a matrix of another shape; `.nonFinite` if F, Q or
    ///   the predicted covariance holds NaN or infinity. The filter is unchanged after a throw.
    /// - Complexity: 2 n³ + n² multiply-adds; no allocation.
    public mutating func predict(to newTime: Seconds) throws(EstimationError) {
        guard newTime.isFinite else { throw .nonFiniteTime(newTime) }
        guard newTime >= time else { throw .timeWentBackwards(from: time, to: newTime) }
        let dt = newTime - time
        if dt == 0 { return }
        let n = stateCount
        if dt != workspace.discretizedStep {
            // F and Q are pure functions of dt: when the step repeats (a regular sensor rate), reuse them.
            workspace.discretizedStep = .nan
            workspace.transition.setZero()
            workspace.processNoise.setZero()
            model.discretize(over: dt, transition: &workspace.transition, processNoise: &workspace.processNoise)
            guard workspace.transition.rows == n, workspace.transition.columns == n else {
                let actual = "\(workspace.transition.rows)x\(workspace.transition.columns)"
                workspace.transition = Matrix(rows: n, columns: n)
                throw .dimensionMismatch(.transition, expected: "\(n)x\(n)", actual: actual)
            }
            guard workspace.processNoise.rows == n, workspace.processNoise.columns == n else {
                let actual = "\(workspace.processNoise.rows)x\(workspace.processNoise.columns)"
                workspace.processNoise = Matrix(rows: n, columns: n)
                throw .dimensionMismatch(.processNoise, expected: "\(n)x\(n)", actual: actual)
            }
            workspace.discretizedStep = dt
        }
        // x⁻ = F x
        Matrix.multiplyByLoops(workspace.transition, .none, mean, .none, into: &workspace.step.mean)
        // P⁻ = F P Fᵀ + Q, lower triangle of Q read, result exactly symmetric.
        workspace.step.covariance.assign(workspace.processNoise)
        Matrix.formCongruence(workspace.transition, .none, covariance, into: &workspace.step.covariance,
                              workspace: &workspace.step.product, beta: 1)
        // One check of the results catches NaN or infinity anywhere upstream; only then look for the culprit.
        guard workspace.step.covariance.allElementsFinite, workspace.step.mean.allElementsFinite else {
            if !workspace.transition.allElementsFinite { workspace.discretizedStep = .nan; throw .nonFinite(.transition) }
            if !workspace.processNoise.allElementsFinite { workspace.discretizedStep = .nan; throw .nonFinite(.processNoise) }
            throw .nonFinite(.predictedCovariance)
        }
        swap(&mean, &workspace.step.mean)
        swap(&covariance, &workspace.step.covariance)
        time = newTime
        if recordedRun != nil {
            recordedRun?.beginEpoch(time: newTime, transition: workspace.transition, processNoise: workspace.processNoise,
                                    mean: mean, covariance: covariance)
        }
    }

    /// Checks a covariance given from outside and returns it exactly symmetric.
    static func validatedCovariance(_ p: Matrix, stateCount n: Int, quantity: EstimationError.Quantity) throws(EstimationError) -> Matrix {
        guard p.rows == n, p.columns == n else {
            throw .dimensionMismatch(quantity, expected: "\(n)x\(n)", actual: "\(p.rows)x\(p.columns)")
        }
        guard p.isFinite else { throw .nonFinite(quantity) }
        try checkSymmetric(p, quantity: quantity)
        var symmetric = p
        symmetric.symmetrize()
        do {
            _ = try symmetric.choleskyFactor()
        } catch {
            if case .notPositiveDefinite(_, let minor) = error { throw .notPositiveDefinite(quantity, leadingMinor: minor) }
            throw .nonFinite(quantity)
        }
        return symmetric
    }

    /// Throws `.notSymmetric` unless max |Aᵢⱼ − Aⱼᵢ| ≤ 1e-12 max |Aᵢⱼ|.
    static func checkSymmetric(_ a: Matrix, quantity: EstimationError.Quantity) throws(EstimationError) {
        let scale = a.elements.reduce(0) { max($0, abs($1)) }
        let asymmetry = a.asymmetry
        if asymmetry > 1e-12 * scale { throw .notSymmetric(quantity, asymmetry: asymmetry) }
    }
}
