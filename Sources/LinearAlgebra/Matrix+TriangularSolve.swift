internal import CLAPACK

extension Matrix {
    /// Triangular solve in place (BLAS `dtrsm`): B ← α op(A)⁻¹ B (left) or B ← α B op(A)⁻¹ (right).
    ///
    /// Nothing is inverted: the solve is back or forward substitution with the triangle of A.
    ///
    /// - Parameters:
    ///   - a: the triangular matrix A; only `triangle` is read.
    ///   - b: the right-hand sides on entry, the solution on return.
    ///   - side: whether op(A) multiplies the solution from the left or from the right.
    ///   - triangle: which triangle of A holds it.
    ///   - transposeA: op(A) = A or Aᵀ.
    ///   - diagonal: whether A's diagonal is stored or taken as ones.
    ///   - alpha: α, the scale of the right-hand sides.
    /// - Throws: `.dimensionMismatch` if the shapes disagree, `.singular` if a diagonal element of A is zero
    ///   (reference BLAS would divide by it silently).
    /// - Complexity: n² k flops.
    public static func solveTriangular(
        _ a: Matrix, _ b: inout Matrix,
        side: Side = .left, triangle: Triangle = .lower, transposeA: Transposition = .none,
        diagonal: Diagonal = .nonUnit, alpha: Double = 1
    ) throws(LinearAlgebraError) {
        let order = side == .left ? b.rows : b.columns
        guard a.isSquare, a.rows == order else {
            throw .dimensionMismatch(
                routine: "dtrsm", detail: "A is \(a.rows)x\(a.columns), B is \(b.rows)x\(b.columns)")
        }
        if b.rows == 0 || b.columns == 0 { return }
        if diagonal == .nonUnit {
            for i in 0..<a.rows where a.elements[i + i * a.rows] == 0 {
                throw .singular(routine: "dtrsm", pivot: i + 1)
            }
        }
        var sideC = side.character, uplo = triangle.character, trans = transposeA.character, diag = diagonal.character
        var m = Int32(b.rows), n = Int32(b.columns)
        var alpha = alpha
        var lda = Int32(a.rows), ldb = Int32(b.rows)
        a.elements.withUnsafeBufferPointer { ap in
            b.elements.withUnsafeMutableBufferPointer { bp in
                dtrsm_(
                    &sideC, &uplo, &trans, &diag, &m, &n, &alpha, ap.baseAddress, &lda, bp.baseAddress, &ldb, 1, 1, 1, 1
                )
            }
        }
    }
}
