internal import CLAPACK

extension Matrix {
    /// Replaces a symmetric positive definite matrix A by its Cholesky factor (LAPACK `dpotrf`).
    ///
    /// With `.lower`, A = L Lᵀ and the lower triangle receives L; with `.upper`, A = Uᵀ U and the upper triangle
    /// receives U. Only that triangle of A is read. The other triangle is set to zero, so the result is the
    /// factor itself.
    ///
    /// - Parameter triangle: the triangle of A that is read and receives the factor: `.lower` for L, `.upper` for U.
    /// - Throws: `LinearAlgebraError.notPositiveDefinite` with the order of the first leading minor that is not
    ///   positive; `.nonFinite` if A holds NaN or infinity. On a throw the matrix is unchanged.
    /// - Complexity: n³/3 flops.
    public mutating func formCholeskyFactor(_ triangle: Triangle = .lower) throws(LinearAlgebraError) {
        guard isSquare else {
            throw .dimensionMismatch(routine: "dpotrf", detail: "matrix is \(rows)x\(columns), not square")
        }
        guard isFinite else { throw .nonFinite(routine: "dpotrf") }
        if rows == 0 { return }
        var factor = self
        var uplo = triangle.character
        var n = Int32(rows)
        var lda = Int32(rows)
        var info: Int32 = 0
        factor.elements.withUnsafeMutableBufferPointer { a in
            dpotrf_(&uplo, &n, a.baseAddress, &lda, &info, 1)
        }
        try Self.check(info, routine: "dpotrf")
        for j in 0..<columns {
            for i in 0..<rows where triangle == .lower ? i < j : i > j { factor.elements[i + j * rows] = 0 }
        }
        self = factor
    }

    /// The Cholesky factor of this symmetric positive definite matrix, leaving the matrix itself unchanged.
    ///
    /// - Parameter triangle: `.lower` for the factor L with A = L Lᵀ, `.upper` for U with A = Uᵀ U; the other triangle
    ///   is zero.
    /// - Throws: as `formCholeskyFactor(_:)`.
    public func choleskyFactor(_ triangle: Triangle = .lower) throws(LinearAlgebraError) -> Matrix {
        var factor = self
        try factor.formCholeskyFactor(triangle)
        return factor
    }

    /// Solves A X = B in place, where `self` holds the Cholesky factor of A from `formCholeskyFactor` (LAPACK `dpotrs`).
    ///
    /// - Parameters:
    ///   - b: the right-hand sides B (n x k) on entry, the solution X on return.
    ///   - triangle: the triangle that holds the factor.
    /// - Throws: `.dimensionMismatch` if B's rows differ from A's order.
    /// - Complexity: 2 n² k flops.
    public func solveWithCholeskyFactor(_ b: inout Matrix, triangle: Triangle = .lower) throws(LinearAlgebraError) {
        guard isSquare, b.rows == rows else {
            throw .dimensionMismatch(
                routine: "dpotrs", detail: "factor is \(rows)x\(columns), right-hand side \(b.rows)x\(b.columns)")
        }
        if rows == 0 || b.columns == 0 { return }
        var uplo = triangle.character
        var n = Int32(rows)
        var nrhs = Int32(b.columns)
        var lda = Int32(rows)
        var ldb = Int32(b.rows)
        var info: Int32 = 0
        elements.withUnsafeBufferPointer { a in
            b.elements.withUnsafeMutableBufferPointer { x in
                dpotrs_(&uplo, &n, &nrhs, a.baseAddress, &lda, x.baseAddress, &ldb, &info, 1)
            }
        }
        try Self.check(info, routine: "dpotrs")
    }

    /// Turns LAPACK's `info` into a typed error: negative means an illegal argument, positive a numerical failure.
    static func check(_ info: Int32, routine: String) throws(LinearAlgebraError) {
        if info == 0 { return }
        if info < 0 { throw .illegalArgument(routine: routine, position: Int(-info)) }
        switch routine {
        case "dpotrf", "dpotrs": throw .notPositiveDefinite(routine: routine, leadingMinor: Int(info))
        default: throw .singular(routine: routine, pivot: Int(info))
        }
    }
}
