internal import CLAPACK

extension Matrix {
    /// General product C ← α op(A) op(B) + β C (BLAS `dgemm`), written into a preallocated C.
    ///
    /// - Parameters:
    ///   - a: the left operand A.
    ///   - transposeA: whether op(A) is A or Aᵀ.
    ///   - b: the right operand B.
    ///   - transposeB: whether op(B) is B or Bᵀ.
    ///   - c: the accumulator; it must already have the product's shape.
    ///   - alpha: the scale α of the product.
    ///   - beta: the scale β of the previous C; with β = 0 C's previous contents are ignored, even NaN.
    /// - Precondition: the shapes agree (a programmer error otherwise).
    /// - Complexity: 2 m n k flops.
    public static func multiply(
        _ a: Matrix, _ transposeA: Transposition = .none,
        _ b: Matrix, _ transposeB: Transposition = .none,
        into c: inout Matrix, alpha: Double = 1, beta: Double = 0
    ) {
        let (m, n, k) = productShape(a, transposeA, b, transposeB, into: c, routine: "dgemm")
        if m == 0 || n == 0 { return }
        var ta = transposeA.character
        var tb = transposeB.character
        var m32 = Int32(m), n32 = Int32(n), k32 = Int32(k)
        var alpha = alpha, beta = beta
        var lda = Int32(max(1, a.rows)), ldb = Int32(max(1, b.rows)), ldc = Int32(max(1, c.rows))
        a.elements.withUnsafeBufferPointer { ap in
            b.elements.withUnsafeBufferPointer { bp in
                c.elements.withUnsafeMutableBufferPointer { cp in
                    dgemm_(
                        &ta, &tb, &m32, &n32, &k32, &alpha, ap.baseAddress, &lda, bp.baseAddress, &ldb,
                        &beta, cp.baseAddress, &ldc, 1, 1)
                }
            }
        }
    }

    /// The shape of C = op(A) op(B): m rows, n columns, k the inner dimension, checked against C.
    ///
    /// - Precondition: op(A)'s columns equal op(B)'s rows and C is m x n (a programmer error otherwise).
    @inlinable
    static func productShape(
        _ a: Matrix, _ transposeA: Transposition, _ b: Matrix, _ transposeB: Transposition,
        into c: Matrix, routine: String
    ) -> (m: Int, n: Int, k: Int) {
        let m = transposeA == .none ? a.rows : a.columns
        let k = transposeA == .none ? a.columns : a.rows
        let kB = transposeB == .none ? b.rows : b.columns
        let n = transposeB == .none ? b.columns : b.rows
        precondition(
            k == kB && c.rows == m && c.columns == n,
            "\(routine): op(A) is \(m)x\(k), op(B) is \(kB)x\(n), C is \(c.rows)x\(c.columns)")
        return (m, n, k)
    }

    /// The product op(A) op(B), in a new matrix.
    ///
    /// - Parameters:
    ///   - a: the left factor A.
    ///   - transposeA: `.transposed` to use Aᵀ.
    ///   - b: the right factor B.
    ///   - transposeB: `.transposed` to use Bᵀ.
    public static func product(
        _ a: Matrix, _ transposeA: Transposition = .none,
        _ b: Matrix, _ transposeB: Transposition = .none
    ) -> Matrix {
        var c = Matrix(
            rows: transposeA == .none ? a.rows : a.columns,
            columns: transposeB == .none ? b.columns : b.rows)
        multiply(a, transposeA, b, transposeB, into: &c)
        return c
    }

    /// Symmetric rank-k update C ← α A Aᵀ + β C, or α Aᵀ A + β C with `.transposed` (BLAS `dsyrk`).
    ///
    /// Only `triangle` of C is referenced and written; call `mirrorLowerToUpper()` for the full matrix.
    /// The result is symmetric by construction, which is why the filter forms covariances this way.
    ///
    /// - Parameters:
    ///   - a: the factor A (n x k, or k x n when transposed).
    ///   - transposeA: `.none` for α A Aᵀ, `.transposed` for α Aᵀ A.
    ///   - c: C, n x n, overwritten in `triangle` by the result.
    ///   - triangle: the triangle of C read and written.
    ///   - alpha: the multiplier α of the product; 1 by default.
    ///   - beta: the multiplier β of the old C; 0 by default (C's old contents are then ignored).
    /// - Precondition: C is square with A's row count (or column count when transposed).
    /// - Complexity: n² k flops.
    public static func rankKUpdate(
        _ a: Matrix, _ transposeA: Transposition = .none,
        into c: inout Matrix, triangle: Triangle = .lower, alpha: Double = 1, beta: Double = 0
    ) {
        let n = transposeA == .none ? a.rows : a.columns
        let k = transposeA == .none ? a.columns : a.rows
        precondition(c.rows == n && c.columns == n, "dsyrk: op(A) has \(n) rows, C is \(c.rows)x\(c.columns)")
        if n == 0 { return }
        var uplo = triangle.character
        var trans = transposeA.character
        var n32 = Int32(n), k32 = Int32(k)
        var alpha = alpha, beta = beta
        var lda = Int32(max(1, a.rows)), ldc = Int32(max(1, c.rows))
        a.elements.withUnsafeBufferPointer { ap in
            c.elements.withUnsafeMutableBufferPointer { cp in
                dsyrk_(&uplo, &trans, &n32, &k32, &alpha, ap.baseAddress, &lda, &beta, cp.baseAddress, &ldc, 1, 1)
            }
        }
    }

    /// Matrix product, A B.
    public static func * (lhs: Matrix, rhs: Matrix) -> Matrix { product(lhs, .none, rhs, .none) }

    /// Element-wise sum, A + B.
    public static func + (lhs: Matrix, rhs: Matrix) -> Matrix {
        precondition(
            lhs.rows == rhs.rows && lhs.columns == rhs.columns,
            "Cannot add \(lhs.rows)x\(lhs.columns) and \(rhs.rows)x\(rhs.columns)")
        var result = lhs
        for i in result.elements.indices { result.elements[i] += rhs.elements[i] }
        return result
    }

    /// Element-wise difference, A − B.
    public static func - (lhs: Matrix, rhs: Matrix) -> Matrix {
        precondition(
            lhs.rows == rhs.rows && lhs.columns == rhs.columns,
            "Cannot subtract \(rhs.rows)x\(rhs.columns) from \(lhs.rows)x\(lhs.columns)")
        var result = lhs
        for i in result.elements.indices { result.elements[i] -= rhs.elements[i] }
        return result
    }

    /// Scalar multiple, s A.
    public static func * (lhs: Double, rhs: Matrix) -> Matrix {
        var result = rhs
        for i in result.elements.indices { result.elements[i] *= lhs }
        return result
    }
}
