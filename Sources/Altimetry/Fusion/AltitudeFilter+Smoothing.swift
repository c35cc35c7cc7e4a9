import StateEstimation

extension AltitudeFilter {
    /// Fuses a whole track and smooths it with the engine's Rauch-Tung-Striebel smoother.
    ///
    /// The forward pass is the ordinary filter (with its gating); the backward pass gives every reading the
    /// benefit of the readings after it, so the smoothed sigma is at most the filtered one. Relative altitude
    /// and update records are carried from the forward pass.
    ///
    /// - Returns: the filtered and the smoothed estimates, one of each per reading.
    /// - Throws: as `process(_:)`, naming the first failing reading's time.
    public static func smooth(_ readings: [AltitudeReading], parameters: AltitudeModelParameters = AltitudeModelParameters())
        throws(AltitudeModelError) -> (filtered: [AltitudeEstimate], smoothed: [AltitudeEstimate])
    {
        if parameters.adaptsGPSErrorModel { return try smoothAdaptively(readings, parameters: parameters) }
        var filter = try AltitudeFilter(parameters: parameters, recordsRun: true)
        var filtered: [AltitudeEstimate] = []
        var epochs: [Int] = []
        filtered.reserveCapacity(readings.count)
        epochs.reserveCapacity(readings.count)
        for reading in readings {
            filtered.append(try filter.process(reading))
            epochs.append((filter.engine?.recordedRun?.epochCount ?? 1) - 1)
        }
        guard let engine = filter.engine, let run = engine.recordedRun else { return (filtered, []) }
        let smoothedRun: SmoothedRun
        do {
            var smoother = RauchTungStriebelSmoother(stateCount: engine.stateCount)
            smoothedRun = try smoother.smooth(run)
        } catch {
            throw .numerical(String(describing: error))
        }
        var smoothed: [AltitudeEstimate] = []
        smoothed.reserveCapacity(readings.count)
        for (index, epoch) in epochs.enumerated() {
            var e = estimate(time: filtered[index].time, mean: smoothedRun.mean(at: epoch),
                             covariance: smoothedRun.covariance(at: epoch), parameters: parameters)
            e.relativeAltitude = filtered[index].relativeAltitude
            e.barometerUpdate = filtered[index].barometerUpdate
            e.gpsUpdate = filtered[index].gpsUpdate
            smoothed.append(e)
        }
        return (filtered, smoothed)
    }
}

extension AltitudeFilter {
    /// With the GPS error model bank: the forward pass is the bank's mixture; the backward pass smooths the run of
    /// the model the whole track chose (the leading hypothesis at the end), a fixed model learned from the track.
    static func smoothAdaptively(_ readings: [AltitudeReading], parameters: AltitudeModelParameters)
        throws(AltitudeModelError) -> (filtered: [AltitudeEstimate], smoothed: [AltitudeEstimate])
    {
        var bank = try GPSErrorModelBank(parameters: parameters)
        var filtered: [AltitudeEstimate] = []
        filtered.reserveCapacity(readings.count)
        for reading in readings { filtered.append(try bank.process(reading)) }
        var chosen = parameters
        chosen.adaptsGPSErrorModel = false
        let h = bank.hypotheses[bank.leadingIndex]
        chosen.gpsErrorStandardDeviation = h.correlatedStandardDeviation
        chosen.gpsCorrelationTime = h.correlationTime
        chosen.gpsWhiteNoiseStandardDeviation = h.whiteStandardDeviation
        return (filtered, try smooth(readings, parameters: chosen).smoothed)
    }
}
