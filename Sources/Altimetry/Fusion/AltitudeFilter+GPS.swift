import LinearAlgebra
import StateEstimation

extension AltitudeFilter {
    /// The GPS stage: gates and fuses the fix `fix` (m) at `time` with its reported accuracy (m, one sigma), lets the
    /// fault monitor judge it, and hands it to the receiver learner.
    ///
    /// The fix's white variance is the receiver's (`GPSReceiverModel.whiteVariance(reportedAccuracy:)`); the gate is
    /// on from the first fix, when the prior's 84 m make it 420 m wide.
    mutating func fuseFix(_ fix: Meters, accuracy: Meters?, at time: Double) throws(AltitudeModelError) {
        // h = k h₀(U) linearised at a mean inside the model's range, which the updates before may have left.
        try holdStateInModelRange()
        fixCount += 1
        // The learner measures the fixes against the barometer (L = h − h_b): before any pressure, on a track
        // without a barometer, and while the barometer is set aside (stuck), the fix is fused with the receiver in use.
        if learner?.measuresFixes == true {
            return try offerFixToLearner(fix, accuracy: accuracy, at: time)
        }
        let e = parameters.gpsErrorIndex
        let priorGPSError = core.mean[e, 0]
        let kind = AltitudeSensor(.gps, gpsErrorIndex: e, columnIndex: parameters.columnIndex, heightMoved: heightMoved)
        let record: ScalarUpdateRecord
        do {
            record = try core.update(
                fix, kind: kind, variance: receiver.whiteVariance(reportedAccuracy: accuracy), gate: gate)
        } catch {
            throw .numerical(String(describing: error))
        }
        if !record.decision.wasApplied { gatedFixCount += 1 }
        lastGPSRecord = record
        // The residual r = z − h: the fix against the filter's altitude without its estimate of e.
        let residual = record.innovation + priorGPSError
        if case .reset(let shift, let variance)? = judgeFix(
            fix, residual: residual, accepted: record.decision.wasApplied, accuracy: accuracy, at: time)
        {
            try resetLevel(shift: shift, spreadVariance: variance)
        }
    }

    /// The fault monitor's verdict on a fix (`FaultMonitor.judgeFix`), its run scored against the receiver in use
    /// (`GPSReceiverModel.runStandardDeviation(over:whiteVariance:)` at the fix's white variance); nil without the
    /// monitor.
    mutating func judgeFix(
        _ fix: Meters, residual: Meters, accepted: Bool, accuracy: Meters?, at time: Double
    ) -> FaultMonitor.FixVerdict? {
        let receiver = receiver, white = receiver.whiteVariance(reportedAccuracy: accuracy)
        return faults?.judgeFix(
            fix: fix, residual: residual, accepted: accepted, at: time,
            runSpread: { receiver.runStandardDeviation(over: $0, whiteVariance: white) })
    }

    /// The reset: moves the filter's altitude by `shift` metres and re-inflates its covariance, as PX4 resets its
    /// height to a source.
    ///
    /// U and B move together by δU = shift/(dh/dU), which moves the altitude by `shift` and leaves the barometer's
    /// prediction B − U alone; e is forgotten (zero, uncorrelated, at σ_e²); and the (U, B) block gains
    /// (σ_e² + `spreadVariance`)/(dh/dU)², fully correlated: the fixes' level is known to their scatter and to the
    /// GPS's correlated error. The front detector forgets its history, since the QNH moved by the reset, not by the
    /// weather.
    mutating func resetLevel(shift: Double, spreadVariance: Double) throws(AltitudeModelError) {
        let u = AltitudeModel.altitudeIndex, b = AltitudeModel.weatherIndex, e = parameters.gpsErrorIndex
        let sigmaE = receiver.errorStandardDeviation
        var covariance = core.covariance
        let x = core.mean
        let slope = exponentials.altitudeDerivative(x[u, 0])
        let added = (sigmaE * sigmaE + spreadVariance) / (slope * slope)
        for i in [u, b] { for j in [u, b] { covariance[i, j] += added } }
        for i in 0..<covariance.rows where i != e {
            covariance[i, e] = 0
            covariance[e, i] = 0
        }
        covariance[e, e] = sigmaE * sigmaE
        var mean = x.elements
        mean[u] += shift / slope
        mean[b] += shift / slope
        mean[e] = 0
        do { try core.reset(mean: mean, covariance: covariance) } catch { throw .numerical(String(describing: error)) }
        frontDetector?.forgetHistory()
    }

    /// The front detector's look at the estimated QNH and tendency: a report only.
    mutating func observeFronts(at time: Double) {
        guard case .some = frontDetector, isStarted, parameters.hasTendency else { return }
        let b = AltitudeModel.weatherIndex, d = AltitudeModel.tendencyIndex
        let qnh = exponentials.seaLevelPressure(core.mean[b, 0])
        // Ḃ in metres of log-pressure a second, to hPa/h: dQNH/dB × 3,600.
        let scale = qnh / LogPressureCoordinates.scaleHeight * 3_600
        frontDetector?.observe(
            time: time, seaLevelPressure: qnh, tendency: scale * core.mean[d, 0],
            tendencySigma: scale * max(0, core.covariance[d, d]).squareRoot())
    }

    /// Fault episodes so far (`FaultMonitor`), in order of start; empty when fault detection is off. At most the
    /// last 64 are kept; `episodeCount(_:)` counts them all.
    public var episodes: [FilterEpisode] { faults?.episodes ?? [] }

    /// Number of episodes of a kind so far: the per-track counters of `altimetry fuse`'s summary.
    public func episodeCount(_ kind: FilterEpisode.Kind) -> Int { faults?.episodeCounts[kind] ?? 0 }
}
