import Foundation
import Testing

@testable import Altimetry

/// The fixture is written by `Fixtures/allan_deviation.py` with allantools (oadev, edf_simple, confidence_interval).
@Suite("AllanDeviation")
struct AllanDeviationTests {
    struct Fixture: Decodable {
        struct Point: Decodable {
            var m: Int
            var tau, deviation, lower, upper, edf: Double
            var terms: Int
        }
        struct Case: Decodable {
            var name: String
            var sampling_interval: Double
            var series: [Double]
            var points: [Point]
        }
        var confidence: Double
        var cases: [Case]
    }

    static func fixture() throws -> Fixture {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/allan_deviation", withExtension: "json"))
        return try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
    }

    @Test("Deviation, degrees of freedom and interval match allantools to 1e-9 relative")
    func matchesAllantools() throws {
        let fixture = try Self.fixture()
        for c in fixture.cases {
            let allan = try AllanDeviation(
                series: c.series, samplingInterval: c.sampling_interval, confidence: fixture.confidence)
            #expect(
                allan.points.count == c.points.count,
                "\(c.name): \(allan.points.count) points, allantools \(c.points.count)")
            for (mine, theirs) in zip(allan.points, c.points) {
                #expect(mine.averagingFactor == theirs.m && mine.termCount == theirs.terms)
                for (a, b, what) in [
                    (mine.deviation, theirs.deviation, "deviation"), (mine.degreesOfFreedom, theirs.edf, "edf"),
                    (mine.lower, theirs.lower, "lower"), (mine.upper, theirs.upper, "upper"),
                    (mine.averagingTime, theirs.tau, "tau"),
                ] {
                    #expect(abs(a - b) <= 1e-9 * abs(b), "\(c.name) m = \(theirs.m) \(what): \(a) against \(b)")
                }
            }
        }
    }

    @Test("Too short or non-finite series are typed errors")
    func badInput() {
        #expect(throws: IdentificationError.tooFewSamples(needed: 3, found: 2)) {
            try AllanDeviation(series: [1, 2], samplingInterval: 1)
        }
        #expect(throws: IdentificationError.self) { try AllanDeviation(series: [1, .nan, 2, 3], samplingInterval: 1) }
        #expect(throws: IdentificationError.self) { try AllanDeviation(series: [1, 2, 3], samplingInterval: 0) }
    }
}
