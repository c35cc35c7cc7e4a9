import Foundation
import Testing

@testable import Altimetry

@Suite("GPSReceiverModel")
struct GPSReceiverModelTests {
    /// R = max(σ_w², (k a)² − σ_e²): a fix's reported accuracy a is its whole spread, scaled by k.
    @Test("The white variance follows the reported accuracy above the correlated spread")
    func whiteVariance() {
        let r = GPSReceiverModel(errorStandardDeviation: 10, correlationTime: 60, whiteNoiseStandardDeviation: 1)
        #expect(r.whiteVariance(reportedAccuracy: nil) == 1)
        #expect(r.whiteVariance(reportedAccuracy: 5) == 1)
        #expect(abs(r.whiteVariance(reportedAccuracy: 40) - (1_600 - 100)) < 1e-9)
        var scaled = r
        scaled.accuracyScale = 2
        #expect(abs(scaled.whiteVariance(reportedAccuracy: 20) - (1_600 - 100)) < 1e-9)
        #expect(abs(r.decay(over: 60) - exp(-1)) < 1e-15)
        #expect(abs(r.totalStandardDeviation - 101.0.squareRoot()) < 1e-12)
    }

    @Test("The parameters' receiver reads and writes their four numbers")
    func parametersReceiver() {
        var p = AltitudeModelParameters()
        p.receiver = GPSReceiverModel(
            errorStandardDeviation: 3, correlationTime: 300, whiteNoiseStandardDeviation: 0.5, accuracyScale: 1.5)
        #expect(p.gpsErrorStandardDeviation == 3 && p.gpsCorrelationTime == 300)
        #expect(p.gpsWhiteNoiseStandardDeviation == 0.5 && p.gpsVerticalAccuracyScale == 1.5)
        #expect(p.receiver.correlationTime == 300)
    }
}
