import LinearAlgebra
import Randomness
import Testing

/// The loop kernels against BLAS and the naive reference, over many seeds.
@Suite("Small products by loops")
struct SmallProductsTests {
    static let seeds: [UInt64] = Array(1...25)

    @Test("multiplyByLoops agrees with dgemm for every transposition, α and β", arguments: seeds)
    func agreesWithGemm(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let m = 1 + Int(seed % 5), k = 1 + Int(seed % 3), n = 1 + Int(seed % 4)
        let a = NaiveReference.random(rows: m, columns: k, using: &random)
        let b = NaiveReference.random(rows: k, columns: n, using: &random)
        let start = NaiveReference.random(rows: m, columns: n, using: &random)
        for (ta, tb) in [
            (Transposition.none, Transposition.none), (.transposed, .none), (.none, .transposed),
            (.transposed, .transposed),
        ] {
            let opA = ta == .none ? a : a.transposed
            let opB = tb == .none ? b : b.transposed
            var loops = start, blas = start
            Matrix.multiplyByLoops(opA, ta, opB, tb, into: &loops, alpha: -0.7, beta: 1.3)
            Matrix.multiply(opA, ta, opB, tb, into: &blas, alpha: -0.7, beta: 1.3)
            #expect(NaiveReference.maxDifference(loops, blas) < 1e-13, "seed \(seed), \(ta), \(tb)")
        }
        var c = Matrix(rows: m, columns: n, repeating: .nan)
        Matrix.multiplyByLoops(a, .none, b, .none, into: &c)
        #expect(
            NaiveReference.maxDifference(c, NaiveReference.product(a, b)) < 1e-13, "β = 0 ignores NaN, seed \(seed)")
    }

    @Test("formCongruence is A B Aᵀ + β C, exactly symmetric", arguments: seeds)
    func congruence(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let n = 1 + Int(seed % 6), m = 1 + Int(seed % 4)
        let a = NaiveReference.random(rows: m, columns: n, using: &random)
        let b = NaiveReference.randomSPD(n, using: &random)
        let c0 = NaiveReference.randomSPD(m, using: &random)
        var c = c0
        var workspace = Matrix(rows: m, columns: n)
        Matrix.formCongruence(a, .none, b, into: &c, workspace: &workspace, beta: 2)
        let expected = NaiveReference.product(NaiveReference.product(a, b), a.transposed) + 2 * c0
        #expect(NaiveReference.maxDifference(c, expected) < 1e-11, "seed \(seed)")
        #expect(c.asymmetry == 0, "seed \(seed)")
        var t = Matrix(rows: m, columns: m, repeating: .nan)
        Matrix.formCongruence(a.transposed, .transposed, b, into: &t, workspace: &workspace)
        #expect(NaiveReference.maxDifference(t, expected - 2 * c0) < 1e-11, "transposed, seed \(seed)")
    }

    @Test("formJosephUpdate is (I − k h) P (I − k h)ᵀ + r k kᵀ for any gain", arguments: seeds)
    func joseph(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let n = 1 + Int(seed % 6)
        let p = NaiveReference.randomSPD(n, using: &random)
        let k = NaiveReference.random(rows: n, columns: 1, using: &random)
        let h = NaiveReference.random(rows: 1, columns: n, using: &random)
        let r = 0.3 + random.uniform()
        var c = Matrix(rows: n, columns: n, repeating: .nan)
        var workspace = Matrix(rows: n, columns: n + 1)
        Matrix.formJosephUpdate(p, gain: k, observationRow: h, noiseVariance: r, into: &c, workspace: &workspace)
        let a = Matrix.identity(n) - NaiveReference.product(k, h)
        let expected =
            NaiveReference.product(NaiveReference.product(a, p), a.transposed) + r
            * NaiveReference.product(k, k.transposed)
        #expect(NaiveReference.maxDifference(c, expected) < 1e-10, "seed \(seed)")
        #expect(c.asymmetry == 0, "seed \(seed)")
    }
}
