import Foundation
import StateEstimation
import Testing

@testable import Altimetry

@Suite("GaussMarkovAveraging")
struct GaussMarkovAveragingTests {
    /// The seed's GPS: σ = 10 m, τ = 60 s, sampled at 1 Hz.
    static func seedGPS() throws -> GaussMarkovAveraging {
        try GaussMarkovAveraging(standardDeviation: 10, correlationTime: 60, sampleInterval: 1)
    }

    /// The seed's averaging table: window in s, exact, σ√(2τ/T), σ/√N, each printed to 0.01 m.
    static let seedRows: [(window: Seconds, exact: Double, approximation: Double, independent: Double)] = [
        (60, 8.58, 14.14, 1.29), (600, 4.24, 4.47, 0.41), (3_600, 1.81, 1.83, 0.17),
    ]

    @Test(
        "The seed's table: exact 8.58 / 4.24 / 1.81 m, approximation 14.14 / 4.47 / 1.83 m, independent 1.29 / 0.41 / 0.17 m",
        arguments: seedRows)
    func seedTable(row: (window: Seconds, exact: Double, approximation: Double, independent: Double)) throws {
        let gps = try Self.seedGPS()
        let n = gps.sampleCount(window: row.window)
        #expect(n == Int(row.window))
        // Half a unit of the printed hundredth.
        #expect(abs(gps.meanStandardDeviation(sampleCount: n) - row.exact) <= 0.005)
        #expect(abs(gps.largeWindowApproximation(window: row.window) - row.approximation) <= 0.005)
        #expect(abs(gps.independentSamplesStandardDeviation(sampleCount: n) - row.independent) <= 0.005)
    }

    /// The seed's series (σ²/N)[1 + 2 Σ_{k=1}^{N−1} (1 − k/N) φᵏ], summed term by term as the seed does.
    static func seriesVariance(sigma: Double, tau: Double, dt: Double, n: Int) -> Double {
        let phi = exp(-dt / tau)
        var sum = 0.0
        var power = 1.0
        for k in 1..<max(n, 1) {
            power *= phi
            sum += (1 - Double(k) / Double(n)) * power
        }
        return sigma * sigma * (1 + 2 * sum) / Double(n)
    }

    @Test(
        "The closed form and the short-window splitting equal the seed's series, term by term",
        arguments: [0.3, 1, 5, 60, 600, 1e4] as [Seconds])
    func matchesSeries(tau: Seconds) throws {
        let averaging = try GaussMarkovAveraging(standardDeviation: 3, correlationTime: tau, sampleInterval: 1)
        for n in [1, 2, 3, 7, 59, 60, 61, 100, 599, 600, 601, 1_000, 3_600, 5_000] {
            let reference = Self.seriesVariance(sigma: 3, tau: tau, dt: 1, n: n)
            // The series loses about √N ulps to accumulation (and φᵏ by products, k ulps); 1e-11 leaves room.
            let relative = abs(averaging.meanVariance(sampleCount: n) / reference - 1)
            #expect(relative < 1e-11, "tau \(tau) s, N \(n): relative error \(relative)")
        }
    }

    @Test("Both evaluations agree where they meet, across windows of 0.5 to 10 correlation times")
    func branchesAgree() throws {
        for tau in [2.0, 60, 1_000, 1e5] {
            let averaging = try GaussMarkovAveraging(standardDeviation: 1, correlationTime: tau)
            for x in [0.5, 0.9, 1, 1.1, 2, 5, 10] {
                let n = max(2, Int((x * tau).rounded()))
                let closed = averaging.meanVarianceFactor(sampleCount: n)
                let split = averaging.shortWindowFactor(sampleCount: n)
                // Both lose at most 2ε/x ≈ 4e-16 relative here; 1e-13 allows for the log₂N roundings.
                #expect(abs(closed / split - 1) < 1e-13, "tau \(tau), N \(n)")
            }
        }
    }

    @Test("Robust for a million samples and τ from 1 s to 10⁹ s")
    func millionSamples() throws {
        let n = 1_000_000
        for tau in [1.0, 1e3, 1e6, 1e9] {
            let averaging = try GaussMarkovAveraging(standardDeviation: 1, correlationTime: tau)
            let reference = Self.referenceFactor(tau: tau, n: n)
            let factor = averaging.meanVariance(sampleCount: n)
            // The reference is summed in compensated arithmetic with φᵏ from exp; 1e-12 is far above both errors.
            #expect(abs(factor / reference - 1) < 1e-12, "tau \(tau) s: \(factor) vs \(reference)")
            #expect(factor > 1.0 / Double(n) && factor <= 1)
        }
    }

    /// (1/N)[1 + 2 Σ (1 − k/N) e^(−k/τ)] for Δt = 1, summed with Kahan compensation and each power from `exp`.
    static func referenceFactor(tau: Double, n: Int) -> Double {
        var sum = 0.0, compensation = 0.0
        for k in stride(from: n - 1, through: 1, by: -1) {
            let term = (1 - Double(k) / Double(n)) * exp(-Double(k) / tau) - compensation
            let next = sum + term
            compensation = (next - sum) - term
            sum = next
        }
        return (1 + 2 * sum) / Double(n)
    }

    @Test("The mean's variance falls strictly with N, from σ² at one sample, and stays above σ²/N")
    func monotone() throws {
        for tau in [0.5, 10, 60, 1_000] {
            let averaging = try GaussMarkovAveraging(standardDeviation: 2, correlationTime: tau)
            #expect(averaging.meanVariance(sampleCount: 1) == 4)
            var previous = Double.infinity
            for n in 1...2_000 {
                let v = averaging.meanVariance(sampleCount: n)
                #expect(v < previous, "tau \(tau), N \(n)")
                // Positive correlation only adds variance over independence (equality at N = 1).
                #expect(v >= 4 / Double(n) * (1 - 1e-12), "tau \(tau), N \(n)")
                previous = v
            }
        }
    }

    @Test("The approximation σ√(2τ/T) converges on the exact value as T/τ grows")
    func approximationConverges() throws {
        let gps = try Self.seedGPS()
        for ratio in [10.0, 100, 1_000] {
            let n = Int(ratio * 60)
            let exact = gps.meanStandardDeviation(sampleCount: n)
            let approximation = gps.largeWindowApproximation(window: Double(n))
            // Var ≈ σ² (2τ/T)(1 − τ/T) for T ≫ τ and Δt ≪ τ, so the ratio of SDs is 1 − τ/(2T) + O((τ/T)², Δt²/τ²).
            let error = abs(exact / approximation - (1 - 0.5 / ratio))
            #expect(error < 1 / (ratio * ratio) + 1e-4, "T = \(ratio) τ")
        }
    }

    @Test("No correlation time beats independence: the exact SD tends to σ/√N as τ → 0")
    func independentLimit() throws {
        let averaging = try GaussMarkovAveraging(standardDeviation: 10, correlationTime: 1e-3)
        // φ = e^(−1000) underflows to 0: the samples are independent, exactly.
        #expect(
            abs(
                averaging.meanStandardDeviation(sampleCount: 600)
                    / averaging.independentSamplesStandardDeviation(sampleCount: 600) - 1) < 1e-14)
    }

    @Test("σ = 0 gives zero error everywhere")
    func zeroSigma() throws {
        let averaging = try GaussMarkovAveraging(standardDeviation: 0, correlationTime: 60)
        #expect(averaging.meanStandardDeviation(sampleCount: 600) == 0)
        #expect(averaging.generalizedLeastSquaresStandardDeviation(sampleCount: 600) == 0)
    }

    @Test("Windows and sample counts convert through Δt")
    func windows() throws {
        let averaging = try GaussMarkovAveraging(standardDeviation: 1, correlationTime: 60, sampleInterval: 0.2)
        #expect(averaging.sampleCount(window: 600) == 3_000)
        #expect(averaging.window(sampleCount: 3_000) == 600)
        #expect(averaging.sampleCount(window: 0.01) == 1)
        #expect(averaging.sampleCount(window: -5) == 1)
        #expect(abs(averaging.correlationPerSample - exp(-0.2 / 60)) < 1e-16)
    }

    @Test("Parameters out of their domain are typed errors")
    func domain() {
        #expect(throws: GaussMarkovAveragingError.standardDeviationNotValid(-1)) {
            try GaussMarkovAveraging(standardDeviation: -1, correlationTime: 60)
        }
        #expect(throws: GaussMarkovAveragingError.self) {
            try GaussMarkovAveraging(standardDeviation: .nan, correlationTime: 60)
        }
        #expect(throws: GaussMarkovAveragingError.correlationTimeNotPositive(0)) {
            try GaussMarkovAveraging(standardDeviation: 1, correlationTime: 0)
        }
        #expect(throws: GaussMarkovAveragingError.correlationTimeNotPositive(.infinity)) {
            try GaussMarkovAveraging(standardDeviation: 1, correlationTime: .infinity)
        }
        #expect(throws: GaussMarkovAveragingError.sampleIntervalNotPositive(-1)) {
            try GaussMarkovAveraging(standardDeviation: 1, correlationTime: 60, sampleInterval: -1)
        }
    }

    @Test("Extreme windows (N to 2⁴⁰, N Δt/τ from 10⁻⁶ to 10⁴) agree with 60-digit arithmetic")
    func highPrecision() throws {
        let fixture = try GaussMarkovAveragingFixture.load()
        #expect(fixture.highPrecision.count >= 10)
        for c in fixture.highPrecision {
            let averaging = try GaussMarkovAveraging(standardDeviation: 1, correlationTime: c.tau, sampleInterval: c.dt)
            // Both branches measure within 1e-15 of the reference; 1e-13 leaves room for other libms' exp/expm1.
            let relative = abs(averaging.meanVariance(sampleCount: c.n) / c.meanVarianceFactor - 1)
            #expect(relative < 1e-13, "τ \(c.tau), Δt \(c.dt), N \(c.n): \(relative)")
        }
    }

    @Test("Agrees with the numpy fixture: dense quadratic forms and the seed's series")
    func numpyFixture() throws {
        let fixture = try GaussMarkovAveragingFixture.load()
        #expect(fixture.cases.count >= 10)
        for c in fixture.cases {
            let averaging = try GaussMarkovAveraging(
                standardDeviation: c.sigma, correlationTime: c.tau, sampleInterval: c.dt)
            // numpy's dense 1ᵀΣ1 sums N² terms (N ≤ 2,000) and the series N terms: ≤ 1e-12 relative rounding.
            let relative = abs(averaging.meanVariance(sampleCount: c.n) / c.meanVariance - 1)
            #expect(relative < 1e-11, "σ \(c.sigma), τ \(c.tau), Δt \(c.dt), N \(c.n): \(relative)")
        }
    }
}
