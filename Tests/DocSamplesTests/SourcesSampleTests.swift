import Altimetry
import Simulation
import Testing

@Suite("Docs/sources.md sample")
struct SourcesSampleTests {
    @Test("The pattern's loop ends on the filter's estimate of the last reading")
    func patternRuns() async throws {
        let last = try await lastBuildingEstimate()
        let scenario = Scenario.named(.building, seed: 3, duration: 120)
        let source = SimulatedSource(scenario: scenario)
        var filter = try AltitudeFilter(parameters: .adaptive)
        let expected = try scenario.simulate().readings.map { try filter.process(source.reading($0)) }.last
        #expect(last != nil)
        #expect(last == expected)
    }
}
