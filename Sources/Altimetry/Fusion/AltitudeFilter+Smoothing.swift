import StateEstimation

extension AltitudeFilter {
    /// Fuses a whole track and smooths it with the engine's Rauch-Tung-Striebel smoother.
    ///
    /// The forward pass is the ordinary filter (with its gating); the backward pass gives every reading the
    /// benefit of the readings after it, so the smoothed sigma is at most the filtered one. Relative altitude and
    /// update records are carried from the forward pass. `SmoothedAltitudeTrack` also keeps the cross-covariances,
    /// for the uncertainty of altitude differences.
    ///
    /// - Returns: the filtered and the smoothed estimates, one of each per reading.
    /// - Throws: as `process(_:)`, naming the first failing reading's time.
    public static func smooth(
        _ readings: [AltitudeReading], parameters: AltitudeModelParameters = AltitudeModelParameters()
    )
        throws(AltitudeModelError) -> (filtered: [AltitudeEstimate], smoothed: [AltitudeEstimate])
    {
        var filtered: [AltitudeEstimate] = []
        var smoothed: [AltitudeEstimate] = []
        filtered.reserveCapacity(readings.count)
        smoothed.reserveCapacity(readings.count)
        try smooth(
            readings, parameters: parameters, filtered: { filtered.append($1) },
            smoothed: { index, estimate in
                var e = estimate
                e.relativeAltitude = filtered[index].relativeAltitude
                e.barometerUpdate = filtered[index].barometerUpdate
                e.gpsUpdate = filtered[index].gpsUpdate
                smoothed.append(e)
            })
        return (filtered, smoothed)
    }

    /// Fuses and smooths `readings` as `smooth(_:parameters:)` does, handing each reading's filtered estimate to
    /// `filtered` during the forward pass and its smoothed estimate to `smoothed`, in reading order, after the
    /// backward pass, instead of keeping either.
    ///
    /// What stays per reading between the passes is the recorded run's epoch (`FilterRun`: 184 bytes for the
    /// five states of the column model) and the reading's epoch index (4 bytes); the smoother works in the run's
    /// own storage, and the readings, when handed over (`consume`), are let go after the forward pass. A smoothed estimate carries the state's numbers only (relative altitude 0, no update records,
    /// no status): those belong to the forward pass.
    ///
    /// With the GPS error model bank (`adaptsGPSErrorModel`), the forward pass is the bank's mixture; the backward
    /// pass smooths the run of the model the whole track chose (the leading hypothesis at the end), a fixed model
    /// learned from the track, by a second forward pass of that model.
    ///
    /// - Throws: as `process(_:)`, naming the first failing reading's time; `.numerical` if the smoother fails.
    public static func smooth(
        _ readings: consuming [AltitudeReading], parameters: AltitudeModelParameters = AltitudeModelParameters(),
        filtered: (Int, AltitudeEstimate) -> Void,
        smoothed: (Int, AltitudeEstimate) -> Void
    ) throws(AltitudeModelError) {
        let chosen =
            parameters.adaptsGPSErrorModel
            ? try chooseGPSErrorModel(readings, parameters: parameters, filtered: filtered) : parameters
        guard
            let (epochs, run) = try recordedRun(
                readings, parameters: chosen,
                filtered: parameters.adaptsGPSErrorModel ? { _, _ in } : filtered)
        else { return }
        // The readings are not needed after the forward pass (a caller that handed them over frees them here).
        readings = []
        let result = try smoothedRun(run)
        for (index, epoch) in epochs.enumerated() {
            smoothed(
                index,
                estimate(
                    time: result.times[Int(epoch)], mean: result.mean(at: Int(epoch)),
                    covariance: result.covariance(at: Int(epoch)), parameters: chosen))
        }
    }

    /// The forward pass of the smoother: `readings` through a filter that records its run, each filtered estimate
    /// handed to `filtered`.
    ///
    /// - Returns: the run's epoch of each reading (readings at one time share one) and the run, handed over by
    ///   the filter; nil without readings.
    /// - Throws: as `process(_:)`.
    static func recordedRun(
        _ readings: [AltitudeReading], parameters: AltitudeModelParameters,
        filtered: (Int, AltitudeEstimate) -> Void
    ) throws(AltitudeModelError) -> (epochs: [Int32], run: FilterRun)? {
        var filter = try AltitudeFilter(parameters: parameters, recordsRun: true)
        var epochs: [Int32] = []
        epochs.reserveCapacity(readings.count)
        for (index, reading) in readings.enumerated() {
            filtered(index, try filter.process(reading))
            epochs.append(Int32((filter.engine?.recordedRun?.epochCount ?? 1) - 1))
        }
        guard let run = filter.engine?.takeRecordedRun() else { return nil }
        return (epochs, run)
    }

    /// `run` smoothed by the engine's Rauch-Tung-Striebel smoother (in the run's own storage when it is handed
    /// over whole).
    ///
    /// - Throws: `.numerical` if the smoother fails.
    static func smoothedRun(_ run: consuming FilterRun) throws(AltitudeModelError) -> SmoothedRun {
        do {
            var smoother = RauchTungStriebelSmoother(stateCount: run.stateCount)
            return try smoother.smooth(run)
        } catch {
            throw .numerical(String(describing: error))
        }
    }

    /// The fixed model a whole track is smoothed with: `parameters` themselves, or with the GPS error model bank
    /// on, the bank's leading hypothesis at the end of the track (with the bank's filtered estimates).
    static func chooseGPSErrorModel(_ readings: [AltitudeReading], parameters: AltitudeModelParameters)
        throws(AltitudeModelError) -> (filtered: [AltitudeEstimate], parameters: AltitudeModelParameters)
    {
        guard parameters.adaptsGPSErrorModel else { return ([], parameters) }
        var filtered: [AltitudeEstimate] = []
        filtered.reserveCapacity(readings.count)
        let chosen = try chooseGPSErrorModel(readings, parameters: parameters) { filtered.append($1) }
        return (filtered, chosen)
    }

    /// The bank's forward pass over `readings` (each mixture estimate handed to `filtered`) and the fixed model of
    /// its leading hypothesis at the end.
    static func chooseGPSErrorModel(
        _ readings: [AltitudeReading], parameters: AltitudeModelParameters,
        filtered: (Int, AltitudeEstimate) -> Void
    ) throws(AltitudeModelError)
        -> AltitudeModelParameters
    {
        var bank = try GPSErrorModelBank(parameters: parameters)
        for (index, reading) in readings.enumerated() { filtered(index, try bank.process(reading)) }
        var chosen = parameters
        chosen.adaptsGPSErrorModel = false
        let h = bank.hypotheses[bank.leadingIndex]
        chosen.gpsErrorStandardDeviation = h.correlatedStandardDeviation
        chosen.gpsCorrelationTime = h.correlationTime
        chosen.gpsWhiteNoiseStandardDeviation = h.whiteStandardDeviation
        return chosen
    }
}
