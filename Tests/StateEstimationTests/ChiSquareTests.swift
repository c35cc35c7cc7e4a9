import Foundation
import StateEstimation
import Testing

@Suite("Chi-square distribution")
struct ChiSquareTests {
    /// (p, k, quantile) from scipy.stats.chi2.ppf (SciPy 1.17).
    static let table: [(Double, Int, Double)] = [
        (0.95, 1, 3.841458820694124), (0.95, 2, 5.991464547107979), (0.99, 3, 11.344866730144373),
        (0.025, 10, 3.2469727802368413), (0.975, 10, 20.483177350807388), (0.5, 1, 0.454936423119572),
        (0.01, 1, 0.00015708785790970184), (0.999999426696856, 1, 24.99999999932837),
        (0.025, 400, 346.48176536291464), (0.975, 400, 457.305481966065), (0.05, 4, 0.7107230213973239),
        (0.9973, 6, 20.061901972375512), (0.025, 2000, 1877.9460368153905), (0.975, 2000, 2125.8423024497756),
    ]

    @Test("Quantiles match SciPy to 1e-12 relative", arguments: 0..<table.count)
    func quantiles(index: Int) {
        let (p, k, expected) = Self.table[index]
        let q = ChiSquare.quantile(probability: p, degreesOfFreedom: k)
        #expect(abs(q - expected) <= 1e-12 * expected, "p = \(p), k = \(k): \(q) vs \(expected)")
    }

    @Test("The distribution function inverts the quantile", arguments: [1, 2, 3, 7, 30, 250])
    func roundTrip(k: Int) {
        for p in [1e-6, 0.01, 0.2, 0.5, 0.8, 0.99, 1 - 1e-6] {
            let x = ChiSquare.quantile(probability: p, degreesOfFreedom: k)
            let back =
                p > 0.5
                ? 1 - ChiSquare.survivalProbability(x, degreesOfFreedom: k)
                : ChiSquare.cumulativeProbability(x, degreesOfFreedom: k)
            #expect(abs(back - p) <= 1e-12 * max(p, 1e-3), "k = \(k), p = \(p)")
        }
    }

    @Test("Closed forms: k = 2 is exponential, and a 5-sigma gate for k = 1 is 25")
    func closedForms() throws {
        for x in [0.1, 1, 5, 20] {
            #expect(abs(ChiSquare.survivalProbability(x, degreesOfFreedom: 2) - exp(-x / 2)) < 1e-15)
        }
        let gate = try Gate.chiSquare(probability: 1 - 5.733031437583878e-7, degreesOfFreedom: 1)
        #expect(abs(gate.threshold - 25) < 1e-6)
        #expect(try Gate.mahalanobis(5).threshold == 25)
        #expect(throws: EstimationError.invalidParameter(name: "gate probability", value: 1, expectation: "in (0, 1)"))
        {
            _ = try Gate.chiSquare(probability: 1)
        }
    }
}
