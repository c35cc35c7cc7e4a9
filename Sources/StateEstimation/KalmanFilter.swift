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
    /// the filter's code runs unspecialised for a model defined in another module. The engine never changes it;
    /// its owner may, between steps, with `replaceModel(_:)` (adaptive process noise).
    public private(set) var model: Model

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
    public init(model: Model, time: Seconds, mean: [Double], covariance: Matrix, recordsRun: Bool = false)
        throws(EstimationError)
    {
        let n = model.stateCount
        guard n >= 1 else { throw .invalidParameter(name: "state count", value: Double(n), expectation: ">= 1") }
        guard time.isFinite else { throw .nonFiniteTime(time) }
        guard mean.count == n else {
            throw .dimensionMismatch(.initialMean, expected: "\(n) values", actual: "\(mean.count) values")
        }
        guard mean.allSatisfy(\.isFinite) else { throw .nonFinite(.initialMean) }
        self.model = model
        self.time = time
        self.mean = Matrix(rows: n, columns: 1, columnMajor: mean)
        self.covariance = try Self.validatedCovariance(covariance, stateCount: n, quantity: .initialCovariance)
        self.workspace = FilterWorkspace(stateCount: n)
        self.recordedRun = recordsRun ? FilterRun(stateCount: n) : nil
        recordedRun?.beginEpoch(
            time: time, transition: nil, processNoise: nil, mean: self.mean, covariance: self.covariance)
    }

    /// The state dimension n.
    public var stateCount: Int { mean.rows }

    /// Continues with another model of the same state dimension: the next predictions take F and Q from it.
    ///
    /// The state (x, P, time) is untouched; this is how an owner adapts the process noise to what it has seen
    /// (for example more weather noise while a front passes). A recorded run keeps each epoch's own F and Q, so
    /// the smoother follows the models that were actually used.
    ///
    /// - Throws: `EstimationError.dimensionMismatch` if the new model's `stateCount` differs; the filter is
    ///   then unchanged.
    public mutating func replaceModel(_ newModel: Model) throws(EstimationError) {
        guard newModel.stateCount == stateCount else {
            throw .dimensionMismatch(
                .transition, expected: "\(stateCount)x\(stateCount)",
                actual: "\(newModel.stateCount)x\(newModel.stateCount)")
        }
        model = newModel
        // F and Q cached for the last step came from the old model.
        workspace.discretizedStep = .nan
    }

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
        try predict(to: newTime, input: 0, onState: 0)
    }

    /// Predicts with a known input on one state: x⁻ = F x + u eᵢ, P⁻ = F P Fᵀ + Q.
    ///
    /// This is the B u term of the textbook's x⁻ = F x + B u for an input known exactly (a dead-reckoned
    /// displacement, for example), restricted to one state so that the call allocates nothing. The input adds
    /// no uncertainty: its own error belongs in Q. The recorded run keeps x⁻ with the input, so the smoother
    /// follows it. With dt = 0 nothing changes, input included.
    ///
    /// - Parameters:
    ///   - newTime: the time to predict to, in seconds; not earlier than `time`.
    ///   - input: u, in the state's unit, added to state `index` after the transition; finite.
    ///   - index: the state the input moves, in 0..<n.
    /// - Throws: as `predict(to:)`, and `.nonFinite(.input)` for a non-finite input,
    ///   `.invalidParameter` for an index outside the state. The filter is unchanged after a throw.
    public mutating func predict(to newTime: Seconds, input: Double, onState index: Int) throws(EstimationError) {
        guard index >= 0, index < stateCount else {
            throw .invalidParameter(
                name: "input state index", value: Double(index), expectation: "in 0..<\(stateCount)")
        }
        guard input.isFinite else { throw .nonFinite(.input) }
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
        // x⁻ = F x and P⁻ = F P Fᵀ + Q (lower triangle of Q read, result exactly symmetric), into the step's
        // candidate state. One check of the results catches NaN or infinity anywhere upstream; only then look for
        // the culprit.
        guard
            Self.predictKernel(
                stateCount: n, transition: workspace.transition, processNoise: workspace.processNoise,
                mean: mean, covariance: covariance, step: &workspace.step)
        else {
            if !workspace.transition.allElementsFinite {
                workspace.discretizedStep = .nan
                throw .nonFinite(.transition)
            }
            if !workspace.processNoise.allElementsFinite {
                workspace.discretizedStep = .nan
                throw .nonFinite(.processNoise)
            }
            throw .nonFinite(.predictedCovariance)
        }
        swap(&mean, &workspace.step.mean)
        swap(&covariance, &workspace.step.covariance)
        if input != 0 { mean.elements[index] += input }
        time = newTime
        // A case pattern, not `!= nil`, which copies the whole run (through a generic witness) every step.
        if case .some = recordedRun {
            recordedRun?.beginEpoch(
                time: newTime, transition: workspace.transition, processNoise: workspace.processNoise,
                input: input, inputState: index, mean: mean, covariance: covariance)
        }
    }

    /// x⁻ = F x and P⁻ = F P Fᵀ + Q into `step.mean` and `step.covariance`, with F P in `step.product`;
    /// returns whether every element of x⁻ and P⁻ is finite.
    ///
    /// The same sums in the same order as `Matrix.multiplyByLoops` and `Matrix.formCongruence(_:_:_:into:workspace:beta:)`
    /// with β = 1 (so the same bits), written as one loop nest over buffer pointers: for the n = 3 or 4 of a
    /// navigation filter the per-call overhead of those general routines (shape checks, strides, one
    /// uniqueness check per buffer per call) cost more than the arithmetic. Only P⁻'s lower triangle is
    /// computed and checked; the upper one is its mirror image.
    ///
    /// - Precondition: F, Q, P are n x n and x is n x 1 (the caller checked F and Q; x and P are the filter's).
    static func predictKernel(
        stateCount n: Int, transition: Matrix, processNoise: Matrix, mean: Matrix,
        covariance: Matrix, step: inout StepWorkspace
    ) -> Bool {
        precondition(
            transition.elements.count == n * n && processNoise.elements.count == n * n
                && covariance.elements.count == n * n && mean.elements.count == n
                && step.mean.elements.count == n && step.covariance.elements.count == n * n
                && step.product.elements.count == n * n, "predict: shapes")
        return transition.elements.withUnsafeBufferPointer { f in
            processNoise.elements.withUnsafeBufferPointer { q in
                mean.elements.withUnsafeBufferPointer { x in
                    covariance.elements.withUnsafeBufferPointer { p in
                        step.mean.elements.withUnsafeMutableBufferPointer { predicted in
                            step.product.elements.withUnsafeMutableBufferPointer { w in
                                step.covariance.elements.withUnsafeMutableBufferPointer { c in
                                    // A constant n lets the optimiser unroll the loops for the usual small states.
                                    switch n {
                                    case 3: predictLoops(3, f, q, x, p, predicted, w, c)
                                    case 4: predictLoops(4, f, q, x, p, predicted, w, c)
                                    case 5: predictLoops(5, f, q, x, p, predicted, w, c)
                                    default: predictLoops(n, f, q, x, p, predicted, w, c)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Checks a covariance given from outside and returns it exactly symmetric.
    static func validatedCovariance(_ p: Matrix, stateCount n: Int, quantity: EstimationError.Quantity)
        throws(EstimationError) -> Matrix
    {
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
            if case .notPositiveDefinite(_, let minor) = error {
                throw .notPositiveDefinite(quantity, leadingMinor: minor)
            }
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

/// The loops of `KalmanFilter.predictKernel`: x⁻ = F x, W = F P, P⁻ = W Fᵀ + Q (lower triangle, mirrored);
/// returns whether x⁻ and P⁻ are finite. Every sum starts at 0 and runs in increasing index, as in
/// `Matrix.multiplyByLoops`.
///
/// A row of F that is zero off its diagonal (4 of the altitude model's 5: every state but the weather, which
/// its tendency moves) contributes one term to each sum: the sum is then 0 + Fᵢᵢ vᵢ, written so. That is the dense
/// sum's value to the bit whenever the dense sum is finite: its other terms are ±0, and a sum that starts at +0 is
/// never −0 (an exact cancellation rounds to +0), so adding ±0 changes nothing. (Where a dense term is infinity
/// times zero the dense sum is NaN and this one need not be; P and x are finite, so that takes an overflow.)
@inline(__always)
private func predictLoops(
    _ n: Int, _ f: UnsafeBufferPointer<Double>, _ q: UnsafeBufferPointer<Double>, _ x: UnsafeBufferPointer<Double>,
    _ p: UnsafeBufferPointer<Double>, _ predicted: UnsafeMutableBufferPointer<Double>,
    _ w: UnsafeMutableBufferPointer<Double>, _ c: UnsafeMutableBufferPointer<Double>
) -> Bool {
    // Bit i set: row i of F is zero off the diagonal (a NaN is not zero). Larger states than 64 take the dense
    // sums throughout (no bit set).
    var diagonal: UInt64 = 0
    if n <= 64 {
        for i in 0..<n {
            var offDiagonal = false
            for k in 0..<n where k != i { offDiagonal = offDiagonal || f[i &+ k &* n] != 0 }
            if !offDiagonal { diagonal |= 1 &<< UInt64(i) }
        }
    }
    @inline(__always) func isDiagonal(_ i: Int) -> Bool { diagonal & (1 &<< UInt64(i & 63)) != 0 }
    var finite = FinitenessCheck()
    // x⁻ᵢ = Σₖ Fᵢₖ xₖ
    for i in 0..<n {
        var sum = 0.0
        if isDiagonal(i) {
            sum += f[i &+ i &* n] * x[i]
        } else {
            for k in 0..<n { sum += f[i &+ k &* n] * x[k] }
        }
        predicted[i] = sum
        finite.include(sum)
    }
    // W = F P: Wᵢⱼ = Σₖ Fᵢₖ Pₖⱼ
    for j in 0..<n {
        for i in 0..<n {
            var sum = 0.0
            if isDiagonal(i) {
                sum += f[i &+ i &* n] * p[i &+ j &* n]
            } else {
                for k in 0..<n { sum += f[i &+ k &* n] * p[k &+ j &* n] }
            }
            w[i &+ j &* n] = sum
        }
    }
    // P⁻ᵢⱼ = Σₗ Wᵢₗ Fⱼₗ + Qᵢⱼ for i ≥ j, mirrored.
    for j in 0..<n {
        let jDiagonal = isDiagonal(j)
        for i in j..<n {
            var sum = 0.0
            if jDiagonal {
                sum += w[i &+ j &* n] * f[j &+ j &* n]
            } else {
                for l in 0..<n { sum += w[i &+ l &* n] * f[j &+ l &* n] }
            }
            let value = sum + q[i &+ j &* n]
            c[i &+ j &* n] = value
            c[j &+ i &* n] = value
            finite.include(value)
        }
    }
    return finite.allFinite
}
