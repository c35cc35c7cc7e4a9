import Altimetry

/// The altitude and its one sigma, both in metres, after each reading of one track: the command line's default
/// model (it learns the GPS receiver while it fuses), readings in time order.
func fuseReadings(_ readings: [AltitudeReading]) throws -> [(altitudeMeters: Double, sigmaMeters: Double)] {
    var filter = try AltitudeFilter(parameters: .adaptive)
    return try readings.map { reading in
        let estimate = try filter.process(reading)  // pressure (hPa), GPS altitude and accuracy (m), all optional
        return (estimate.altitude, estimate.altitudeStandardDeviation)
    }
}
