import LinearAlgebra
import Testing

/// The getting-started articles of the DocC catalogs.
@Suite("Getting-started samples")
struct GettingStartedSampleTests {
    @Test("Fusing a simulated hike beats the GPS's 10 m and its sigma covers about 68 % of the errors")
    func fuseAHikeRuns() throws {
        let (rootMeanSquareError, coverage) = try fuseAHike()
        // The GPS alone errs by about 10 m (one sigma); the fused track must do much better, and an honest sigma
        // covers 68 % of the errors: one hour of one correlated error process is few independent samples, so the
        // band is wide.
        #expect(rootMeanSquareError < 6)
        #expect(coverage > 0.45 && coverage < 0.95)
    }

    @Test("The Cholesky solve satisfies A x = b")
    func choleskySolveRuns() throws {
        let x = try solveByCholesky()
        let a = Matrix([[4, 2, 0], [2, 5, 1], [0, 1, 3]])
        let residual = a * x - Matrix(column: [2, 1, 4])
        #expect((0..<3).allSatisfy { abs(residual[$0, 0]) < 1e-12 })
    }

    @Test("The Gauss-Markov draws are repeatable and have the process's spread and lag-one correlation")
    func gaussMarkovDrawsRun() {
        let draws = gpsErrorDraws(seed: 5)
        #expect(draws == gpsErrorDraws(seed: 5))
        #expect(draws != gpsErrorDraws(seed: 6))
        let mean = draws.reduce(0, +) / Double(draws.count)
        let variance = draws.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(draws.count)
        let lagOne =
            zip(draws, draws.dropFirst()).map { ($0 - mean) * ($1 - mean) }.reduce(0, +)
            / Double(draws.count - 1) / variance
        // exp(-1/60) = 0.983; an hour at τ = 60 s is about 30 independent samples, so σ is known to ±25 % or so.
        #expect(abs(lagOne - 0.983) < 0.01)
        #expect(variance.squareRoot() > 5 && variance.squareRoot() < 15)
    }
}
