import Foundation
import Randomness
import Simulation
import Testing

@Suite("EstimatorScore")
struct EstimatorScoreTests {
    /// Errors and sigmas from a seeded generator: errors N(bias, 3²) m, sigmas 1 to 6 m.
    static func draws(_ count: Int, seed: UInt64, bias: Double = 0.5) -> [(error: Double, sigma: Double)] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            (bias + 3 * generator.gaussian(), Double.random(in: 1...6, using: &generator))
        }
    }

    @Test(
        "RMSE, mean error, coverage and NEES equal their definitions computed directly",
        arguments: [1, 2, 3] as [UInt64])
    func definitions(seed: UInt64) {
        let draws = Self.draws(5_000, seed: seed)
        var score = EstimatorScore()
        for d in draws { score.add(error: d.error, sigma: d.sigma) }
        let n = Double(draws.count)
        let rmse = (draws.reduce(0) { $0 + $1.error * $1.error } / n).squareRoot()
        let mean = draws.reduce(0) { $0 + $1.error } / n
        let coverage = Double(draws.filter { abs($0.error) <= $0.sigma }.count) / n
        let nees = draws.reduce(0) { $0 + ($1.error / $1.sigma) * ($1.error / $1.sigma) } / n
        #expect(abs(score.rootMeanSquareError - rmse) < 1e-9 * rmse)
        #expect(abs(score.meanError - mean) < 1e-9)
        #expect(score.coverage == coverage)
        #expect(abs(score.meanNEES - nees) < 1e-9 * nees)
    }

    @Test(
        "The 95th percentile of |error| is the exact order statistic to within its 1 % bin",
        arguments: [4, 5, 6] as [UInt64])
    func percentile(seed: UInt64) throws {
        let draws = Self.draws(3_001, seed: seed)
        var score = EstimatorScore()
        for d in draws { score.add(error: d.error, sigma: d.sigma) }
        let sorted = draws.map { abs($0.error) }.sorted()
        let exact = sorted[Int((0.95 * Double(sorted.count)).rounded(.up)) - 1]
        let binned = score.absoluteErrorPercentile95
        #expect(binned >= exact && binned <= exact * 1.0101, "binned \(binned), exact \(exact)")
        for q in [0.5, 0.68, 0.99] {
            let exactQ = sorted[Int((q * Double(sorted.count)).rounded(.up)) - 1]
            let binnedQ = score.absoluteErrorQuantile(q)
            #expect(binnedQ >= exactQ && binnedQ <= exactQ * 1.0101, "q \(q): binned \(binnedQ), exact \(exactQ)")
        }
    }

    @Test("Merging two scores equals scoring all their instants in one")
    func merging() {
        let draws = Self.draws(2_000, seed: 7)
        var whole = EstimatorScore(), first = EstimatorScore(), second = EstimatorScore()
        for (k, d) in draws.enumerated() {
            whole.add(error: d.error, sigma: d.sigma)
            if k < 700 { first.add(error: d.error, sigma: d.sigma) } else { second.add(error: d.error, sigma: d.sigma) }
        }
        var merged = EstimatorScore()
        merged.merge(first)
        merged.merge(second)
        #expect(merged.count == whole.count && merged.covered == whole.covered)
        #expect(abs(merged.sumOfSquares - whole.sumOfSquares) < 1e-9 * whole.sumOfSquares)
        #expect(abs(merged.meanError - whole.meanError) < 1e-12)
        #expect(merged.absoluteErrorPercentile95 == whole.absoluteErrorPercentile95)
    }

    @Test("An instant without a finite error or a positive sigma is not scored; an empty score has no figures")
    func rejectsUnusable() {
        var score = EstimatorScore()
        score.add(error: .nan, sigma: 1)
        score.add(error: 1, sigma: 0)
        score.add(error: 1, sigma: .infinity)
        #expect(score.count == 0)
        #expect(score.rootMeanSquareError.isNaN && score.meanError.isNaN && score.absoluteErrorPercentile95.isNaN)
        score.add(error: 0, sigma: 1)
        #expect(score.count == 1 && score.absoluteErrorPercentile95 <= 0.00102)
    }
}
