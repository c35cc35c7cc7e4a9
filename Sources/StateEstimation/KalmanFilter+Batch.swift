import LinearAlgebra

/// The filter's estimate just after one measurement: the element of the batch and streaming outputs.
public struct Estimate: Sendable, Equatable, Codable {
    /// The time of the estimate and of the measurement, in seconds.
    public var time: Seconds
    /// The mean x after the update, n x 1.
    public var mean: Matrix
    /// The covariance P after the update, n x n.
    public var covariance: Matrix
    /// What the update saw and did.
    public var record: UpdateRecord
}

extension KalmanFilter {
    /// Predicts to a measurement's time and updates with it: the one core of the batch and streaming APIs.
    ///
    /// - Returns: the estimate after the update (or after the predict alone, if the gate rejected it).
    /// - Throws: as `predict(to:)` and `update(_:kind:noise:gate:)`. The filter is unchanged after a throw: the
    ///   measurement is fully checked before predicting, and a later numerical failure rolls the predict back.
    /// - Complexity: that of a predict and an update, plus copying the estimate out (which allocates).
    public mutating func process<Kind: MeasurementKind>(_ measurement: TimedMeasurement<Kind>) throws(EstimationError)
        -> Estimate
    {
        let record = try processWithoutEstimate(measurement)
        return Estimate(time: time, mean: mean, covariance: covariance, record: record)
    }

    /// Processes measurements in order, all or nothing.
    ///
    /// - Returns: one estimate per measurement.
    /// - Throws: `EstimationError.batchFailed(index:time:underlying:)` naming the first measurement that failed;
    ///   the filter is then as it was before the call.
    public mutating func process<Kind: MeasurementKind>(_ measurements: [TimedMeasurement<Kind>])
        throws(EstimationError) -> [Estimate]
    {
        var working = self
        var estimates: [Estimate] = []
        estimates.reserveCapacity(measurements.count)
        for (index, measurement) in measurements.enumerated() {
            do {
                estimates.append(try working.process(measurement))
            } catch {
                throw .batchFailed(index: index, time: measurement.time, underlying: error)
            }
        }
        self = working
        return estimates
    }

    /// The shared core: check, predict, update, roll back on failure.
    mutating func processWithoutEstimate<Kind: MeasurementKind>(_ measurement: TimedMeasurement<Kind>)
        throws(EstimationError) -> UpdateRecord
    {
        let m = measurement.kind.dimension
        guard measurement.time.isFinite else { throw .nonFiniteTime(measurement.time) }
        guard measurement.time >= time else { throw .timeWentBackwards(from: time, to: measurement.time) }
        guard measurement.values.count == m else {
            throw .dimensionMismatch(
                .measurement, expected: "\(m) values", actual: "\(measurement.values.count) values")
        }
        for (index, value) in measurement.values.enumerated() where !value.isFinite {
            throw .nonFiniteMeasurement(component: index, value: value)
        }
        guard measurement.noise.rows == m, measurement.noise.columns == m else {
            throw .dimensionMismatch(
                .measurementNoise, expected: "\(m)x\(m)",
                actual: "\(measurement.noise.rows)x\(measurement.noise.columns)")
        }
        guard measurement.noise.isFinite else { throw .nonFinite(.measurementNoise) }
        let previousTime = time
        let previousEpochs = recordedRun?.epochCount ?? 0
        workspace.backupMean.assign(mean)
        workspace.backupCovariance.assign(covariance)
        do {
            try predict(to: measurement.time)
            return try update(
                measurement.values, kind: measurement.kind, noise: measurement.noise, gate: measurement.gate)
        } catch {
            time = previousTime
            mean.assign(workspace.backupMean)
            covariance.assign(workspace.backupCovariance)
            if let epochs = recordedRun?.epochCount, epochs > previousEpochs { recordedRun?.removeLastEpoch() }
            throw error
        }
    }

    /// The estimates after each measurement of an asynchronous stream, computed by `process(_:)` as they arrive.
    ///
    /// The sequence works on its own copy of the filter; this filter is not changed.
    public func estimates<Kind: MeasurementKind, Base: AsyncSequence>(for measurements: Base) -> EstimateSequence<
        Model, Kind, Base
    >
    where Base.Element == TimedMeasurement<Kind> {
        EstimateSequence(filter: self, base: measurements)
    }
}
