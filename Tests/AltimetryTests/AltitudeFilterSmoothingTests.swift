import Simulation
import Testing

@testable import Altimetry

/// The backward pass a segment at a time gives the estimates of the whole recorded run smoothed at once.
@Suite("AltitudeFilter smoothing")
struct AltitudeFilterSmoothingTests {
    /// `AltitudeFilter.smooth` with segments of `segmentLength` readings: the smoothed estimates by reading index,
    /// and the indices in the order they came.
    static func smoothed(
        _ readings: [AltitudeReading], parameters: AltitudeModelParameters, segmentLength: Int
    ) throws -> (estimates: [AltitudeEstimate?], order: [Int]) {
        var estimates = [AltitudeEstimate?](repeating: nil, count: readings.count)
        var order: [Int] = []
        try AltitudeFilter.smooth(
            readings, parameters: parameters, segmentLength: segmentLength, filtered: { _, _ in },
            smoothed: { index, estimate in
                estimates[index] = estimate
                order.append(index)
            })
        return (estimates, order)
    }

    static func readings(_ scenario: Scenario) throws -> [AltitudeReading] {
        AscentAnalysisTests.readings(try scenario.simulate())
    }

    @Test(
        "GIVEN a track with fault episodes WHEN it is smoothed in segments of any length THEN every estimate equals the whole run's, to the bit",
        arguments: [1, 2, 7, 500, 16_384])
    func segmentsEqualTheWholeRun(segmentLength: Int) throws {
        // A barometer step (a re-anchoring reset) and pressure and GPS at distinct and shared times.
        let readings = try Self.readings(.stress(.barometerStep, seed: 2))
        let parameters = AltitudeModelParameters()
        // The whole recorded run smoothed at once (`SmoothedAltitudeTrack` records it whole): an independent path.
        let whole = try SmoothedAltitudeTrack(readings, parameters: parameters)
        let (estimates, order) = try Self.smoothed(readings, parameters: parameters, segmentLength: segmentLength)
        #expect(order == Array(readings.indices.reversed()))
        for (index, estimate) in estimates.enumerated() {
            var expected = whole.smoothed[index]
            expected.relativeAltitude = 0
            expected.barometerUpdate = nil
            expected.gpsUpdate = nil
            guard estimate != expected else { continue }
            Issue.record("reading \(index) of \(readings.count): \(String(describing: estimate)) against \(expected)")
            break
        }
    }

    @Test("With the GPS error model bank, segments give the estimates of one segment")
    func segmentsWithTheBank() throws {
        let readings = Array(try Self.readings(.named(.hike, seed: 4, duration: 1_200)))
        var parameters = AltitudeModelParameters()
        parameters.learnsReceiver = true
        let one = try Self.smoothed(readings, parameters: parameters, segmentLength: .max)
        let many = try Self.smoothed(readings, parameters: parameters, segmentLength: 37)
        #expect(one.estimates.allSatisfy { $0 != nil })
        #expect(one.estimates == many.estimates)
    }
}
