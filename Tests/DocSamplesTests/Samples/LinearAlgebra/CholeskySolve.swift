import LinearAlgebra

/// Solves A x = b for a symmetric positive definite A by its Cholesky factor (LAPACK `dpotrf`, `dpotrs`).
func solveByCholesky() throws -> Matrix {
    let a = Matrix([
        [4, 2, 0],
        [2, 5, 1],
        [0, 1, 3],
    ])
    var x = Matrix(column: [2, 1, 4])  // b on entry, x on return
    let factor = try a.choleskyFactor()  // A = L Lᵀ; throws notPositiveDefinite otherwise
    try factor.solveWithCholeskyFactor(&x)
    return x
}
