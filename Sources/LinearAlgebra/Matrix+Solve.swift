internal import CLAPACK

extension Matrix {
    /// Solves the general square system A X = B by LU factorisation with partial pivoting (LAPACK `dgesv`).
    ///
    /// For symmetric positive definite A prefer `choleskyFactor()` and `solveWithCholeskyFactor(_:)`,
    /// which is twice as fast and fails loudly when A is not positive definite.
    ///
    /// - Parameter b: the right-hand sides B (n x k).
    /// - Returns: the solution X (n x k).
    /// - Throws: `.singular` with the first zero pivot; `.dimensionMismatch`; `.nonFinite`.
    /// - Complexity: 2n³/3 + 2 n² k flops.
    public func solve(_ b: Matrix) throws(LinearAlgebraError) -> Matrix {
        guard isSquare, b.rows == rows else {
            throw .dimensionMismatch(routine: "dgesv", detail: "A is \(rows)x\(columns), B is \(b.rows)x\(b.columns)")
        }
        guard isFinite, b.isFinite else { throw .nonFinite(routine: "dgesv") }
        if rows == 0 || b.columns == 0 { return b }
        var lu = self
        var x = b
        var pivots = [Int32](repeating: 0, count: rows)
        var n = Int32(rows), nrhs = Int32(b.columns), lda = Int32(rows), ldb = Int32(rows), info: Int32 = 0
        lu.elements.withUnsafeMutableBufferPointer { a in
            pivots.withUnsafeMutableBufferPointer { p in
                x.elements.withUnsafeMutableBufferPointer { bp in
                    dgesv_(&n, &nrhs, a.baseAddress, &lda, p.baseAddress, bp.baseAddress, &ldb, &info)
                }
            }
        }
        try Self.check(info, routine: "dgesv")
        return x
    }
}
