import Foundation
import Testing

@testable import Altimetry

@Suite("GPXElevationRule")
struct GPXElevationRuleTests {
    struct Fixture: Decodable {
        struct Case: Decodable {
            struct Uphill: Decodable {
                var uphill: Double
                var downhill: Double
            }
            struct Hysteresis: Decodable {
                var h: Double
                var ascent: Double
                var descent: Double
            }
            var name: String
            var times: [Double]
            var elevations: [Double]
            var gpxpy: Uphill
            var hysteresis: [Hysteresis]
        }
        var gpxpy_version: String
        var cases: [Case]
    }

    static func fixture() throws -> Fixture {
        let url = try #require(
            Bundle.module.url(forResource: "gpxpy_ascent", withExtension: "json", subdirectory: "Fixtures"))
        return try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
    }

    @Test("Uphill and downhill equal gpxpy 1.6.2's own on four GPS-like series (Fixtures/gpxpy_ascent.py)")
    func gpxpy() throws {
        let fixture = try Self.fixture()
        #expect(fixture.gpxpy_version == "1.6.2" && fixture.cases.count == 4)
        for c in fixture.cases {
            let (up, down) = GPXElevationRule.uphillDownhill(c.elevations)
            // The same sums in the same order: equal to rounding.
            #expect(abs(up - c.gpxpy.uphill) < 1e-9 * max(1, c.gpxpy.uphill), "\(c.name)")
            #expect(abs(down - c.gpxpy.downhill) < 1e-9 * max(1, c.gpxpy.downhill), "\(c.name)")
        }
    }

    @Test("Hysteresis totals on gpxpy's smoothing equal an independent Python count for 3, 5 and 10 m")
    func hysteresis() throws {
        for c in try Self.fixture().cases {
            for want in c.hysteresis {
                let got = GPXElevationRule.ascentDescent(times: c.times, elevations: c.elevations, hysteresis: want.h)
                #expect(abs(got.ascent - want.ascent) < 1e-9 * max(1, want.ascent), "\(c.name) H = \(want.h)")
                #expect(abs(got.descent - want.descent) < 1e-9 * max(1, want.descent), "\(c.name) H = \(want.h)")
            }
        }
    }

    @Test("The smoothing keeps the end points and weighs the interior 0.3 / 0.4 / 0.3 from the unsmoothed series")
    func smoothing() {
        #expect(GPXElevationRule.smoothed([0, 10, 0, 10]) == [0, 4, 6, 10])
        #expect(GPXElevationRule.smoothed([5]) == [5])
        #expect(GPXElevationRule.uphillDownhill([]) == (0, 0))
    }
}
