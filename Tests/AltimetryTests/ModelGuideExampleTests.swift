import Foundation
import Testing
import Altimetry

/// The code samples of Docs/model.md, compiled and run.
@Suite("Docs/model.md examples")
struct ModelGuideExampleTests {
    @Test("The filter example runs")
    func filterExample() throws {
        var filter = try AltitudeFilter()                       // the defaults below
        let estimate = try filter.process(AltitudeReading(time: 0, pressure: 979.6, gpsAltitude: 287))
        print(estimate.altitude, estimate.altitudeStandardDeviation, estimate.seaLevelPressure)
        #expect(abs(estimate.altitude - 286) < 10)
    }

    @Test("The calibration example runs")
    func calibrationExample() throws {
        var calibration = try BarometerCalibration(targetStandardDeviation: 5)
        try calibration.addPressure(Measurement(value: 97.96, unit: .kilopascals), at: 0)   // converted to hPa here
        try calibration.addFix(altitude: 287, verticalAccuracy: 12, convention: .ninetyFivePercent, at: 0.4)
        if let status = calibration.status {
            print(status.seaLevelPressure, status.seaLevelPressureStandardDeviation)     // QNH ± sigma, hPa
            print(status.altitudeOffset, status.altitudeOffsetStandardDeviation)         // metres
            print(status.isTargetReached, status.minutesNeeded ?? .infinity)             // minutes of GPS still needed
        }
        #expect(calibration.status != nil)
    }
}
