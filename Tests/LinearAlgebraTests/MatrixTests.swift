import Foundation
import LinearAlgebra
import Testing

@Suite("Matrix")
struct MatrixTests {
    @Test("Storage is column-major: element (i, j) sits at i + j * rows")
    func columnMajorLayout() {
        let m = Matrix([[1, 2, 3], [4, 5, 6]])
        #expect(m.rows == 2 && m.columns == 3)
        #expect(m.elements == [1, 4, 2, 5, 3, 6])
        #expect(m[1, 2] == 6)
        #expect(m.transposed.rowArrays == [[1, 4], [2, 5], [3, 6]])
    }

    @Test("Symmetrize averages the off-diagonal halves and asymmetry measures them")
    func symmetrize() {
        var m = Matrix([[1, 2], [4, 3]])
        #expect(m.asymmetry == 2)
        m.symmetrize()
        #expect(m.rowArrays == [[1, 3], [3, 3]])
        #expect(m.asymmetry == 0)
    }

    @Test("Matrices survive a Codable round trip bit for bit")
    func codable() throws {
        let m = Matrix([[0.1, 1e-300], [-2.5e200, 3]])
        let data = try JSONEncoder().encode(m)
        #expect(try JSONDecoder().decode(Matrix.self, from: data) == m)
    }
}
