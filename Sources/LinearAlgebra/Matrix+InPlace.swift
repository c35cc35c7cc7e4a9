internal import CLAPACK

/// In-place element operations on preallocated matrices.
///
/// Every operation here writes into storage the matrix already owns, so a hot loop that keeps its matrices
/// uniquely referenced never touches the heap. Assigning one `Matrix` to another (`a = b`) shares the buffer
/// and the next write copies it; `assign(_:)` copies the elements instead and keeps both buffers private.
extension Matrix {
    /// Copies the elements of `source`, which has the same shape, into this matrix's own storage.
    ///
    /// - Precondition: the shapes agree.
    /// - Complexity: O(rows × columns), no allocation when the storage is uniquely referenced.
    @inlinable
    public mutating func assign(_ source: Matrix) {
        precondition(
            rows == source.rows && columns == source.columns,
            "assign: \(rows)x\(columns) from \(source.rows)x\(source.columns)")
        elements.withUnsafeMutableBufferPointer { destination in
            source.elements.withUnsafeBufferPointer { origin in
                for i in 0..<destination.count { destination[i] = origin[i] }
            }
        }
    }

    /// Copies `rows × columns` consecutive values of `source`, starting at `offset`, into this matrix in
    /// column-major order: the inverse of appending `elements` to a flat array.
    ///
    /// - Parameters:
    ///   - source: the flat array to read from.
    ///   - offset: the index in `source` of the element that becomes (0, 0).
    /// - Precondition: `source` holds that many values from `offset`.
    @inlinable
    public mutating func load(from source: [Double], at offset: Int) {
        let count = elements.count
        precondition(
            offset >= 0 && offset + count <= source.count,
            "load: \(count) values from offset \(offset) of an array of \(source.count)")
        elements.withUnsafeMutableBufferPointer { destination in
            source.withUnsafeBufferPointer { origin in
                for i in 0..<count { destination[i] = origin[offset + i] }
            }
        }
    }

    /// Copies the elements into `destination` from `offset` on: the inverse of `load(from:at:)`.
    ///
    /// - Parameters:
    ///   - destination: the flat array to write into.
    ///   - offset: the index in `destination` that receives element (0, 0).
    /// - Precondition: `destination` has room for every element from `offset`.
    @inlinable
    public func store(into destination: inout [Double], at offset: Int) {
        let count = elements.count
        precondition(
            offset >= 0 && offset + count <= destination.count,
            "store: \(count) values at offset \(offset) of an array of \(destination.count)")
        elements.withUnsafeBufferPointer { origin in
            destination.withUnsafeMutableBufferPointer { target in
                for i in 0..<count { target[offset + i] = origin[i] }
            }
        }
    }

    /// Sets every element to zero.
    @inlinable
    public mutating func setZero() {
        elements.withUnsafeMutableBufferPointer { a in
            for i in 0..<a.count { a[i] = 0 }
        }
    }

    /// Sets a square matrix to the identity.
    ///
    /// - Precondition: the matrix is square.
    @inlinable
    public mutating func setIdentity() {
        precondition(isSquare, "setIdentity needs a square matrix, got \(rows)x\(columns)")
        let n = rows
        elements.withUnsafeMutableBufferPointer { a in
            for i in 0..<a.count { a[i] = 0 }
            for i in 0..<n { a[i + i * n] = 1 }
        }
    }

    /// Adds a multiple of another matrix of the same shape, A ← A + α B (BLAS `daxpy` written as a loop).
    ///
    /// - Parameters:
    ///   - other: B, of the same shape as this matrix.
    ///   - alpha: the multiplier α of B; 1 by default.
    /// - Precondition: the shapes agree.
    @inlinable
    public mutating func add(_ other: Matrix, scaledBy alpha: Double = 1) {
        precondition(
            rows == other.rows && columns == other.columns,
            "add: \(rows)x\(columns) and \(other.rows)x\(other.columns)")
        elements.withUnsafeMutableBufferPointer { a in
            other.elements.withUnsafeBufferPointer { b in
                for i in 0..<a.count { a[i] += alpha * b[i] }
            }
        }
    }

    /// Multiplies every element by `factor`.
    @inlinable
    public mutating func scale(by factor: Double) {
        elements.withUnsafeMutableBufferPointer { a in
            for i in 0..<a.count { a[i] *= factor }
        }
    }

    /// Whether every element is finite, by a plain loop that the optimiser can inline into a hot path.
    @inlinable
    public var allElementsFinite: Bool {
        elements.withUnsafeBufferPointer { a in
            var finite = true
            for value in a { finite = finite && value.isFinite }
            return finite
        }
    }

    /// Replaces a symmetric positive definite matrix by its Cholesky factor in its own storage (LAPACK
    /// `dpotrf`), without the defensive copy that `formCholeskyFactor(_:)` makes.
    ///
    /// The factor is the same, bit for bit, as `formCholeskyFactor(_:)`'s, and the other triangle is zeroed.
    /// Use it on a workspace that holds a copy of the matrix to factorise: unlike `formCholeskyFactor(_:)`,
    /// on a throw the contents are unspecified (LAPACK may have factorised part of it).
    ///
    /// - Parameter triangle: the triangle that is read and receives the factor: `.lower` for L, `.upper` for U.
    /// - Throws: `LinearAlgebraError.notPositiveDefinite` with the order of the first leading minor that is not
    ///   positive; `.nonFinite` if the matrix holds NaN or infinity; `.dimensionMismatch` if it is not square.
    /// - Complexity: n³/3 flops, no allocation when the storage is uniquely referenced.
    public mutating func overwriteWithCholeskyFactor(_ triangle: Triangle = .lower) throws(LinearAlgebraError) {
        guard isSquare else {
            throw .dimensionMismatch(routine: "dpotrf", detail: "matrix is \(rows)x\(columns), not square")
        }
        guard isFinite else { throw .nonFinite(routine: "dpotrf") }
        if rows == 0 { return }
        var uplo = triangle.character
        var n = Int32(rows)
        var lda = Int32(rows)
        var info: Int32 = 0
        let order = rows
        elements.withUnsafeMutableBufferPointer { a in
            dpotrf_(&uplo, &n, a.baseAddress, &lda, &info, 1)
            if info == 0 {
                for j in 0..<order {
                    for i in 0..<order where triangle == .lower ? i < j : i > j { a[i + j * order] = 0 }
                }
            }
        }
        try Self.check(info, routine: "dpotrf")
    }
}
