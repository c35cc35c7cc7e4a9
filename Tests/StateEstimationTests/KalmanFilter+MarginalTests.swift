import LinearAlgebra
import Randomness
import StateEstimation
import Testing

@Suite("Kalman filter: replacing one state's marginal")
struct KalmanFilterMarginalTests {
    /// A filter of 2 to 6 random-walk states (`trial` picks how many) at a random mean x and covariance P, and the
    /// state i = `trial` mod n whose marginal a test replaces.
    static func randomFilter(trial: Int, using generator: inout SeededGenerator) throws
        -> (filter: KalmanFilter<BlockDiagonalModel>, mean: [Double], covariance: Matrix, index: Int)
    {
        let n = 2 + trial % 5
        let p = TestSupport.randomSPD(n, scale: 3, using: &generator)
        let x = (0..<n).map { _ in generator.gaussian() }
        let model = try BlockDiagonalModel((0..<n).map { _ in .randomWalk(noiseDensity: 0.1) })
        return (try KalmanFilter(model: model, time: 0, mean: x, covariance: p), x, p, trial % n)
    }

    @Test("The new marginal is in place, the others' conditional on it is kept, and P stays positive definite")
    func keepsConditional() throws {
        var generator = SeededGenerator(seed: 21)
        for trial in 0..<50 {
            var (filter, x, p, i) = try Self.randomFilter(trial: trial, using: &generator)
            let n = x.count
            let m = generator.gaussian() * 3, v = 0.1 + generator.uniform() * 5
            try filter.replaceMarginal(of: i, mean: m, variance: v)
            #expect(abs(filter.mean[i, 0] - m) < 1e-12 && abs(filter.covariance[i, i] - v) < 1e-12 * v)
            #expect(TestSupport.isPositiveDefinite(filter.covariance), "trial \(trial)")
            // E[x_r | x_i = a] and Cov[x_r, x_s | x_i], before and after, at a few values a.
            for a in [-2.0, 0.5, 4.0] {
                for r in 0..<n where r != i {
                    let before = x[r] + p[r, i] / p[i, i] * (a - x[i])
                    let after = filter.mean[r, 0] + filter.covariance[r, i] / v * (a - m)
                    #expect(abs(before - after) < 1e-9 * max(1, abs(before)), "trial \(trial), E[x\(r) | x\(i)]")
                    for s in 0..<n where s != i {
                        let c0 = p[r, s] - p[r, i] * p[i, s] / p[i, i]
                        let c1 = filter.covariance[r, s] - filter.covariance[r, i] * filter.covariance[i, s] / v
                        #expect(abs(c0 - c1) < 1e-9 * max(1, p[r, r]), "trial \(trial), Cov[x\(r), x\(s) | x\(i)]")
                    }
                }
            }
        }
    }

    @Test(
        "Widening along a direction: P' = P + d dᵀ (v − Pᵢᵢ), the mean along the widened regression; narrowing as without it"
    )
    func widensAlongDirection() throws {
        var generator = SeededGenerator(seed: 22)
        for trial in 0..<50 {
            let (start, x, p, i) = try Self.randomFilter(trial: trial, using: &generator)
            let n = x.count
            var d = (0..<n).map { _ in generator.gaussian() * 4 }
            d[i] = 1
            let m = generator.gaussian() * 3
            // Narrower: the same bits as `replaceMarginal(of:mean:variance:)`.
            var plain = start, along = start
            try plain.replaceMarginal(of: i, mean: m, variance: p[i, i] / 2)
            try along.replaceMarginal(of: i, mean: m, variance: p[i, i] / 2, wideningAlong: d)
            #expect(plain.mean == along.mean && plain.covariance == along.covariance, "trial \(trial)")
            // Wider: the widening along d, then the mean conditioned on the widened Gaussian.
            let v = p[i, i] * (2 + generator.uniform() * 1e4)
            var filter = start
            try filter.replaceMarginal(of: i, mean: m, variance: v, wideningAlong: d)
            #expect(TestSupport.isPositiveDefinite(filter.covariance), "trial \(trial)")
            for r in 0..<n {
                for c in 0..<n {
                    let expected = p[r, c] + d[r] * d[c] * (v - p[i, i])
                    #expect(abs(filter.covariance[r, c] - expected) <= 1e-9 * max(1, abs(expected)), "trial \(trial)")
                }
                let expected = x[r] + (p[r, i] + d[r] * (v - p[i, i])) / v * (m - x[i])
                #expect(abs(filter.mean[r, 0] - expected) <= 1e-9 * max(1, abs(expected)), "trial \(trial)")
            }
        }
    }

    @Test("A variance that is not positive, or a direction that is not finite, is refused and the filter is unchanged")
    func refusesBadVariance() throws {
        var filter = try KalmanFilter(
            model: try BlockDiagonalModel([.randomWalk(noiseDensity: 0.1), .randomWalk(noiseDensity: 0.1)]), time: 0,
            mean: [1, 2], covariance: Matrix(rows: 2, columns: 2, columnMajor: [2, 0.5, 0.5, 1]))
        let before = filter.checkpoint
        #expect(throws: EstimationError.self) { try filter.replaceMarginal(of: 0, mean: 0, variance: 0) }
        #expect(throws: EstimationError.self) { try filter.replaceMarginal(of: 1, mean: .nan, variance: 1) }
        #expect(throws: EstimationError.self) {
            try filter.replaceMarginal(of: 0, mean: 0, variance: 5, wideningAlong: [1, .nan])
        }
        #expect(throws: EstimationError.self) {
            try filter.replaceMarginal(of: 0, mean: 0, variance: 5, wideningAlong: [1, 1e300])
        }
        #expect(filter.checkpoint == before)
    }
}
