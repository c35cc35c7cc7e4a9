import LinearAlgebra

/// A filter's run, epoch by epoch, as the Rauch-Tung-Striebel smoother needs it, in as few bytes as give it
/// back exactly.
///
/// An epoch is a distinct time the filter predicted to (and the prior's time, epoch 0). For epoch k the run gives
/// the transition F and process noise Q from epoch k − 1, the predicted mean and covariance x⁻ₖ, P⁻ₖ, and the
/// filtered ones xₖ, Pₖ after every update applied at that time (equal to the predicted ones if none was).
/// Updates at the same time belong to one epoch.
///
/// What it keeps per epoch, and why that is enough:
///
/// - the time, the filtered mean xₖ (n values) and the lower triangle of the filtered covariance Pₖ
///   (n (n + 1) / 2 values: the filter keeps P exactly symmetric, so the triangle is all of it);
/// - which (F, Q) the step to it used, as an index into a table of the distinct pairs: F and Q are a pure
///   function of dt and the model, so a sensor at a regular rate reuses one pair for the whole run;
/// - the known input u the step added to one state (`KalmanFilter.predict(to:input:onState:)`).
///
/// The predicted state is not kept: x⁻ₖ = F xₖ₋₁ + u eᵢ and P⁻ₖ = F Pₖ₋₁ Fᵀ + Q are recomputed from epoch
/// k − 1 by the filter's own prediction kernel, the same sums in the same order, so they come back to the last
/// bit. For n = 5 that is 8 + 8 n + 4 n (n + 1) + 16 = 184 bytes an epoch, against the (4 n² + 2 n + 1) doubles
/// (888 bytes) of keeping every matrix whole. Storage is flat and grows geometrically, so recording adds no
/// allocation per step in the long run.
public struct FilterRun: Sendable, Equatable, Codable {
    /// The state dimension n.
    public let stateCount: Int
    /// The epochs' times, in seconds, strictly increasing.
    public private(set) var times: [Seconds] = []
    /// The distinct steps, each F then Q (n² values each, column-major).
    var steps: [Double] = []
    /// Each epoch's step in `steps` (−1 for epoch 0: F = I, Q = 0).
    var stepIndices: [Int32] = []
    /// Each epoch's input u and the state it moved (0 on state 0 when there was none).
    var inputs: [Double] = []
    var inputStates: [Int32] = []
    /// Epoch 0's predicted state: the prior (mean, then the covariance's lower triangle).
    var prior: [Double] = []
    /// The filtered means, n per epoch.
    var filteredMeans: [Double] = []
    /// The filtered covariances' lower triangles, column by column, n (n + 1) / 2 per epoch.
    var filteredCovariances: [Double] = []

    /// An empty run for a state of dimension n.
    public init(stateCount: Int) {
        self.stateCount = stateCount
    }

    /// The number of epochs.
    public var epochCount: Int { times.count }

    /// The number of values of a packed covariance: n (n + 1) / 2.
    var packedCount: Int { stateCount * (stateCount + 1) / 2 }

    /// The filtered mean xₖ (n x 1) of epoch k.
    public func filteredMean(at epoch: Int) -> Matrix {
        check(epoch)
        var result = Matrix(rows: stateCount, columns: 1)
        result.load(from: filteredMeans, at: epoch * stateCount)
        return result
    }

    /// The filtered covariance Pₖ (n x n) of epoch k.
    public func filteredCovariance(at epoch: Int) -> Matrix {
        check(epoch)
        var result = Matrix(rows: stateCount, columns: stateCount)
        Self.unpack(filteredCovariances, at: epoch * packedCount, into: &result)
        return result
    }

    /// The predicted mean x⁻ₖ (n x 1) of epoch k; the prior for epoch 0.
    public func predictedMean(at epoch: Int) -> Matrix { predicted(at: epoch).mean }

    /// The predicted covariance P⁻ₖ (n x n) of epoch k; the prior for epoch 0.
    public func predictedCovariance(at epoch: Int) -> Matrix { predicted(at: epoch).covariance }

    /// The transition F from epoch k − 1 to epoch k (the identity for epoch 0).
    public func transition(at epoch: Int) -> Matrix { step(of: epoch).transition }

    /// The process noise Q from epoch k − 1 to epoch k (zero for epoch 0).
    public func processNoise(at epoch: Int) -> Matrix { step(of: epoch).processNoise }

    private func step(of epoch: Int) -> (transition: Matrix, processNoise: Matrix) {
        check(epoch)
        var f = Matrix(rows: stateCount, columns: stateCount)
        var q = Matrix(rows: stateCount, columns: stateCount)
        loadStep(of: epoch, transition: &f, processNoise: &q)
        return (f, q)
    }

    private func check(_ epoch: Int) {
        precondition(epoch >= 0 && epoch < epochCount, "epoch \(epoch) outside 0..<\(epochCount)")
    }

    /// The predicted state of epoch k, recomputed from epoch k − 1 (see the type's discussion).
    private func predicted(at epoch: Int) -> (mean: Matrix, covariance: Matrix) {
        check(epoch)
        let n = stateCount
        var mean = Matrix(rows: n, columns: 1)
        var covariance = Matrix(rows: n, columns: n)
        if epoch == 0 {
            mean.load(from: prior, at: 0)
            Self.unpack(prior, at: n, into: &covariance)
            return (mean, covariance)
        }
        var step = StepWorkspace(stateCount: n)
        predict(
            epoch: epoch, previousMean: filteredMean(at: epoch - 1),
            previousCovariance: filteredCovariance(at: epoch - 1),
            transition: transition(at: epoch), processNoise: processNoise(at: epoch), into: &step)
        return (step.mean, step.covariance)
    }

    /// x⁻ₖ and P⁻ₖ into `step.mean` and `step.covariance` from the filtered state of epoch k − 1 and the step's F
    /// and Q (loaded by the caller), as `KalmanFilter.predict(to:input:onState:)` computed them.
    func predict(
        epoch: Int, previousMean: Matrix, previousCovariance: Matrix, transition: Matrix, processNoise: Matrix,
        into step: inout StepWorkspace
    ) {
        _ = KalmanFilter<BlockDiagonalModel>.predictKernel(
            stateCount: stateCount, transition: transition,
            processNoise: processNoise, mean: previousMean,
            covariance: previousCovariance, step: &step)
        let input = inputs[epoch]
        if input != 0 { step.mean.elements[Int(inputStates[epoch])] += input }
    }

    /// Loads the F and Q of the step to `epoch` into `transition` and `processNoise` (n x n each).
    func loadStep(of epoch: Int, transition: inout Matrix, processNoise: inout Matrix) {
        let index = Int(stepIndices[epoch])
        let size = stateCount * stateCount
        if index >= 0 {
            transition.load(from: steps, at: 2 * index * size)
            processNoise.load(from: steps, at: (2 * index + 1) * size)
        } else {
            transition.setIdentity()
            processNoise.setZero()
        }
    }

    /// Starts an epoch at `time` with its predicted state, which is also its filtered state until an update.
    ///
    /// - Parameters:
    ///   - transition: F of the step to this epoch; nil (with `processNoise`) for epoch 0.
    ///   - input: the input u the step added to state `inputState` after the transition.
    mutating func beginEpoch(
        time: Seconds, transition: Matrix?, processNoise: Matrix?, input: Double = 0,
        inputState: Int = 0, mean: Matrix, covariance: Matrix
    ) {
        if times.isEmpty {
            prior.append(contentsOf: mean.elements)
            Self.appendPacked(covariance, to: &prior)
        }
        times.append(time)
        if let transition, let processNoise {
            stepIndices.append(stepIndex(transition, processNoise))
        } else {
            precondition(transition == nil && processNoise == nil, "FilterRun: F and Q go together")
            stepIndices.append(-1)
        }
        inputs.append(input)
        inputStates.append(Int32(inputState))
        filteredMeans.append(contentsOf: mean.elements)
        Self.appendPacked(covariance, to: &filteredCovariances)
    }

    /// The index of (F, Q) in `steps`, added when it is not among the last 32 distinct pairs.
    ///
    /// A sensor at a regular rate gives a few distinct steps, not one: a time difference such as
    /// 1714564800.2 − 1714564800.1 is 0.1 only to the spacing of doubles near the times (2.4 × 10⁻⁷ s there), and F
    /// and Q follow dt to the last bit. Two sensors, model switches and those few variants of each step stay
    /// within the window; a pair that differs is told apart by its first elements, so the search is cheap.
    private mutating func stepIndex(_ f: Matrix, _ q: Matrix) -> Int32 {
        let size = stateCount * stateCount
        let count = steps.count / (2 * size)
        for index in stride(from: count - 1, through: max(0, count - 32), by: -1) {
            let base = 2 * index * size
            var same = true
            for i in 0..<size where steps[base + i] != f.elements[i] || steps[base + size + i] != q.elements[i] {
                same = false
                break
            }
            if same { return Int32(index) }
        }
        steps.append(contentsOf: f.elements)
        steps.append(contentsOf: q.elements)
        return Int32(count)
    }

    /// Replaces the last epoch's filtered state after an update.
    mutating func recordFiltered(mean: Matrix, covariance: Matrix) {
        let epoch = epochCount - 1
        mean.store(into: &filteredMeans, at: epoch * stateCount)
        Self.storePacked(covariance, into: &filteredCovariances, at: epoch * packedCount)
    }

    /// Forgets the last epoch (rolling back a failed `process`). A step only it used stays in the table, unused.
    mutating func removeLastEpoch() {
        times.removeLast()
        stepIndices.removeLast()
        inputs.removeLast()
        inputStates.removeLast()
        filteredMeans.removeLast(stateCount)
        filteredCovariances.removeLast(packedCount)
        if times.isEmpty { prior.removeAll() }
    }

    /// Checks that the flat storage agrees with the epoch count (after decoding).
    func validate() throws(EstimationError) {
        let n = stateCount, e = epochCount
        let stepCount = steps.count / (2 * n * n)
        let expected = [
            (stepIndices.count, e), (inputs.count, e), (inputStates.count, e), (filteredMeans.count, n * e),
            (filteredCovariances.count, packedCount * e), (prior.count, e > 0 ? n + packedCount : 0),
            (steps.count, 2 * n * n * stepCount),
        ]
        for (count, size) in expected where count != size {
            throw .dimensionMismatch(.recordedRun, expected: "\(size) values for \(e) epochs", actual: "\(count)")
        }
        for k in 0..<e
        where stepIndices[k] < -1 || Int(stepIndices[k]) >= stepCount || inputStates[k] < 0 || Int(inputStates[k]) >= n
        {
            throw .dimensionMismatch(
                .recordedRun, expected: "step indices below \(stepCount) and input states below \(n)",
                actual: "step \(stepIndices[k]), input state \(inputStates[k]) at epoch \(k)")
        }
        for k in times.indices.dropFirst() where !(times[k] > times[k - 1]) {
            throw .timeWentBackwards(from: times[k - 1], to: times[k])
        }
    }

    /// Appends the lower triangle of the symmetric `matrix`, column by column.
    static func appendPacked(_ matrix: Matrix, to storage: inout [Double]) {
        let n = matrix.rows
        for j in 0..<n { for i in j..<n { storage.append(matrix[i, j]) } }
    }

    /// Writes the lower triangle of the symmetric `matrix`, column by column, at `offset`.
    static func storePacked(_ matrix: Matrix, into storage: inout [Double], at offset: Int) {
        let n = matrix.rows
        storage.withUnsafeMutableBufferPointer { target in
            matrix.elements.withUnsafeBufferPointer { source in
                var k = offset
                for j in 0..<n {
                    for i in j..<n {
                        target[k] = source[i + j * n]
                        k += 1
                    }
                }
            }
        }
    }

    /// Reads a packed lower triangle at `offset` into the whole symmetric `matrix`.
    static func unpack(_ storage: [Double], at offset: Int, into matrix: inout Matrix) {
        let n = matrix.rows
        storage.withUnsafeBufferPointer { source in
            matrix.elements.withUnsafeMutableBufferPointer { target in
                var k = offset
                for j in 0..<n {
                    for i in j..<n {
                        target[i + j * n] = source[k]
                        target[j + i * n] = source[k]
                        k += 1
                    }
                }
            }
        }
    }
}

extension KalmanFilter {
    /// Starts recording a run at the current state, dropping any run recorded so far: the run's epoch 0 is the
    /// current time, mean and covariance (with F = I and Q = 0 before it), and every later epoch is recorded as
    /// from `init(model:time:mean:covariance:recordsRun:)` with `recordsRun`.
    ///
    /// A copy of a filter that does not record, taken between two epochs and resumed recording, records the same
    /// epochs to the bit as the original would have from there: this is how a long run is smoothed a segment at
    /// a time without keeping every epoch (`RauchTungStriebelSmoother.smooth(_:endingAt:)`).
    public mutating func startRecording() {
        recordedRun = FilterRun(stateCount: stateCount)
        recordedRun?.beginEpoch(time: time, transition: nil, processNoise: nil, mean: mean, covariance: covariance)
    }

    /// The recorded run, handed over: the filter stops recording, and the run's storage is the caller's alone, so
    /// `RauchTungStriebelSmoother.smooth(_:)` can smooth it in place.
    public mutating func takeRecordedRun() -> FilterRun? {
        defer { recordedRun = nil }
        return recordedRun
    }
}
