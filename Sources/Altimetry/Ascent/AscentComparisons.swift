/// The comparison figures beside the fused ascent: GPS altitude alone and the raw barometer.
struct AscentComparisons {
    /// gpxpy's rule, then each GPS hysteresis; empty without fixes.
    let gpsOnly: [AscentTotals]
    /// The raw barometer, averaged and counted as the fused altitude is; nil without pressures.
    let barometerOnly: AscentTotals?

    /// - Parameters:
    ///   - readings: the track.
    ///   - averagingTime: the fused altitude's averaging window, in seconds, used for the barometer too.
    ///   - hysteresis: the fused altitude's hysteresis, used for the barometer too.
    ///   - gpsHysteresisValues: the GPS comparison's thresholds, in metres.
    init(
        readings: [AltitudeReading], averagingTime: Double, hysteresis: AscentHysteresis, gpsHysteresisValues: [Meters]
    ) {
        let fixes = readings.compactMap { r in r.gpsAltitude.map { (time: r.time, altitude: $0) } }
        if fixes.isEmpty {
            gpsOnly = []
        } else {
            let elevations = fixes.map(\.altitude)
            let gpxpy = GPXElevationRule.uphillDownhill(elevations)
            gpsOnly =
                [AscentTotals(rule: "gpxpy", hysteresis: 0, ascent: gpxpy.uphill, descent: gpxpy.downhill)]
                + gpsHysteresisValues.map { h in
                    let totals = GPXElevationRule.ascentDescent(
                        times: fixes.map(\.time), elevations: elevations, hysteresis: h)
                    return AscentTotals(
                        rule: "gpxpy smoothing, hysteresis", hysteresis: h, ascent: totals.ascent,
                        descent: totals.descent)
                }
        }
        let pressures = readings.compactMap { r in
            r.pressure.map { (time: r.time, pressure: $0, temperature: r.temperature) }
        }
        guard let first = pressures.first else {
            barometerOnly = nil
            return
        }
        // Pressure altitude at standard QNH; where a temperature is measured, the change since the first pressure is
        // scaled by T / T_ISA(h), as the filter does.
        let origin = NaiveAveragingBaseline.pressureAltitude(first.pressure)
        let altitudes = pressures.map { row -> Meters in
            let h = NaiveAveragingBaseline.pressureAltitude(row.pressure)
            guard let t = row.temperature else { return h }
            let standard = StandardAtmosphere.seaLevelTemperature - StandardAtmosphere.lapseRate * h
            return origin + t / standard * (h - origin)
        }
        let times = pressures.map(\.time)
        let averaged = AveragingWindows(times: times, width: averagingTime).average(altitudes)
        let counter = AscentCounter.count(times: times, altitudes: averaged, hysteresis: hysteresis)
        barometerOnly = AscentTotals(
            rule: "barometer, same averaging and hysteresis", hysteresis: hysteresis.smallest,
            ascent: counter.ascent, descent: counter.descent)
    }
}
