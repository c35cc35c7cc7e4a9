import Altimetry
import Testing

@Suite("GaussMarkovAveraging+AveragingTime")
struct GaussMarkovAveragingAveragingTimeTests {
    @Test(
        "Asking for the SD of N samples gives back N, for both estimators",
        arguments: GaussMarkovAveraging.Estimator.allCases)
    func roundTrip(estimator: GaussMarkovAveraging.Estimator) throws {
        for (tau, dt) in [(60.0, 1.0), (5, 0.2), (1_000, 1), (0.5, 1)] {
            let averaging = try GaussMarkovAveraging(standardDeviation: 10, correlationTime: tau, sampleInterval: dt)
            for n in [1, 2, 3, 10, 59, 60, 61, 600, 3_600, 86_400, 1_000_000] {
                let target = averaging.variance(of: estimator, sampleCount: n).squareRoot()
                // One part in 10¹² above the SD absorbs the square root's rounding; successive N differ by ≥ 1e-7.
                let needed = try averaging.samplesNeeded(toReach: target * (1 + 1e-12), with: estimator)
                #expect(needed == n, "τ \(tau), Δt \(dt), N \(n): got \(needed)")
                #expect(try averaging.averagingTime(toReach: target * (1 + 1e-12), with: estimator) == Double(n) * dt)
            }
        }
    }

    @Test(
        "The answer is the first N that reaches the target, for targets between samples",
        arguments: GaussMarkovAveraging.Estimator.allCases)
    func firstSufficient(estimator: GaussMarkovAveraging.Estimator) throws {
        let gps = try GaussMarkovAveraging(standardDeviation: 10, correlationTime: 60)
        for target in stride(from: 9.9, through: 0.5, by: -0.3) {
            let n = try gps.samplesNeeded(toReach: target, with: estimator)
            #expect(gps.variance(of: estimator, sampleCount: n) <= target * target, "target \(target)")
            if n > 1 { #expect(gps.variance(of: estimator, sampleCount: n - 1) > target * target, "target \(target)") }
        }
    }

    @Test("The seed's ten minutes: 4.24 m from the plain mean, sooner from GLS")
    func seedTenMinutes() throws {
        let gps = try GaussMarkovAveraging(standardDeviation: 10, correlationTime: 60)
        let target = gps.meanStandardDeviation(sampleCount: 600) * (1 + 1e-12)
        #expect(try gps.averagingTime(toReach: target, with: .mean) == 600)
        let gls = try gps.averagingTime(toReach: target, with: .generalizedLeastSquares)
        // GLS reaches 4.24 m in 548 s: strictly sooner, by about the τ = 60 s its end weights are worth.
        #expect(gls == 548)
        // One metre takes about 2τ(σ/1 m)² = 3.3 hours (11,940 s by a sample-by-sample search in Python).
        let oneMetre = try gps.averagingTime(toReach: 1, with: .mean)
        #expect(abs(oneMetre / (2 * 60 * 100) - 1) < 0.01)
        #expect(oneMetre == 11_940)
    }

    @Test("Two metres take 2,939 s with the mean and 2,882 s with GLS, as Docs/physics.md says")
    func twoMetres() throws {
        // Reference: the first N whose variance is at most 4 m², found by stepping N one at a time in Python
        // over the same closed forms; the bisection must land on exactly those.
        let gps = try GaussMarkovAveraging(standardDeviation: 10, correlationTime: 60)
        #expect(try gps.averagingTime(toReach: 2, with: .mean) == 2_939)
        #expect(try gps.averagingTime(toReach: 2, with: .generalizedLeastSquares) == 2_882)
    }

    @Test("A target at or above σ needs one sample; impossible targets are typed errors")
    func edges() throws {
        let gps = try GaussMarkovAveraging(standardDeviation: 10, correlationTime: 60)
        #expect(try gps.samplesNeeded(toReach: 10, with: .mean) == 1)
        #expect(try gps.samplesNeeded(toReach: 50, with: .generalizedLeastSquares) == 1)
        for bad in [0, -1, Double.nan, .infinity] {
            #expect(throws: GaussMarkovAveragingError.self) { try gps.samplesNeeded(toReach: bad, with: .mean) }
        }
        #expect(
            throws: GaussMarkovAveragingError.targetUnreachable(
                target: 1e-6,
                maximumSampleCount: GaussMarkovAveraging.maximumSampleCount)
        ) {
            try gps.samplesNeeded(toReach: 1e-6, with: .generalizedLeastSquares)
        }
        #expect(throws: GaussMarkovAveragingError.self) { try gps.samplesNeeded(toReach: 1e-6, with: .mean) }
    }
}
