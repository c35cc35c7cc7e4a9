import Testing

@Suite("Docs/simulation.md sample")
struct SimulationSampleTests {
    @Test("The canyon's seed 42 has 30 multipath outliers, each printed once")
    func canyonOutliersRun() throws {
        var output = ""
        try canyonOutliers(to: &output)
        #expect(output.split(separator: "\n").count == 30)
    }
}
