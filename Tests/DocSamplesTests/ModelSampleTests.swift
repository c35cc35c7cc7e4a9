import Altimetry
import Testing

@Suite("Docs/model.md samples")
struct ModelSampleTests {
    @Test("The first estimate sits near the GPS fix, with a sigma near the GPS's 10 m")
    func firstEstimateRuns() throws {
        let estimate = try firstEstimate()
        // One fix of 287 m and one pressure: the altitude is the fix, give or take the prior's pull.
        #expect(abs(estimate.altitude - 287) < 10)
        #expect(estimate.altitudeStandardDeviation > 5 && estimate.altitudeStandardDeviation < 15)
    }

    @Test("The calibration converts kilopascals and a 95 % accuracy, and says the 5 m target is not yet reached")
    func calibrationRuns() throws {
        let calibration = try calibrateBarometer()
        let status = try #require(calibration.status)
        // 979.6 hPa at 287 m: QNH is about 979.6 hPa raised by 287 m of air, 1013 hPa give or take the GPS error.
        #expect(abs(status.seaLevelPressure - 1013.5) < 3)
        #expect(!status.isTargetReached)
    }
}
