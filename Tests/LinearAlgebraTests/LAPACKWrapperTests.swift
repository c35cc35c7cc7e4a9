import LinearAlgebra
import Randomness
import Testing

/// The wrapper against the naive reference on random matrices, over many seeds.
@Suite("LAPACK wrapper")
struct LAPACKWrapperTests {
    static let seeds: [UInt64] = Array(1...25)

    @Test("dgemm agrees with the triple loop, for every transposition", arguments: seeds)
    func gemm(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let a = NaiveReference.random(rows: 4, columns: 3, using: &random)
        let b = NaiveReference.random(rows: 3, columns: 5, using: &random)
        let expected = NaiveReference.product(a, b)
        #expect(NaiveReference.maxDifference(Matrix.product(a, .none, b, .none), expected) < 1e-12, "seed \(seed)")
        #expect(NaiveReference.maxDifference(Matrix.product(a.transposed, .transposed, b, .none), expected) < 1e-12)
        #expect(NaiveReference.maxDifference(Matrix.product(a, .none, b.transposed, .transposed), expected) < 1e-12)
        var c = Matrix(rows: 4, columns: 5, repeating: 1)
        Matrix.multiply(a, .none, b, .none, into: &c, alpha: 2, beta: -1)
        #expect(NaiveReference.maxDifference(c, 2 * expected - Matrix(rows: 4, columns: 5, repeating: 1)) < 1e-12)
    }

    @Test("dsyrk forms A Aᵀ in the lower triangle", arguments: seeds)
    func syrk(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let a = NaiveReference.random(rows: 4, columns: 6, using: &random)
        var c = Matrix(rows: 4, columns: 4)
        Matrix.rankKUpdate(a, into: &c)
        c.mirrorLowerToUpper()
        #expect(NaiveReference.maxDifference(c, NaiveReference.product(a, a.transposed)) < 1e-12, "seed \(seed)")
        #expect(c.asymmetry == 0)
    }

    @Test("dpotrf equals the Cholesky-Banachiewicz factor and dpotrs solves", arguments: seeds)
    func cholesky(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let n = 1 + Int(seed % 6)
        let a = NaiveReference.randomSPD(n, using: &random)
        let l = try a.choleskyFactor()
        #expect(NaiveReference.maxDifference(l, NaiveReference.cholesky(a)) < 1e-10, "seed \(seed)")
        let upper = try a.choleskyFactor(.upper)
        #expect(NaiveReference.maxDifference(upper, l.transposed) < 1e-10)
        let b = NaiveReference.random(rows: n, columns: 2, using: &random)
        var x = b
        try l.solveWithCholeskyFactor(&x)
        #expect(NaiveReference.maxDifference(NaiveReference.product(a, x), b) < 1e-9, "seed \(seed)")
    }

    @Test("dtrsm solves with the triangle, from the left and the right", arguments: seeds)
    func trsm(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let l = NaiveReference.cholesky(NaiveReference.randomSPD(4, using: &random))
        let b = NaiveReference.random(rows: 4, columns: 3, using: &random)
        var x = b
        try Matrix.solveTriangular(l, &x)
        #expect(NaiveReference.maxDifference(NaiveReference.product(l, x), b) < 1e-10, "seed \(seed)")
        var y = b.transposed
        try Matrix.solveTriangular(l, &y, side: .right, transposeA: .transposed)
        #expect(NaiveReference.maxDifference(NaiveReference.product(y, l.transposed), b.transposed) < 1e-10)
    }

    @Test("dgeqrf's R satisfies RᵀR = AᵀA", arguments: seeds)
    func qr(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let a = NaiveReference.random(rows: 7, columns: 4, using: &random)
        let r = try a.qrUpperTriangularFactor()
        #expect(r.rows == 4 && r.columns == 4)
        for j in 0..<4 { for i in (j + 1)..<4 { #expect(r[i, j] == 0) } }
        let expected = NaiveReference.product(a.transposed, a)
        #expect(NaiveReference.maxDifference(NaiveReference.product(r.transposed, r), expected) < 1e-10, "seed \(seed)")
    }

    @Test("dgesv solves a general system", arguments: seeds)
    func gesv(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let a = NaiveReference.random(rows: 5, columns: 5, using: &random)
        let b = NaiveReference.random(rows: 5, columns: 2, using: &random)
        let x = try a.solve(b)
        #expect(NaiveReference.maxDifference(NaiveReference.product(a, x), b) < 1e-9, "seed \(seed)")
    }

    @Test("A matrix that is not positive definite names the failing minor and is left unchanged")
    func notPositiveDefinite() {
        var a = Matrix([[4, 2, 0], [2, 1, 0], [0, 0, 1]])
        let before = a
        #expect(throws: LinearAlgebraError.notPositiveDefinite(routine: "dpotrf", leadingMinor: 2)) {
            try a.formCholeskyFactor()
        }
        #expect(a == before)
        let error = LinearAlgebraError.notPositiveDefinite(routine: "dpotrf", leadingMinor: 2)
        #expect(error.description.contains("dpotrf") && error.description.contains("order 2"))
    }

    @Test("Singular, non-finite and mismatched operands are typed errors")
    func otherErrors() {
        #expect(throws: LinearAlgebraError.singular(routine: "dgesv", pivot: 2)) {
            try Matrix([[1, 2], [2, 4]]).solve(Matrix(column: [1, 1]))
        }
        #expect(throws: LinearAlgebraError.nonFinite(routine: "dpotrf")) {
            try Matrix([[Double.nan]]).choleskyFactor()
        }
        #expect(throws: LinearAlgebraError.self) {
            try Matrix.identity(2).solve(Matrix(column: [1, 2, 3]))
        }
        var b = Matrix(column: [1, 1])
        #expect(throws: LinearAlgebraError.singular(routine: "dtrsm", pivot: 1)) {
            try Matrix.solveTriangular(Matrix([[0, 0], [1, 1]]), &b)
        }
    }
}
