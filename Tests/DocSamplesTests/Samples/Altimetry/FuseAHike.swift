import Altimetry
import Simulation

/// Fuses a simulated one-hour hike: the root mean square error against the truth, in metres, and the share of
/// rows whose error falls inside their one sigma.
func fuseAHike() throws -> (rootMeanSquareErrorMeters: Double, coverage: Double) {
    let recording = try Scenario.named(.hike, seed: 7, duration: 3_600).simulate()
    var filter = try AltitudeFilter()
    var squaredErrors = 0.0, inside = 0.0
    for row in recording.readings {
        let reading = AltitudeReading(
            time: row.time, pressure: row.pressure, gpsAltitude: row.gpsAltitude,
            gpsVerticalAccuracy: row.gpsVerticalAccuracy)
        let estimate = try filter.process(reading)  // altitude (m) and its one sigma (m)
        let error = estimate.altitude - row.trueAltitude
        squaredErrors += error * error
        if abs(error) <= estimate.altitudeStandardDeviation { inside += 1 }
    }
    let count = Double(recording.readings.count)
    return ((squaredErrors / count).squareRoot(), inside / count)
}
