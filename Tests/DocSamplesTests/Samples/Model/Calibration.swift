import Altimetry
import Foundation

func calibrateBarometer() throws -> BarometerCalibration {
    var calibration = try BarometerCalibration(targetStandardDeviation: 5)
    try calibration.addPressure(Measurement(value: 97.96, unit: .kilopascals), at: 0)  // converted to hPa here
    try calibration.addFix(altitude: 287, verticalAccuracy: 12, convention: .ninetyFivePercent, at: 0.4)
    if let status = calibration.status {
        print(status.seaLevelPressure, status.seaLevelPressureStandardDeviation)  // QNH ± sigma, hPa
        print(status.altitudeOffset, status.altitudeOffsetStandardDeviation)  // metres
        print(status.isTargetReached, status.minutesNeeded ?? .infinity)  // minutes of GPS still needed
    }
    return calibration
}
