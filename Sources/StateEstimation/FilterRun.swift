import LinearAlgebra

/// A filter's run, epoch by epoch, as the Rauch-Tung-Striebel smoother needs it.
///
/// An epoch is a distinct time the filter predicted to (and the prior's time, epoch 0). For epoch k it keeps
/// the transition F and process noise Q from epoch k − 1, the predicted mean and covariance x⁻ₖ, P⁻ₖ, and the
/// filtered ones xₖ, Pₖ after every update applied at that time (equal to the predicted ones if none was).
/// Updates at the same time belong to one epoch. Storage is flat and grows geometrically, so recording adds no
/// allocation per step in the long run; the memory is about (4 n² + 2 n + 1) doubles per epoch.
public struct FilterRun: Sendable, Equatable, Codable {
    /// The state dimension n.
    public let stateCount: Int
    /// The epochs' times, in seconds, strictly increasing.
    public private(set) var times: [Seconds] = []
    var transitions: [Double] = []
    var processNoises: [Double] = []
    var predictedMeans: [Double] = []
    var predictedCovariances: [Double] = []
    var filteredMeans: [Double] = []
    var filteredCovariances: [Double] = []

    /// An empty run for a state of dimension n.
    public init(stateCount: Int) {
        self.stateCount = stateCount
    }

    /// The number of epochs.
    public var epochCount: Int { times.count }

    /// The filtered mean xₖ (n x 1) of epoch k.
    public func filteredMean(at epoch: Int) -> Matrix { slice(filteredMeans, epoch, rows: stateCount, columns: 1) }
    /// The filtered covariance Pₖ (n x n) of epoch k.
    public func filteredCovariance(at epoch: Int) -> Matrix { slice(filteredCovariances, epoch, rows: stateCount, columns: stateCount) }
    /// The predicted mean x⁻ₖ (n x 1) of epoch k; the prior for epoch 0.
    public func predictedMean(at epoch: Int) -> Matrix { slice(predictedMeans, epoch, rows: stateCount, columns: 1) }
    /// The predicted covariance P⁻ₖ (n x n) of epoch k; the prior for epoch 0.
    public func predictedCovariance(at epoch: Int) -> Matrix { slice(predictedCovariances, epoch, rows: stateCount, columns: stateCount) }
    /// The transition F from epoch k − 1 to epoch k (the identity for epoch 0).
    public func transition(at epoch: Int) -> Matrix { slice(transitions, epoch, rows: stateCount, columns: stateCount) }
    /// The process noise Q from epoch k − 1 to epoch k (zero for epoch 0).
    public func processNoise(at epoch: Int) -> Matrix { slice(processNoises, epoch, rows: stateCount, columns: stateCount) }

    private func slice(_ storage: [Double], _ epoch: Int, rows: Int, columns: Int) -> Matrix {
        precondition(epoch >= 0 && epoch < epochCount, "epoch \(epoch) outside 0..<\(epochCount)")
        var result = Matrix(rows: rows, columns: columns)
        result.load(from: storage, at: epoch * rows * columns)
        return result
    }

    /// Starts an epoch at `time` with its predicted state, which is also its filtered state until an update.
    mutating func beginEpoch(time: Seconds, transition: Matrix?, processNoise: Matrix?, mean: Matrix, covariance: Matrix) {
        let n = stateCount
        times.append(time)
        if let transition {
            transitions.append(contentsOf: transition.elements)
        } else {
            for j in 0..<n { for i in 0..<n { transitions.append(i == j ? 1 : 0) } }
        }
        if let processNoise {
            processNoises.append(contentsOf: processNoise.elements)
        } else {
            processNoises.append(contentsOf: repeatElement(0, count: n * n))
        }
        predictedMeans.append(contentsOf: mean.elements)
        predictedCovariances.append(contentsOf: covariance.elements)
        filteredMeans.append(contentsOf: mean.elements)
        filteredCovariances.append(contentsOf: covariance.elements)
    }

    /// Replaces the last epoch's filtered state after an update.
    mutating func recordFiltered(mean: Matrix, covariance: Matrix) {
        let epoch = epochCount - 1
        mean.store(into: &filteredMeans, at: epoch * stateCount)
        covariance.store(into: &filteredCovariances, at: epoch * stateCount * stateCount)
    }

    /// Forgets the last epoch (rolling back a failed `process`).
    mutating func removeLastEpoch() {
        let n = stateCount
        times.removeLast()
        transitions.removeLast(n * n)
        processNoises.removeLast(n * n)
        predictedMeans.removeLast(n)
        predictedCovariances.removeLast(n * n)
        filteredMeans.removeLast(n)
        filteredCovariances.removeLast(n * n)
    }

    /// Checks that the flat storage agrees with the epoch count (after decoding).
    func validate() throws(EstimationError) {
        let n = stateCount, e = epochCount
        let expected = [(transitions, n * n), (processNoises, n * n), (predictedMeans, n),
                        (predictedCovariances, n * n), (filteredMeans, n), (filteredCovariances, n * n)]
        for (storage, size) in expected where storage.count != size * e {
            throw .dimensionMismatch(.recordedRun, expected: "\(size * e) values for \(e) epochs", actual: "\(storage.count)")
        }
        for k in times.indices.dropFirst() where !(times[k] > times[k - 1]) {
            throw .timeWentBackwards(from: times[k - 1], to: times[k])
        }
    }
}
