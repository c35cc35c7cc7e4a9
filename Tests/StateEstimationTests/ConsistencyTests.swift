import Foundation
import LinearAlgebra
import Randomness
import StateEstimation
import Testing

/// Monte Carlo consistency on simulated linear models (Bar-Shalom, Li and Kirubarajan, §5.4): the filter's
/// covariance is honest when the normalised estimation error squared (NEES) and the normalised innovation squared
/// (NIS), averaged over N independent runs, fall inside the two-sided 95% interval of χ²(N d) / N.
@Suite("Monte Carlo consistency")
struct ConsistencyTests {
    static let runs = 100
    static let steps = 60

    /// Simulates `runs` truths and filters of a random-walk + Gauss-Markov + constant-velocity model with
    /// irregular steps and two scalar measurement kinds; returns, per step, the NEES and NIS summed over runs.
    static func simulate(seed: UInt64) throws -> (nees: [Double], nis: [Double], n: Int) {
        var random = SeededGenerator(seed: seed)
        let model = try BlockDiagonalModel([
            .randomWalk(noiseDensity: 0.4),
            .gaussMarkov(standardDeviation: 2, correlationTime: 8),
            .constantVelocity(accelerationNoiseDensity: 0.05),
        ])
        let n = model.stateCount
        let kinds = [
            LinearMeasurement(observationRow: [1, 1, 0, 0]), LinearMeasurement(observationRow: [1, 0, 1, 0]),
        ]
        let x0 = Matrix(column: [10, 0, 0, 0.5])
        let p0 = Matrix.diagonal([9, 4, 1, 0.25])
        var nees = Array(repeating: 0.0, count: steps)
        var nis = Array(repeating: 0.0, count: steps)
        var f = Matrix(rows: n, columns: n), q = f
        for _ in 0..<runs {
            var truth = TestSupport.draw(mean: x0, covariance: p0, using: &random)
            var filter = try KalmanFilter(model: model, time: 0, mean: x0.elements, covariance: p0)
            var time = 0.0
            for step in 0..<steps {
                let dt = 0.2 + 2 * random.uniform()
                time += dt
                f.setZero()
                q.setZero()
                model.discretize(over: dt, transition: &f, processNoise: &q)
                truth = TestSupport.draw(mean: f * truth, covariance: q, using: &random)
                try filter.predict(to: time)
                let kind = kinds[step % 2]
                let variance = 0.5 + 3 * random.uniform()
                let z = (kind.observationMatrix * truth)[0, 0] + variance.squareRoot() * random.gaussian()
                nis[step] += try filter.update(z, kind: kind, variance: variance).normalizedInnovationSquared
                let error = truth - filter.mean
                var solved = error
                try filter.covariance.choleskyFactor().solveWithCholeskyFactor(&solved)
                nees[step] += (error.transposed * solved)[0, 0]
            }
        }
        return (nees, nis, n)
    }

    /// The fraction of steps whose run-averaged statistic lies inside the 95% interval for `dimension` per run.
    static func fractionInside(_ sums: [Double], dimension: Int) -> Double {
        let dof = runs * dimension
        let low = ChiSquare.quantile(probability: 0.025, degreesOfFreedom: dof) / Double(runs)
        let high = ChiSquare.quantile(probability: 0.975, degreesOfFreedom: dof) / Double(runs)
        let inside = sums.filter { $0 / Double(runs) >= low && $0 / Double(runs) <= high }.count
        return Double(inside) / Double(sums.count)
    }

    @Test(
        "Mean NEES and NIS lie in the 95% chi-square interval at about 95% of steps",
        arguments: [11, 12, 13] as [UInt64])
    func neesAndNis(seed: UInt64) throws {
        let (nees, nis, n) = try Self.simulate(seed: seed)
        // With 60 steps a correct filter falls outside at about 3 of them; 85% leaves room for chance.
        #expect(Self.fractionInside(nees, dimension: n) >= 0.85, "seed \(seed): NEES")
        #expect(Self.fractionInside(nis, dimension: 1) >= 0.85, "seed \(seed): NIS")
        // Over all steps, the averages are within the 95% interval of their (larger) number of degrees of freedom.
        let total = Double(Self.runs * Self.steps)
        for (sums, d, name) in [(nees, n, "NEES"), (nis, 1, "NIS")] {
            let dof = Self.runs * Self.steps * d
            let mean = sums.reduce(0, +) / total
            let low = ChiSquare.quantile(probability: 0.0005, degreesOfFreedom: dof) / total
            let high = ChiSquare.quantile(probability: 0.9995, degreesOfFreedom: dof) / total
            #expect(mean >= low && mean <= high, "seed \(seed): mean \(name) \(mean) outside [\(low), \(high)]")
        }
    }

    @Test("A filter that understates its process noise fails the NEES test")
    func inconsistentFilterIsCaught() throws {
        // GIVEN a truth driven by process noise 100 times what the filter assumes
        var random = SeededGenerator(seed: 5)
        let truthModel = try BlockDiagonalModel([.randomWalk(noiseDensity: 1)])
        let filterModel = try BlockDiagonalModel([.randomWalk(noiseDensity: 0.01)])
        var sums = Array(repeating: 0.0, count: 30)
        var f = Matrix(rows: 1, columns: 1), q = f
        for _ in 0..<Self.runs {
            var truth = 0.0
            var filter = try KalmanFilter(model: filterModel, time: 0, mean: [0], covariance: .identity(1))
            for step in 0..<30 {
                truthModel.discretize(over: 1, transition: &f, processNoise: &q)
                truth += q[0, 0].squareRoot() * random.gaussian()
                try filter.predict(to: Double(step + 1))
                try filter.update(truth + random.gaussian(), kind: LinearMeasurement(observationRow: [1]), variance: 1)
                let error = truth - filter.mean[0, 0]
                sums[step] += error * error / filter.covariance[0, 0]
            }
        }
        // THEN most steps fall outside the interval
        #expect(Self.fractionInside(sums, dimension: 1) < 0.5)
    }
}
