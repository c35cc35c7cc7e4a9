import LinearAlgebra

extension KalmanFilter {
    /// Replaces the mean and covariance at the current time: a reset decided by the filter's owner.
    ///
    /// No measurement model explains a reset; it is how an owner recovers when its own monitoring concludes that
    /// the estimate is wrong and sure of itself (PX4's EKF2 resets its height to the measurement after a sustained
    /// innovation failure), or re-anchors a state after a sensor fault. The time and the model are kept. In a
    /// recorded run the reset stands as the epoch's filtered state, as an update would, so the smoother carries
    /// the new state back only through the transition that follows it.
    ///
    /// - Parameters:
    ///   - newMean: the new x, n values, all finite.
    ///   - newCovariance: the new P, n x n symmetric positive definite.
    /// - Throws: `EstimationError.dimensionMismatch`, `.nonFinite(.updatedMean)`, `.notSymmetric` or
    ///   `.notPositiveDefinite(.updatedCovariance, leadingMinor:)`; the filter is then unchanged.
    public mutating func reset(mean newMean: [Double], covariance newCovariance: Matrix) throws(EstimationError) {
        let n = stateCount
        guard newMean.count == n else {
            throw .dimensionMismatch(.updatedMean, expected: "\(n) values", actual: "\(newMean.count) values")
        }
        guard newMean.allSatisfy(\.isFinite) else { throw .nonFinite(.updatedMean) }
        let checked = try Self.validatedCovariance(newCovariance, stateCount: n, quantity: .updatedCovariance)
        mean = Matrix(rows: n, columns: 1, columnMajor: newMean)
        covariance = checked
        recordedRun?.recordFiltered(mean: mean, covariance: covariance)
    }
}
