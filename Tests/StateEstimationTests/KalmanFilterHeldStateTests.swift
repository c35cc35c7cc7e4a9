import Foundation
import LinearAlgebra
import Randomness
import StateEstimation
import Testing

/// The scalar update with a held state (a Schmidt, or "consider", update): the held state's gain is zero, and the
/// covariance is the Joseph form of that gain.
@Suite("Kalman filter held state")
struct KalmanFilterHeldStateTests {
    static let cases: [(stateCount: Int, seed: UInt64)] = (2...6).flatMap { n in
        (1...6).map { (n, UInt64(50 * n + $0)) }
    }

    @Test(
        "A held state keeps its mean and variance; the covariance is (I − K h) P (I − K h)ᵀ + K r Kᵀ with its gain zero",
        arguments: cases)
    func heldStateUpdate(stateCount n: Int, seed: UInt64) throws {
        // GIVEN a random filter, a dense observation row and a state to hold
        var g = SeededGenerator(seed: seed)
        let p = TestSupport.randomSPD(n, using: &g)
        let x = (0..<n).map { _ in g.gaussian() }
        let row = (0..<n).map { _ in g.gaussian() }
        let held = Int(g.uniform() * Double(n)) % n
        let z = g.gaussian(), r = 0.3
        let model = KalmanFilterKernelTests.FixedModel(
            transition: .identity(n), processNoise: Matrix(rows: n, columns: n))
        var filter = try KalmanFilter(model: model, time: 0, mean: x, covariance: p)
        // WHEN it takes the measurement holding that state
        let record = try filter.update(z, kind: LinearMeasurement(observationRow: row), variance: r, held: held)
        // THEN the held state's mean and variance are unchanged, to the bit
        #expect(filter.mean[held, 0].bitPattern == x[held].bitPattern, "seed \(seed)")
        #expect(filter.covariance[held, held].bitPattern == p[held, held].bitPattern, "seed \(seed)")
        // and the rest is the Schmidt update computed directly: u = P hᵀ, S = h u + r, K = u / S with K_held = 0
        var u = [Double](repeating: 0, count: n)
        for i in 0..<n { for l in 0..<n { u[i] += p[i, l] * row[l] } }
        let s = zip(row, u).reduce(0) { $0 + $1.0 * $1.1 } + r
        #expect(abs(record.innovationVariance - s) <= 1e-12 * s, "seed \(seed)")
        var k = u.map { $0 / s }
        k[held] = 0
        let y = z - zip(row, x).reduce(0) { $0 + $1.0 * $1.1 }
        var a = Matrix.identity(n)  // I − K h
        for i in 0..<n { for l in 0..<n { a[i, l] -= k[i] * row[l] } }
        for i in 0..<n {
            #expect(abs(filter.mean[i, 0] - (x[i] + k[i] * y)) <= 1e-12 * (1 + abs(x[i])), "seed \(seed), state \(i)")
            for j in 0..<n {
                var joseph = r * k[i] * k[j]
                for l in 0..<n { for m in 0..<n { joseph += a[i, l] * p[l, m] * a[j, m] } }
                #expect(
                    abs(filter.covariance[i, j] - joseph) <= 1e-11 * (1 + abs(joseph)), "seed \(seed), (\(i), \(j))")
            }
        }
    }
}
