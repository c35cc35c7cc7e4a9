import Testing

@testable import Altimetry

/// A track without a barometer: the learner measures fixes against the barometer, so the fixes are fused with the
/// parameters' receiver.
@Suite("AltitudeFilter without a barometer")
struct AltitudeFilterGPSOnlyTests {
    /// GIVEN ten minutes of fixes at 1 Hz scattered ±3 m about 250 m and no pressure, WHEN the default command-line
    /// model (the receiver learned) fuses them THEN the altitude follows the fixes (within 5 m) and its sigma
    /// shrinks from the 84 m prior to the receiver's level (under 12 m for the default 10 m / 60 s receiver).
    @Test("GPS alone is fused under the learned-receiver default")
    func gpsOnlyFused() throws {
        for parameters in [AltitudeModelParameters.adaptive, AltitudeModelParameters()] {
            var filter = try AltitudeFilter(parameters: parameters)
            var last: AltitudeEstimate?
            for k in 0..<600 {
                let fix = 250 + 3 * Double([1, -1, 0, 2, -2][k % 5])
                last = try filter.process(AltitudeReading(time: Double(k), gpsAltitude: fix))
            }
            let e = try #require(last)
            #expect(abs(e.altitude - 250) < 5, "\(e.altitude)")
            #expect(e.altitudeStandardDeviation < 12, "\(e.altitudeStandardDeviation)")
            #expect(e.gpsUpdate?.decision.wasApplied == true)
        }
    }
}
