import LinearAlgebra
import StateEstimation

extension AltitudeFilter {
    /// The GPS stage when the receiver is learned: the fix goes to the receiver bank (`ReceiverLearner`), which
    /// integrates over every receiver of its grid, and each bin's posterior becomes the filter's level.
    ///
    /// The fix is first predicted by the filter as it stands, z − h(x) against S = H P Hᵀ + R with the most probable
    /// receiver's white noise, and gated as the classical filter gates it: a fix beyond the gate of the
    /// model-averaged filter is an outlier of every receiver the bank believes in, and is not offered (as a glitch
    /// of hundreds of metres would otherwise make the widest receivers look likely). The fault monitor judges the run
    /// of refused fixes as it does for a fixed receiver, and its reset moves the bank's level with the filter's.
    /// The filter does not update with the fix itself, since the bank has: fusing it here too would count it twice.
    mutating func offerFixToLearner(_ fix: Meters, accuracy: Meters?, at time: Double) throws(AltitudeModelError) {
        let record = predictedFixRecord(fix, accuracy: accuracy)
        lastGPSRecord = record
        let accepted = record.decision.wasApplied
        if !accepted { gatedFixCount += 1 }
        let residual = record.innovation + core.mean[parameters.gpsErrorIndex, 0]
        if case .reset(let shift, let variance)? = judgeFix(
            fix, residual: residual, accepted: accepted, accuracy: accuracy, at: time)
        {
            try resetLevel(shift: shift, spreadVariance: variance)
            learner?.resetLevel(shift: shift, variance: variance)
            return
        }
        guard accepted, learner?.observeFix(altitude: fix, accuracy: accuracy, at: time) == true,
            let mixture = learner?.mixture
        else { return }
        if let learned = learner?.receiver { receiver = learned }
        try takeLevel(mixture)
    }

    /// The fix's record against the filter as it stands (see `offerFixToLearner`).
    func predictedFixRecord(_ fix: Meters, accuracy: Meters?) -> ScalarUpdateRecord {
        let x = core.mean, P = core.covariance
        let u = AltitudeModel.altitudeIndex, e = parameters.gpsErrorIndex
        let slope = LogPressureCoordinates.altitudeDerivative(x[u, 0])
        let h0 = LogPressureCoordinates.temperatureHeight * (1 - slope)
        // H = (slope, 0, (0,) m/T₀, 1) on (U, B, (Ḃ,) C, e): S = H P Hᵀ + R term by term.
        var predicted = h0 + x[e, 0]
        var S =
            receiver.whiteVariance(reportedAccuracy: accuracy) + slope * slope * P[u, u] + 2 * slope * P[u, e]
            + P[e, e]
        if let c = parameters.columnIndex {
            let lever = heightMoved / StandardAtmosphere.seaLevelTemperature
            predicted += lever * x[c, 0]
            S += lever * lever * P[c, c] + 2 * lever * (slope * P[u, c] + P[c, e])
        }
        let nu = fix - predicted
        let nis = nu * nu / S
        let accepted = nis <= gate.threshold
        return ScalarUpdateRecord(
            time: core.time, innovation: nu, innovationVariance: S, normalizedInnovationSquared: nis,
            decision: accepted ? .accepted : .rejected(.innovationGate(threshold: gate.threshold)))
    }

    /// Sets the filter's GPS-informed states to the bank's posterior (`ReceiverLearner.mixture`), keeping what the
    /// barometer measures.
    ///
    /// The bank's state (L, L̇, c, e) maps onto the filter's: the level L = h₀(U) − h_b is the weather at the
    /// station, B = L/(dh₀/dU) in metres of log-pressure; c = C/T₀; e is e. The marginal of (B, C, e) is replaced by
    /// the bank's, and the other states keep their conditional on it (`KalmanFilter.replaceMarginal(of:mean:covariance:)`):
    /// U follows B through what the barometer measures, B − U, and the tendency Ḃ through what the barometer's
    /// history taught it. This replaces the GPS-informed states rather than updating them: the bank's posterior
    /// already holds every fix the filter would have fused, under each receiver, weighed by how well that receiver
    /// predicted them.
    mutating func takeLevel(_ mixture: (mean: [Double], covariance: [Double])) throws(AltitudeModelError) {
        let u = AltitudeModel.altitudeIndex, b = AltitudeModel.weatherIndex, e = parameters.gpsErrorIndex
        let slope = exponentials.altitudeDerivative(core.mean[u, 0])
        // The bank's states by index (0 L, 2 c, 3 e) and the filter's they become, with the scale between.
        var pairs: [(bank: Int, filter: Int, scale: Double)] = [(0, b, 1 / slope), (3, e, 1)]
        if let c = parameters.columnIndex { pairs.insert((2, c, StandardAtmosphere.seaLevelTemperature), at: 1) }
        let mean = pairs.map { $0.scale * mixture.mean[$0.bank] }
        var covariance = Matrix(rows: pairs.count, columns: pairs.count)
        for (i, p) in pairs.enumerated() {
            for (j, q) in pairs.enumerated() {
                covariance[i, j] = p.scale * q.scale * mixture.covariance[4 * p.bank + q.bank]
            }
        }
        covariance.symmetrize()
        do { try core.replaceMarginal(of: pairs.map(\.filter), mean: mean, covariance: covariance) } catch {
            throw .numerical(String(describing: error))
        }
    }
}
