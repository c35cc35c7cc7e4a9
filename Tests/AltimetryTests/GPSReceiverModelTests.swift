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

    /// The closed form s(T)² = σ_w² + σ_e² (1 − g(T/τ)) against the definition it comes from: the variance of the
    /// mean of a stationary Gauss-Markov error over T is σ_e² times the average of its correlation e^(−|s−t|/τ) over
    /// the square [0, T]², summed here on a 400 x 400 midpoint grid (its diagonal cells, which count a kink as one,
    /// add T/(3 n² τ) of σ_e² at most: 4 x 10⁻⁵ at 5,000 s).
    @Test("A run's spread about its own mean follows the correlation over the run, from σ_w to the whole spread")
    func runSpread() {
        let r = GPSReceiverModel(errorStandardDeviation: 10, correlationTime: 300, whiteNoiseStandardDeviation: 1)
        for duration in [1.0, 60, 300, 1_000, 5_000] {
            let n = 400
            let h = duration / Double(n)
            var correlation = 0.0
            for i in 0..<n {
                for j in 0..<n { correlation += exp(-abs(Double(i - j)) * h / 300) }
            }
            let meanVariance = 100 * correlation / Double(n * n)
            let expected = (1 + 100 - meanVariance).squareRoot()
            let s = r.runStandardDeviation(over: duration, whiteVariance: 1)
            #expect(abs(s - expected) < 1e-3 * expected, "T = \(duration) s: \(s) against \(expected)")
        }
        #expect(abs(r.runStandardDeviation(over: 0, whiteVariance: 1) - 1) < 1e-12)
        #expect(abs(r.runStandardDeviation(over: 1e9, whiteVariance: 1) - 101.0.squareRoot()) < 1e-3)
        #expect(abs(r.runStandardDeviation(over: .infinity, whiteVariance: 4) - 104.0.squareRoot()) < 1e-12)
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
