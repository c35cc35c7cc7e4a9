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
        let track = try SmoothedAltitudeTrack(readings, parameters: parameters)
        return (track.filtered, track.smoothed)
    }
}
