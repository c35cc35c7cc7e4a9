import LinearAlgebra
import Randomness
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

    @Test(
        "The likelihood fit finds the closed forms: the sample mean and its standard error σ̂/√n",
        arguments: [(1, 10), (2, 100), (3, 1_000)] as [(UInt64, Int)])
    func meanAltitudeFitRuns(seed: UInt64, count: Int) throws {
        // GIVEN n altitudes (m) of one spot, N(312 m, (4 m)²)
        var generator = SeededGenerator(seed: seed)
        let altitudes = (0..<count).map { _ in generator.gaussian(mean: 312, standardDeviation: 4) }
        // WHEN the sample fits them
        let fit = try #require(fitMeanAltitude(altitudes))
        // THEN the minimum of −ℓ is at the sample mean, and the curvature gives SE = σ̂/√n, with σ̂ the
        // maximum-likelihood spread (divided by n).
        let n = Double(count)
        let mean = altitudes.reduce(0, +) / n
        let sigma = (altitudes.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / n).squareRoot()
        let expectedStandardError = sigma / n.squareRoot()
        let standardError = try #require(fit.standardErrorMeters)
        // −ℓ rises by n δ²/2σ² = (δ/SE)²/2 nats when μ is off by δ, so a search that stops on a 1e-10-nat spread
        // places μ to about √(2e-10) = 1.4e-5 SE; along ln σ the curvature is 2n, so −ℓ rises by n η² when ln σ is
        // off by η and σ (hence SE) is right to about √(1e-10/n) relative; the finite differences are exact along
        // μ (−ℓ is quadratic in it), and the cross term that would bring in ln σ's truncation vanishes. The
        // bounds are 1e-4 SE and 1e-4 relative; over 40 seeds at each of n = 5 to 1,000 the worst errors were
        // 6e-6 SE and 3e-7.
        #expect(
            abs(fit.meanMeters - mean) < 1e-4 * expectedStandardError,
            "mean off by \((fit.meanMeters - mean) / expectedStandardError) SE")
        #expect(
            abs(standardError / expectedStandardError - 1) < 1e-4,
            "SE off by \(standardError / expectedStandardError - 1) relative")
    }

    @Test("The likelihood fit of no altitudes is nil, not a trap")
    func meanAltitudeFitOfNothing() {
        #expect(fitMeanAltitude([]) == nil)
    }
}
