import Foundation
import Randomness
import Testing

@testable import Altimetry

@Suite("GaussMarkovNoise")
struct GaussMarkovNoiseTests {
    /// Var(ȳ) − Cov(ȳ, ȳ') by the double sums over the autocovariance σ_e² φ^|i−j| + σ_g² δ_ij, term by term.
    static func bruteForce(_ n: GaussMarkovNoise, m: Int, tau0: Double) -> Double {
        let phi = exp(-tau0 / n.correlationTime)
        func c(_ lag: Int) -> Double {
            n.correlatedStandardDeviation * n.correlatedStandardDeviation * pow(phi, Double(abs(lag)))
                + (lag == 0 ? n.whiteStandardDeviation * n.whiteStandardDeviation : 0)
        }
        var variance = 0.0, covariance = 0.0
        for i in 0..<m {
            for j in 0..<m {
                variance += c(i - j)
                covariance += c(m + j - i)
            }
        }
        return (variance - covariance) / Double(m * m)
    }

    @Test("The closed-form Allan variance equals the double sums", arguments: [1, 2, 7, 64, 300])
    func closedForm(m: Int) {
        for noise in [
            GaussMarkovNoise(correlatedStandardDeviation: 10, correlationTime: 60, whiteStandardDeviation: 1),
            GaussMarkovNoise(correlatedStandardDeviation: 2, correlationTime: 3_600, whiteStandardDeviation: 0.5),
        ] {
            let exact = Self.bruteForce(noise, m: m, tau0: 1)
            let closed = noise.allanVariance(averagingFactor: m, samplingInterval: 1)
            #expect(abs(closed - exact) <= 1e-9 * exact, "m = \(m): \(closed) against \(exact)")
        }
    }

    @Test("The fit recovers a Gauss-Markov error plus white noise from a long simulated series")
    func fit() throws {
        // 200,000 samples of σ_e = 10 m, τ = 60 s, σ_g = 1 m: the Allan points up to a few τ are good to a few %.
        var seeded = SeededGenerator(seed: 7)
        let phi = exp(-1.0 / 60)
        var e = 10 * seeded.gaussian()
        var series: [Double] = []
        for _ in 0..<200_000 {
            e = phi * e + 10 * (1 - phi * phi).squareRoot() * seeded.gaussian()
            series.append(e + seeded.gaussian())
        }
        let fitted = try GaussMarkovNoise.fitted(to: AllanDeviation(series: series, samplingInterval: 1))
        #expect(abs(fitted.correlatedStandardDeviation - 10) < 1, "σ_e \(fitted.correlatedStandardDeviation)")
        #expect(abs(fitted.correlationTime - 60) < 12, "τ \(fitted.correlationTime)")
        #expect(abs(fitted.whiteStandardDeviation - 1) < 0.2, "σ_g \(fitted.whiteStandardDeviation)")
    }

    @Test("σ_e and τ are identifiable only where τ is at most half the record and at least the sampling interval")
    func identifiability() {
        func noise(_ tau: Double) -> GaussMarkovNoise {
            GaussMarkovNoise(correlatedStandardDeviation: 10, correlationTime: tau, whiteStandardDeviation: 1)
        }
        // √(τ/2T) = 0.5 at τ = T/2: the likelihood's threshold on SE(ln σ_e).
        #expect(noise(3_600).notIdentifiableReason(duration: 7_200, samplingInterval: 1) == nil)
        #expect(noise(3_700).notIdentifiableReason(duration: 7_200, samplingInterval: 1) != nil)
        #expect(noise(300).notIdentifiableReason(duration: 7_200, samplingInterval: 1) == nil)
        #expect(noise(0.5).notIdentifiableReason(duration: 7_200, samplingInterval: 1) != nil)
    }
}
