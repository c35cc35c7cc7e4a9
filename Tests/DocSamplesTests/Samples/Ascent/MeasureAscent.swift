import Altimetry

func measureAscent() throws -> AscentReport {
    let readings = [
        AltitudeReading(time: 0, pressure: 950, gpsAltitude: 540),
        AltitudeReading(time: 1, pressure: 949.9, gpsAltitude: 541),
    ]
    let report = try AscentAnalysis.measure(readings)
    print(report.ascent.value, report.ascent.standardDeviation, report.segments.count)
    return report
}
