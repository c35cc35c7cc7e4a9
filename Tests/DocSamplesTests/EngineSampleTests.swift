import Foundation
import StateEstimation
import Testing

@Suite("Docs/engine.md sample")
struct EngineSampleTests {
    @Test("The user-defined model learns the cheap thermometer's bias, restores bit for bit and smooths every step")
    func roomTemperatureRuns() throws {
        let (filter, restored, smoothed) = try roomTemperature()
        // The reference reading (21.3 cheap against 20.9 reference) pins the temperature, so the bias is known.
        #expect(abs(filter.mean[1, 0] - 0.4) < 0.1)
        #expect(filter.standardDeviation(of: 1) < 0.2)
        // The restored filter continues exactly as the original does.
        var original = filter
        var copy = restored
        for index in 0..<2 {
            try original.predict(to: 90)
            try copy.predict(to: 90)
            try original.update(21.7 + Double(index), kind: Thermometer.cheap, variance: 0.01)
            try copy.update(21.7 + Double(index), kind: Thermometer.cheap, variance: 0.01)
        }
        #expect(copy.mean == original.mean)
        #expect(copy.covariance == original.covariance)
        let run = try #require(smoothed)
        #expect(run.times == [0, 1, 30, 60])
    }
}
