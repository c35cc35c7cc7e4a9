import Foundation
import LinearAlgebra
import Randomness
import StateEstimation

/// Helpers shared by the StateEstimation tests: random models, textbook references, comparisons.
enum TestSupport {
    /// A random matrix of standard normal draws.
    static func randomMatrix(rows: Int, columns: Int, using generator: inout SeededGenerator) -> Matrix {
        Matrix(rows: rows, columns: columns, columnMajor: (0..<(rows * columns)).map { _ in generator.gaussian() })
    }

    /// A random symmetric positive definite matrix G Gᵀ + εI scaled by `scale`.
    static func randomSPD(_ n: Int, scale: Double = 1, using generator: inout SeededGenerator) -> Matrix {
        let g = randomMatrix(rows: n, columns: n, using: &generator)
        var p = scale * (g * g.transposed + 0.1 * Matrix.identity(n))
        p.symmetrize()
        return p
    }

    /// Whether the symmetric matrix is positive definite (Cholesky succeeds).
    static func isPositiveDefinite(_ p: Matrix) -> Bool {
        (try? p.choleskyFactor()) != nil
    }

    /// The largest |a − b| / max(|b|, floor) over the elements.
    static func maxRelativeDifference(_ a: Matrix, _ b: Matrix, floor: Double = 1e-300) -> Double {
        precondition(a.rows == b.rows && a.columns == b.columns)
        var worst = 0.0
        for i in a.elements.indices {
            worst = max(worst, abs(a.elements[i] - b.elements[i]) / max(abs(b.elements[i]), floor))
        }
        return worst
    }

    /// The textbook (short-form) update for a reference: K = P Hᵀ S⁻¹, x + K y, P − K S Kᵀ, with S⁻¹ by LU.
    static func shortFormUpdate(mean x: Matrix, covariance p: Matrix, h: Matrix, r: Matrix, z: Matrix) throws -> (
        Matrix, Matrix
    ) {
        let s = h * p * h.transposed + r
        let kt = try s.solve(h * p)  // S Kᵀ = H P
        let k = kt.transposed
        let y = z - h * x
        var newP = p - k * s * kt
        newP.symmetrize()
        return (x + k * y, newP)
    }

    /// A random block-diagonal model of dimension about n, for property tests.
    static func randomModel(using generator: inout SeededGenerator) throws -> BlockDiagonalModel {
        var blocks: [StateBlock] = []
        var n = 0
        let target = 2 + Int(generator.next() % 4)
        while n < target {
            switch generator.next() % 3 {
            case 0: blocks.append(.randomWalk(noiseDensity: 0.01 + generator.uniform()))
            case 1:
                blocks.append(
                    .gaussMarkov(
                        standardDeviation: 0.5 + 3 * generator.uniform(), correlationTime: 1 + 50 * generator.uniform())
                )
            default: blocks.append(.constantVelocity(accelerationNoiseDensity: 0.01 + generator.uniform()))
            }
            n += blocks.last?.stateCount ?? 0
        }
        return try BlockDiagonalModel(blocks)
    }

    /// A random observation matrix (m x n) with no zero row.
    static func randomObservation(rows m: Int, columns n: Int, using generator: inout SeededGenerator) -> Matrix {
        var h = randomMatrix(rows: m, columns: n, using: &generator)
        for i in 0..<m { h[i, i % n] += 1 }
        return h
    }

    /// Draws from N(mean, covariance) via the Cholesky factor.
    static func draw(mean: Matrix, covariance: Matrix, using generator: inout SeededGenerator) -> Matrix {
        let n = mean.rows
        let l = (try? covariance.choleskyFactor()) ?? Matrix(rows: n, columns: n)
        let w = Matrix(column: (0..<n).map { _ in generator.gaussian() })
        return mean + l * w
    }

    /// Loads a JSON fixture from the test bundle's Fixtures directory.
    static func fixtureData(_ name: String) throws -> Data {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures") else {
            throw FixtureMissing(name: name)
        }
        return try Data(contentsOf: url)
    }

    struct FixtureMissing: Error { var name: String }
}
