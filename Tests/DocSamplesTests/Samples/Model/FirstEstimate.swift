import Altimetry

func firstEstimate() throws -> AltitudeEstimate {
    var filter = try AltitudeFilter()  // the defaults below
    let estimate = try filter.process(AltitudeReading(time: 0, pressure: 979.6, gpsAltitude: 287))
    print(estimate.altitude, estimate.altitudeStandardDeviation, estimate.seaLevelPressure)
    return estimate
}
