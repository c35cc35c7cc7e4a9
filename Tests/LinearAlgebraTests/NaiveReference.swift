import LinearAlgebra
import Randomness

/// Textbook triple loops and an unpivoted Cholesky, written independently of LAPACK, to check the wrapper.
enum NaiveReference {
    static func product(_ a: Matrix, _ b: Matrix) -> Matrix {
        var c = Matrix(rows: a.rows, columns: b.columns)
        for i in 0..<a.rows {
            for j in 0..<b.columns {
                var sum = 0.0
                for k in 0..<a.columns { sum += a[i, k] * b[k, j] }
                c[i, j] = sum
            }
        }
        return c
    }

    /// The Cholesky-Banachiewicz algorithm: L with A = L Lᵀ.
    static func cholesky(_ a: Matrix) -> Matrix {
        let n = a.rows
        var l = Matrix(rows: n, columns: n)
        for i in 0..<n {
            for j in 0...i {
                var sum = a[i, j]
                for k in 0..<j { sum -= l[i, k] * l[j, k] }
                l[i, j] = i == j ? sum.squareRoot() : sum / l[j, j]
            }
        }
        return l
    }

    static func random(rows: Int, columns: Int, using generator: inout SeededGenerator) -> Matrix {
        Matrix(rows: rows, columns: columns, columnMajor: (0..<(rows * columns)).map { _ in generator.gaussian() })
    }

    /// A random symmetric positive definite matrix, G Gᵀ + n I.
    static func randomSPD(_ n: Int, using generator: inout SeededGenerator) -> Matrix {
        let g = random(rows: n, columns: n, using: &generator)
        return product(g, g.transposed) + Double(n) * Matrix.identity(n)
    }

    static func maxDifference(_ a: Matrix, _ b: Matrix) -> Double {
        zip(a.elements, b.elements).map { abs($0 - $1) }.max() ?? 0
    }
}
