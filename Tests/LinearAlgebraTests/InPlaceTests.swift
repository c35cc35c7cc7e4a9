import LinearAlgebra
import Randomness
import Testing

@Suite("In-place operations")
struct InPlaceTests {
    @Test("assign, load, store, setZero, setIdentity, add and scale write into the matrix's own storage")
    func elementOperations() {
        let source = Matrix([[1, 2], [3, 4]])
        var a = Matrix(rows: 2, columns: 2)
        a.assign(source)
        #expect(a == source)
        var flat = [9.0, 9, 9, 9, 9, 9]
        a.store(into: &flat, at: 1)
        #expect(flat == [9, 1, 3, 2, 4, 9])
        var b = Matrix(rows: 2, columns: 2)
        b.load(from: flat, at: 1)
        #expect(b == source)
        b.add(source, scaledBy: -2)
        #expect(b == -1 * source)
        b.scale(by: -3)
        #expect(b == 3 * source)
        b.setIdentity()
        #expect(b == .identity(2))
        b.setZero()
        #expect(b == Matrix(rows: 2, columns: 2))
        #expect(
            source.allElementsFinite && !Matrix([[1, .nan]]).allElementsFinite
                && !Matrix([[.infinity]]).allElementsFinite)
    }

    @Test(
        "overwriteWithCholeskyFactor gives formCholeskyFactor's factor, bit for bit",
        arguments: Array(1...15) as [UInt64])
    func cholesky(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let a = NaiveReference.randomSPD(1 + Int(seed % 6), using: &random)
        var inPlace = a
        try inPlace.overwriteWithCholeskyFactor()
        #expect(inPlace == (try a.choleskyFactor()), "seed \(seed)")
        var upper = a
        try upper.overwriteWithCholeskyFactor(.upper)
        #expect(upper == (try a.choleskyFactor(.upper)), "seed \(seed)")
    }

    @Test("overwriteWithCholeskyFactor names the failing leading minor")
    func choleskyFailure() {
        var a = Matrix([[4, 2, 0], [2, 1, 0], [0, 0, 1]])
        #expect(throws: LinearAlgebraError.notPositiveDefinite(routine: "dpotrf", leadingMinor: 2)) {
            try a.overwriteWithCholeskyFactor()
        }
        var b = Matrix([[1, .nan], [.nan, 1]])
        #expect(throws: LinearAlgebraError.nonFinite(routine: "dpotrf")) { try b.overwriteWithCholeskyFactor() }
    }
}
