import Altimetry
import Randomness
import Testing

@Suite("GaussMarkovAveraging+MonteCarlo")
struct GaussMarkovAveragingMonteCarloTests {
    /// The seed draws 2,000 trials per window; the seed for our generator is 10, as in the seed's example.
    static let trials = 2_000

    @Test(
        "2,000 simulated trials land within 5 % of the exact SD for 1 minute, 10 minutes and 1 hour",
        arguments: [60, 600, 3_600] as [Int])
    func withinFivePercent(window: Int) throws {
        let gps = try GaussMarkovAveraging(standardDeviation: 10, correlationTime: 60)
        let simulated = try gps.monteCarloMeanStandardDeviation(sampleCount: window, trials: Self.trials, seed: 10)
        let exact = gps.meanStandardDeviation(sampleCount: window)
        // The RMS of M Gaussian means has relative standard error 1/√(2M) = 1.6 %: 5 % is 3.2 standard errors.
        #expect(abs(simulated / exact - 1) < 0.05, "window \(window) s: simulated \(simulated), exact \(exact)")
    }

    @Test(
        "Short windows over many seeds: the estimate scatters about the exact value as 1/√(2M) predicts",
        arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func unbiased(seed: UInt64) throws {
        let averaging = try GaussMarkovAveraging(standardDeviation: 2, correlationTime: 5)
        let simulated = try averaging.monteCarloMeanStandardDeviation(sampleCount: 20, trials: 4_000, seed: seed)
        let exact = averaging.meanStandardDeviation(sampleCount: 20)
        // Relative standard error 1/√8000 = 1.1 %; 4.5 standard errors is 5 %, a one-in-10⁵ miss per seed.
        #expect(abs(simulated / exact - 1) < 0.05, "seed \(seed): simulated \(simulated), exact \(exact)")
    }

    @Test("A seed fixes the estimate; another seed changes it; a shared generator continues its stream")
    func reproducible() throws {
        let gps = try GaussMarkovAveraging(standardDeviation: 10, correlationTime: 60)
        let a = try gps.monteCarloMeanStandardDeviation(sampleCount: 60, trials: 50, seed: 3)
        let b = try gps.monteCarloMeanStandardDeviation(sampleCount: 60, trials: 50, seed: 3)
        let c = try gps.monteCarloMeanStandardDeviation(sampleCount: 60, trials: 50, seed: 4)
        #expect(a == b)
        #expect(a != c)
        var generator = SeededGenerator(seed: 3)
        let first = try gps.monteCarloMeanStandardDeviation(sampleCount: 60, trials: 50, using: &generator)
        let second = try gps.monteCarloMeanStandardDeviation(sampleCount: 60, trials: 50, using: &generator)
        #expect(first == a)
        #expect(second != first)
    }

    @Test("A single sample's RMS is σ itself, within its Monte Carlo error")
    func singleSample() throws {
        let gps = try GaussMarkovAveraging(standardDeviation: 10, correlationTime: 60)
        let simulated = try gps.monteCarloMeanStandardDeviation(sampleCount: 1, trials: 20_000, seed: 1)
        // Relative standard error 1/√40000 = 0.5 %; 2.5 % is five of them.
        #expect(abs(simulated / 10 - 1) < 0.025)
    }

    @Test("No samples or no trials are typed errors")
    func domain() throws {
        let gps = try GaussMarkovAveraging(standardDeviation: 10, correlationTime: 60)
        #expect(throws: GaussMarkovAveragingError.sampleCountNotPositive(0)) {
            try gps.monteCarloMeanStandardDeviation(sampleCount: 0, trials: 10, seed: 1)
        }
        #expect(throws: GaussMarkovAveragingError.trialCountNotPositive(0)) {
            try gps.monteCarloMeanStandardDeviation(sampleCount: 10, trials: 0, seed: 1)
        }
    }
}
