extension AltitudeFilter {
    /// Fuses a whole track and smooths it with the engine's Rauch-Tung-Striebel smoother.
    ///
    /// The forward pass is the ordinary filter (with its gating); the backward pass gives every reading the
    /// benefit of the readings after it, so the smoothed sigma is at most the filtered one. Relative altitude
    /// and update records are carried from the forward pass. `SmoothedAltitudeTrack` does the work and also
    /// keeps the cross-covariances, for the uncertainty of altitude differences.
    ///
    /// - Returns: the filtered and the smoothed estimates, one of each per reading.
    /// - Throws: as `process(_:)`, naming the first failing reading's time.
    public static func smooth(_ readings: [AltitudeReading], parameters: AltitudeModelParameters = AltitudeModelParameters())
        throws(AltitudeModelError) -> (filtered: [AltitudeEstimate], smoothed: [AltitudeEstimate])
    {
        if parameters.adaptsGPSErrorModel { return try smoothAdaptively(readings, parameters: parameters) }
        let track = try SmoothedAltitudeTrack(readings, parameters: parameters)
        return (track.filtered, track.smoothed)
    }
}

extension AltitudeFilter {
    /// With the GPS error model bank: the forward pass is the bank's mixture; the backward pass smooths the run of
    /// the model the whole track chose (the leading hypothesis at the end), a fixed model learned from the track.
    static func smoothAdaptively(_ readings: [AltitudeReading], parameters: AltitudeModelParameters)
        throws(AltitudeModelError) -> (filtered: [AltitudeEstimate], smoothed: [AltitudeEstimate])
    {
        let (filtered, chosen) = try chooseGPSErrorModel(readings, parameters: parameters)
        return (filtered, try smooth(readings, parameters: chosen).smoothed)
    }

    /// The fixed model a whole track is smoothed with: `parameters` themselves, or with the GPS error model bank
    /// on, the bank's leading hypothesis at the end of the track (with the bank's filtered estimates).
    static func chooseGPSErrorModel(_ readings: [AltitudeReading], parameters: AltitudeModelParameters)
        throws(AltitudeModelError) -> (filtered: [AltitudeEstimate], parameters: AltitudeModelParameters)
    {
        guard parameters.adaptsGPSErrorModel else { return ([], parameters) }
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
        return (filtered, chosen)
    }
}
