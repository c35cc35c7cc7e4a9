import Altimetry
import Testing

@Suite("Docs/ascent.md samples")
struct AscentSampleTests {
    @Test("The example runs: two readings a metre apart make no climb (under the hysteresis)")
    func measureAscentRuns() throws {
        let report = try measureAscent()
        #expect(report.ascent.value == 0 && report.segments.isEmpty)
    }
}
