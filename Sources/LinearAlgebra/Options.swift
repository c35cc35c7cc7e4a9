/// Which triangle of a symmetric or triangular matrix an operation reads or writes.
public enum Triangle: Sendable {
    /// The lower triangle, including the diagonal.
    case lower
    /// The upper triangle, including the diagonal.
    case upper

    var character: CChar { self == .lower ? CChar(UInt8(ascii: "L")) : CChar(UInt8(ascii: "U")) }
}

/// Whether an operand enters a product as it is or transposed.
public enum Transposition: Sendable {
    /// op(A) = A.
    case none
    /// op(A) = Aᵀ.
    case transposed

    var character: CChar { self == .none ? CChar(UInt8(ascii: "N")) : CChar(UInt8(ascii: "T")) }
}

/// Which side a triangular matrix multiplies from in a triangular solve.
public enum Side: Sendable {
    /// Solve op(A) X = αB.
    case left
    /// Solve X op(A) = αB.
    case right

    var character: CChar { self == .left ? CChar(UInt8(ascii: "L")) : CChar(UInt8(ascii: "R")) }
}

/// Whether a triangular matrix has an implicit unit diagonal.
public enum Diagonal: Sendable {
    /// The diagonal is stored and used.
    case nonUnit
    /// The diagonal is taken to be all ones and not read.
    case unit

    var character: CChar { self == .nonUnit ? CChar(UInt8(ascii: "N")) : CChar(UInt8(ascii: "U")) }
}
