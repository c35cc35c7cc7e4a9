internal import CLAPACK

/// Preallocated storage for QR factorisations of one shape, so that a hot loop factorises without allocating.
public struct QRWorkspace: Sendable {
    /// Scalar factors τ of the Householder reflectors, min(m, n) of them.
    public var reflectorScales: [Double]
    /// LAPACK's work array, sized by a workspace query.
    var work: [Double]

    /// A workspace for m x n matrices.
    ///
    /// - Parameters:
    ///   - rows: m, the row count of the matrices to factorise.
    ///   - columns: n, their column count.
    public init(rows: Int, columns: Int) {
        reflectorScales = Array(repeating: 0, count: max(1, min(rows, columns)))
        var m = Int32(rows), n = Int32(columns), lda = Int32(max(1, rows)), lwork: Int32 = -1, info: Int32 = 0
        var optimal = 0.0
        var scratchA = 0.0
        var scratchTau = 0.0
        if rows > 0 && columns > 0 {
            dgeqrf_(&m, &n, &scratchA, &lda, &scratchTau, &optimal, &lwork, &info)
        }
        work = Array(repeating: 0, count: max(1, columns, Int(optimal)))
    }
}

extension Matrix {
    /// Factorises A = Q R in place by Householder reflections (LAPACK `dgeqrf`).
    ///
    /// On return the upper triangle holds R and the part below the diagonal, with `workspace.reflectorScales`,
    /// encodes Q. Square-root filters use only R: for a stacked pre-array A, AᵀA = RᵀR, so R is a Cholesky factor
    /// of AᵀA computed without ever forming AᵀA.
    ///
    /// - Parameter workspace: the reflector scales and LAPACK's work array, made for this shape
    ///   (`QRWorkspace(rows:columns:)`); grown here if too small; on return its `reflectorScales` hold Q's scales.
    /// - Throws: `.nonFinite` if A holds NaN or infinity.
    /// - Complexity: 2 m n² − 2 n³/3 flops.
    public mutating func formQRFactorization(workspace: inout QRWorkspace) throws(LinearAlgebraError) {
        guard isFinite else { throw .nonFinite(routine: "dgeqrf") }
        if rows == 0 || columns == 0 { return }
        if workspace.reflectorScales.count < min(rows, columns) {
            workspace = QRWorkspace(rows: rows, columns: columns)
        }
        var m = Int32(rows), n = Int32(columns), lda = Int32(rows), info: Int32 = 0
        var lwork = Int32(workspace.work.count)
        elements.withUnsafeMutableBufferPointer { a in
            workspace.reflectorScales.withUnsafeMutableBufferPointer { tau in
                workspace.work.withUnsafeMutableBufferPointer { w in
                    dgeqrf_(&m, &n, a.baseAddress, &lda, tau.baseAddress, w.baseAddress, &lwork, &info)
                }
            }
        }
        try Self.check(info, routine: "dgeqrf")
    }

    /// The triangular factor R (min(m, n) x n) of A = Q R, leaving A unchanged.
    ///
    /// The signs of R's rows follow LAPACK's convention; RᵀR = AᵀA holds whatever they are.
    ///
    /// - Throws: as `formQRFactorization(workspace:)`: `.nonFinite` if A holds NaN or infinity.
    public func qrUpperTriangularFactor() throws(LinearAlgebraError) -> Matrix {
        var factored = self
        var workspace = QRWorkspace(rows: rows, columns: columns)
        try factored.formQRFactorization(workspace: &workspace)
        let k = min(rows, columns)
        var r = Matrix(rows: k, columns: columns)
        for j in 0..<columns {
            for i in 0..<min(j + 1, k) { r.elements[i + j * k] = factored.elements[i + j * rows] }
        }
        return r
    }
}
