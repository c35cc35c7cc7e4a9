import Foundation
import Testing
import Altimetry

/// The code sample of Docs/ascent.md, compiled and run, and checked to be the page's verbatim.
@Suite("Docs/ascent.md example")
struct AscentGuideExampleTests {
    @Test("The example runs: two readings make no climb")
    func example() throws {
        let readings = [AltitudeReading(time: 0, pressure: 950, gpsAltitude: 540),
                        AltitudeReading(time: 1, pressure: 949.9, gpsAltitude: 541)]
        let report = try AscentAnalysis.measure(readings)
        print(report.ascent.value, report.ascent.standardDeviation, report.segments.count)
        #expect(report.ascent.value == 0 && report.segments.isEmpty)
    }

    @Test("The page shows the example verbatim")
    func verbatim() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("Docs/ascent.md"), encoding: .utf8)
        #expect(page.contains("""
            let readings = [AltitudeReading(time: 0, pressure: 950, gpsAltitude: 540),
                            AltitudeReading(time: 1, pressure: 949.9, gpsAltitude: 541)]
            let report = try AscentAnalysis.measure(readings)
            print(report.ascent.value, report.ascent.standardDeviation, report.segments.count)
            """))
    }
}
