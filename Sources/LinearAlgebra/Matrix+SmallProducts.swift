/// Products of small matrices by plain loops, for the filter's hot path.
///
/// Index arithmetic wraps (`&+`, `&*`) instead of trapping: the indices are bounded by the shapes checked in
/// the precondition, and the overflow checks would otherwise dominate loops this short.
///
/// Reference BLAS pays a fixed cost per call (argument checks, Fortran calling convention, a general blocked
/// loop nest) that dominates for the 3x3 to 6x6 matrices of a navigation filter: `altimetry-bench engine`
/// measures a 3x3 `dgemm` at about 60 ns against about 25 ns for `multiplyByLoops`, for 27 multiply-adds. These loops compute the same
/// sums in the same order as the textbook definition, with no allocation, and are tested against `dgemm`.
/// Above roughly 16x16 prefer `multiply(_:_:_:_:into:alpha:beta:)`, which blocks for the cache.
extension Matrix {
    /// General product C ← α op(A) op(B) + β C by loops, the same contract as the BLAS `dgemm` wrapper.
    ///
    /// Each element is the sum Σₖ op(A)ᵢₖ op(B)ₖⱼ taken in increasing k.
    ///
    /// - Parameters:
    ///   - a: the left operand A.
    ///   - transposeA: whether op(A) is A or Aᵀ.
    ///   - b: the right operand B.
    ///   - transposeB: whether op(B) is B or Bᵀ.
    ///   - c: the accumulator, already of the product's shape.
    ///   - alpha: the scale α of the product.
    ///   - beta: the scale β of the previous C; with β = 0 the previous contents are ignored, even NaN.
    /// - Precondition: the shapes agree, and C shares no storage with A or B.
    /// - Complexity: m n k multiply-adds, no allocation when C's storage is uniquely referenced.
    @inlinable
    public static func multiplyByLoops(
        _ a: Matrix, _ transposeA: Transposition = .none,
        _ b: Matrix, _ transposeB: Transposition = .none,
        into c: inout Matrix, alpha: Double = 1, beta: Double = 0
    ) {
        let (m, n, k) = productShape(a, transposeA, b, transposeB, into: c, routine: "multiplyByLoops")
        let lda = a.rows, ldb = b.rows
        // Strides of op(A)(i, l) and op(B)(l, j) in column-major storage.
        let aRowStride = transposeA == .none ? 1 : lda
        let aInnerStride = transposeA == .none ? lda : 1
        let bInnerStride = transposeB == .none ? 1 : ldb
        let bColumnStride = transposeB == .none ? ldb : 1
        a.elements.withUnsafeBufferPointer { ap in
            b.elements.withUnsafeBufferPointer { bp in
                c.elements.withUnsafeMutableBufferPointer { cp in
                    for j in 0..<n {
                        for i in 0..<m {
                            var sum = 0.0
                            var aIndex = i &* aRowStride
                            var bIndex = j &* bColumnStride
                            for _ in 0..<k {
                                sum += ap[aIndex] * bp[bIndex]
                                aIndex &+= aInnerStride
                                bIndex &+= bInnerStride
                            }
                            let index = i &+ j &* m
                            cp[index] = beta == 0 ? alpha * sum : alpha * sum + beta * cp[index]
                        }
                    }
                }
            }
        }
    }

    /// Symmetric congruence C ← op(A) B op(A)ᵀ + β C for a symmetric B, exactly symmetric by construction.
    ///
    /// The product W = op(A) B is formed first, in `workspace`; then only the lower triangle
    /// Cᵢⱼ = β Cᵢⱼ + Σₗ Wᵢₗ op(A)ⱼₗ (i ≥ j) is computed and mirrored to the upper one, so C is symmetric to the
    /// last bit whatever the rounding. With β ≠ 0 only C's lower triangle is read. This is the shape of both
    /// covariance propagations the filter performs: F P Fᵀ + Q and the Joseph form's (I − K H) P (I − K H)ᵀ.
    ///
    /// - Parameters:
    ///   - a: A, m x n (or n x m when transposed).
    ///   - transposeA: whether op(A) is A or Aᵀ.
    ///   - b: the symmetric n x n matrix B (all of it is read).
    ///   - c: the m x m result.
    ///   - workspace: an m x n scratch matrix that receives op(A) B.
    ///   - beta: the scale β of the previous C; with β = 0 the previous contents are ignored.
    /// - Precondition: the shapes agree.
    /// - Complexity: m n² + m² n / 2 multiply-adds, no allocation when C and the workspace are uniquely referenced.
    @inlinable
    public static func formCongruence(
        _ a: Matrix, _ transposeA: Transposition = .none, _ b: Matrix,
        into c: inout Matrix, workspace: inout Matrix, beta: Double = 0
    ) {
        let m = transposeA == .none ? a.rows : a.columns
        let n = transposeA == .none ? a.columns : a.rows
        precondition(
            b.rows == n && b.columns == n && c.rows == m && c.columns == m
                && workspace.rows == m && workspace.columns == n,
            "formCongruence: op(A) is \(m)x\(n), B is \(b.rows)x\(b.columns), C is \(c.rows)x\(c.columns), workspace \(workspace.rows)x\(workspace.columns)"
        )
        multiplyByLoops(a, transposeA, b, .none, into: &workspace)
        let lda = a.rows
        let aRowStride = transposeA == .none ? 1 : lda
        let aInnerStride = transposeA == .none ? lda : 1
        workspace.elements.withUnsafeBufferPointer { wp in
            a.elements.withUnsafeBufferPointer { ap in
                c.elements.withUnsafeMutableBufferPointer { cp in
                    for j in 0..<m {
                        for i in j..<m {
                            // (W op(A)ᵀ)ᵢⱼ = Σₗ Wᵢₗ op(A)ⱼₗ
                            var sum = 0.0
                            var wIndex = i
                            var aIndex = j &* aRowStride
                            for _ in 0..<n {
                                sum += wp[wIndex] * ap[aIndex]
                                wIndex &+= m
                                aIndex &+= aInnerStride
                            }
                            let index = i &+ j &* m
                            cp[index] = beta == 0 ? sum : sum + beta * cp[index]
                        }
                    }
                    for j in 0..<m {
                        for i in (j + 1)..<max(j + 1, m) { cp[j &+ i &* m] = cp[i &+ j &* m] }
                    }
                }
            }
        }
    }
}
