import Testing

@testable import Simulation

@Suite("GPSModel")
struct GPSModelTests {
    @Test("Defaults are the seed's and the fusion model's: 1 Hz, 10 m, 60 s, 1 m white, no outages or outliers")
    func defaults() {
        let gps = GPSModel()
        #expect(gps.clock.rate == 1)
        #expect(gps.correlatedErrorStandardDeviation == 10 && gps.correlationTime == 60)
        #expect(gps.whiteNoiseStandardDeviation == 1)
        #expect(gps.outages.isEmpty && gps.outliers == nil && gps.reportedAccuracy == .none)
    }

    @Test("Reported accuracy: none, a constant, or the model's spread times a coverage factor")
    func reportedAccuracy() throws {
        var gps = GPSModel(correlatedErrorStandardDeviation: 3, whiteNoiseStandardDeviation: 4)
        #expect(gps.errorStandardDeviation == 5)
        #expect(gps.reportedAccuracyValue == nil)
        gps.reportedAccuracy = .constant(7)
        #expect(gps.reportedAccuracyValue == 7)
        gps.reportedAccuracy = .modelStandardDeviation(coverageFactor: 1.959964)
        #expect(abs(try #require(gps.reportedAccuracyValue) - 9.79982) < 1e-9)
    }
}
