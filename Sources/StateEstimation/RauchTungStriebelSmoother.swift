import LinearAlgebra

/// The fixed-interval Rauch-Tung-Striebel smoother: the best estimate at every epoch of a recorded run given
/// all of its measurements, past and future.
///
/// Backwards from the last epoch N (where the smoothed state is the filtered one), for k = N − 1, …, 0:
///
///     C = Pₖ Fᵀ (P⁻ₖ₊₁)⁻¹                        smoother gain, by Cholesky of P⁻ₖ₊₁ (dpotrf, dpotrs)
///     xₖˢ = xₖ + C (xₖ₊₁ˢ − x⁻ₖ₊₁)
///     Pₖˢ = (I − C F) Pₖ (I − C F)ᵀ + C Q Cᵀ + C Pₖ₊₁ˢ Cᵀ
///
/// where F and Q are those from k to k + 1. The covariance is written in this Joseph-like form, a sum of three
/// symmetric positive semi-definite congruences, rather than the textbook Pₖ + C (Pₖ₊₁ˢ − P⁻ₖ₊₁) Cᵀ: the two are
/// equal for the optimal C (expand, and use C P⁻ₖ₊₁ Cᵀ = C F Pₖ), but the difference form subtracts nearly equal
/// matrices and can lose positive definiteness. (Rauch, Tung and Striebel, AIAA Journal 3(8), 1965; Särkkä,
/// *Bayesian Filtering and Smoothing*, §8.2.)
///
/// The smoother keeps preallocated workspaces: reuse one value to smooth many runs of the same dimension. The
/// predicted state of each step is recomputed from the run (see `FilterRun`), and the smoothed estimates are
/// written over the run's filtered ones, epoch k once step k has read it: a run handed over whole (`consuming`,
/// not kept by the caller) is smoothed in its own storage.
public struct RauchTungStriebelSmoother: Sendable {
    /// The state dimension n.
    public let stateCount: Int
    var transition: Matrix
    var processNoise: Matrix
    var filteredMean: Matrix
    var filteredCovariance: Matrix
    var predicted: StepWorkspace
    var gainTransposed: Matrix
    var factor: Matrix
    var difference: Matrix
    var nextMean: Matrix
    var nextCovariance: Matrix
    var newMean: Matrix
    var newCovariance: Matrix
    var product: Matrix

    /// A smoother for states of dimension n.
    public init(stateCount n: Int) {
        stateCount = n
        transition = Matrix(rows: n, columns: n)
        processNoise = Matrix(rows: n, columns: n)
        filteredMean = Matrix(rows: n, columns: 1)
        filteredCovariance = Matrix(rows: n, columns: n)
        predicted = StepWorkspace(stateCount: n)
        gainTransposed = Matrix(rows: n, columns: n)
        factor = Matrix(rows: n, columns: n)
        difference = Matrix(rows: n, columns: 1)
        nextMean = Matrix(rows: n, columns: 1)
        nextCovariance = Matrix(rows: n, columns: n)
        newMean = Matrix(rows: n, columns: 1)
        newCovariance = Matrix(rows: n, columns: n)
        product = Matrix(rows: n, columns: n)
    }

    /// Smooths a recorded run.
    ///
    /// - Returns: the smoothed means and covariances at every epoch of the run.
    /// - Throws: `EstimationError.dimensionMismatch` if the run is of another dimension or inconsistent;
    ///   `.notPositiveDefinite(.predictedCovariance, leadingMinor:)` if a predicted covariance cannot be factorised.
    /// - Complexity: O(N n³) for N epochs; allocates only the result, and nothing when the run is handed over
    ///   whole.
    public mutating func smooth(_ run: consuming FilterRun) throws(EstimationError) -> SmoothedRun {
        try smooth(run, endingAt: nil)
    }

    /// Smooths one segment of a longer run, whose later part is smoothed already.
    ///
    /// The backward recursion at epoch k reads only the filtered state of epoch k, the step to k + 1 and the
    /// smoothed state of k + 1. So a run of N epochs can be smoothed from its last segment back to its first,
    /// each segment recorded again when its turn comes (`KalmanFilter.startRecording()` on a copy of the filter
    /// kept at the segment's start): a segment's run ends at the epoch where the next segment's run begins, and
    /// `last` is that epoch's smoothed state, as the next segment's smoothing gave it (its epoch 0). The result
    /// is the same to the bit as smoothing the whole run at once: the covariances the recursion produces are
    /// exactly symmetric, so a packed one unpacks to the matrix itself. Memory is that of one segment, instead of
    /// the whole run.
    ///
    /// - Parameters:
    ///   - run: the segment's recorded run.
    ///   - last: the smoothed mean xˢ (n x 1) and covariance Pˢ (n x n) of the run's last epoch; nil when the run
    ///     ends where the whole run does (its filtered state is then its smoothed one).
    /// - Returns: the smoothed means and covariances at every epoch of the segment; its last epoch's are `last`.
    /// - Throws: as `smooth(_:)`.
    public mutating func smooth(_ run: consuming FilterRun, endingAt last: (mean: Matrix, covariance: Matrix)?)
        throws(EstimationError) -> SmoothedRun
    {
        let n = stateCount
        guard run.stateCount == n else {
            throw .dimensionMismatch(.recordedRun, expected: "state dimension \(n)", actual: "\(run.stateCount)")
        }
        try run.validate()
        if let last {
            guard run.epochCount > 0, last.mean.rows == n, last.mean.columns == 1, last.covariance.rows == n,
                last.covariance.columns == n
            else {
                throw .dimensionMismatch(
                    .recordedRun, expected: "a last smoothed state of dimension \(n) for a run with epochs",
                    actual: "\(last.mean.rows)x\(last.mean.columns), \(run.epochCount) epochs")
            }
            run.recordFiltered(mean: last.mean, covariance: last.covariance)
        }
        let packed = run.packedCount
        // The filtered estimates, overwritten by the smoothed ones from the last epoch back.
        var means: [Double] = []
        var covariances: [Double] = []
        swap(&means, &run.filteredMeans)
        swap(&covariances, &run.filteredCovariances)
        let epochs = run.epochCount
        if epochs >= 2 {
            nextMean.load(from: means, at: (epochs - 1) * n)
            FilterRun.unpack(covariances, at: (epochs - 1) * packed, into: &nextCovariance)
            for k in stride(from: epochs - 2, through: 0, by: -1) {
                filteredMean.load(from: means, at: k * n)
                FilterRun.unpack(covariances, at: k * packed, into: &filteredCovariance)
                run.loadStep(of: k + 1, transition: &transition, processNoise: &processNoise)
                run.predict(
                    epoch: k + 1, previousMean: filteredMean, previousCovariance: filteredCovariance,
                    transition: transition, processNoise: processNoise, into: &predicted)
                try step()
                newMean.store(into: &means, at: k * n)
                FilterRun.storePacked(newCovariance, into: &covariances, at: k * packed)
                swap(&nextMean, &newMean)
                swap(&nextCovariance, &newCovariance)
            }
        }
        return SmoothedRun(stateCount: n, times: run.times, means: means, covariances: covariances)
    }

    /// One backward step from the loaded epoch k + 1 (`nextMean`, `nextCovariance`, and its predicted state in
    /// `predicted`) to epoch k (`newMean`, `newCovariance`). No allocation.
    mutating func step() throws(EstimationError) {
        // P⁻ₖ₊₁ = L Lᵀ
        do {
            try predicted.covariance.overwriteWithCholeskyFactor()
        } catch {
            if case .notPositiveDefinite(_, let minor) = error {
                throw .notPositiveDefinite(.predictedCovariance, leadingMinor: minor)
            }
            throw .nonFinite(.predictedCovariance)
        }
        // Cᵀ = (P⁻ₖ₊₁)⁻¹ F Pₖ, solving with the factor.
        Matrix.multiplyByLoops(transition, .none, filteredCovariance, .none, into: &gainTransposed)
        do {
            try predicted.covariance.solveWithCholeskyFactor(&gainTransposed)
        } catch {
            throw .notPositiveDefinite(.predictedCovariance, leadingMinor: stateCount)
        }
        // xₖˢ = xₖ + C (xₖ₊₁ˢ − x⁻ₖ₊₁)
        difference.assign(nextMean)
        difference.add(predicted.mean, scaledBy: -1)
        newMean.assign(filteredMean)
        Matrix.multiplyByLoops(gainTransposed, .transposed, difference, .none, into: &newMean, beta: 1)
        // Pₖˢ = (I − C F) Pₖ (I − C F)ᵀ + C Q Cᵀ + C Pₖ₊₁ˢ Cᵀ
        factor.setIdentity()
        Matrix.multiplyByLoops(gainTransposed, .transposed, transition, .none, into: &factor, alpha: -1, beta: 1)
        Matrix.formCongruence(factor, .none, filteredCovariance, into: &newCovariance, workspace: &product)
        Matrix.formCongruence(
            gainTransposed, .transposed, processNoise, into: &newCovariance, workspace: &product, beta: 1)
        Matrix.formCongruence(
            gainTransposed, .transposed, nextCovariance, into: &newCovariance, workspace: &product, beta: 1)
        guard newMean.isFinite, newCovariance.isFinite else { throw .nonFinite(.predictedCovariance) }
    }
}

/// The smoothed estimates of a run: a mean and covariance at each epoch.
public struct SmoothedRun: Sendable, Equatable, Codable {
    /// The state dimension n.
    public let stateCount: Int
    /// The epochs' times, in seconds.
    public let times: [Seconds]
    /// The smoothed means, flat: epoch k's n values start at k n.
    public internal(set) var means: [Double]
    /// The smoothed covariances' lower triangles, column by column: epoch k's n (n + 1) / 2 values start at
    /// k n (n + 1) / 2 (`covariance(at:)` gives the whole matrix).
    public internal(set) var covariances: [Double]

    /// The number of epochs.
    public var epochCount: Int { times.count }

    /// The smoothed mean xₖˢ (n x 1) of epoch k.
    public func mean(at epoch: Int) -> Matrix {
        var result = Matrix(rows: stateCount, columns: 1)
        result.load(from: means, at: epoch * stateCount)
        return result
    }

    /// The smoothed covariance Pₖˢ (n x n) of epoch k.
    public func covariance(at epoch: Int) -> Matrix {
        var result = Matrix(rows: stateCount, columns: stateCount)
        FilterRun.unpack(covariances, at: epoch * stateCount * (stateCount + 1) / 2, into: &result)
        return result
    }
}

extension FilterRun {
    /// The run smoothed by a fresh `RauchTungStriebelSmoother`.
    ///
    /// - Throws: as `RauchTungStriebelSmoother.smooth(_:)`.
    public func smoothed() throws(EstimationError) -> SmoothedRun {
        var smoother = RauchTungStriebelSmoother(stateCount: stateCount)
        return try smoother.smooth(self)
    }
}
