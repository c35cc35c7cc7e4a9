/// A failure reported by a LAPACK routine, decoded from its `info` argument.
public enum LinearAlgebraError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The routine was called with an invalid argument: LAPACK's `info = -i`.
    case illegalArgument(routine: String, position: Int)
    /// Cholesky found the leading minor of this order (one-based) not positive: the matrix is not positive definite.
    case notPositiveDefinite(routine: String, leadingMinor: Int)
    /// LU found this diagonal element of U (one-based) exactly zero: the matrix is singular.
    case singular(routine: String, pivot: Int)
    /// The operands' dimensions do not agree.
    case dimensionMismatch(routine: String, detail: String)
    /// An operand holds NaN or infinity, which LAPACK would silently propagate.
    case nonFinite(routine: String)

    public var description: String {
        switch self {
        case .illegalArgument(let routine, let position):
            return "\(routine): argument \(position) had an illegal value"
        case .notPositiveDefinite(let routine, let minor):
            return
                "\(routine): the leading minor of order \(minor) is not positive, so the matrix is not positive definite"
        case .singular(let routine, let pivot):
            return "\(routine): U(\(pivot),\(pivot)) is exactly zero, so the matrix is singular"
        case .dimensionMismatch(let routine, let detail):
            return "\(routine): dimension mismatch: \(detail)"
        case .nonFinite(let routine):
            return "\(routine): an operand contains NaN or infinity"
        }
    }
}
