/// A dense matrix of `Double` in column-major order, the layout LAPACK and BLAS expect.
///
/// Element (i, j), zero-based, lives at `elements[i + j * rows]`: columns are contiguous, and the leading
/// dimension passed to LAPACK is `rows`. The type is a value: copies are independent, and mutating a
/// uniquely referenced matrix in place does not allocate, which is what the filter's hot path relies on.
public struct Matrix: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// Number of rows (m).
    public let rows: Int
    /// Number of columns (n).
    public let columns: Int
    /// The elements in column-major order; `elements.count == rows * columns`.
    public var elements: [Double]

    /// A matrix with every element equal to `value`.
    ///
    /// - Parameters:
    ///   - rows: the row count, at least 0.
    ///   - columns: the column count, at least 0.
    ///   - value: every element's value; 0 by default.
    public init(rows: Int, columns: Int, repeating value: Double = 0) {
        precondition(rows >= 0 && columns >= 0, "Matrix dimensions must be non-negative, got \(rows)x\(columns)")
        self.rows = rows
        self.columns = columns
        self.elements = Array(repeating: value, count: rows * columns)
    }

    /// A matrix over elements already in column-major order.
    ///
    /// - Parameters:
    ///   - rows: the row count.
    ///   - columns: the column count.
    ///   - columnMajor: the elements, column after column: element (i, j) at index i + j × rows.
    /// - Precondition: `columnMajor.count == rows * columns`.
    public init(rows: Int, columns: Int, columnMajor: [Double]) {
        precondition(
            columnMajor.count == rows * columns,
            "A \(rows)x\(columns) matrix needs \(rows * columns) elements, got \(columnMajor.count)")
        self.rows = rows
        self.columns = columns
        self.elements = columnMajor
    }

    /// A matrix from rows written as they read on paper: `Matrix([[1, 2], [3, 4]])` has first row (1, 2).
    ///
    /// - Precondition: every row has the same length.
    public init(_ rowsAsWritten: [[Double]]) {
        let m = rowsAsWritten.count
        let n = rowsAsWritten.first?.count ?? 0
        self.init(rows: m, columns: n)
        for (i, row) in rowsAsWritten.enumerated() {
            precondition(row.count == n, "Row \(i) has \(row.count) elements, expected \(n)")
            for (j, value) in row.enumerated() { elements[i + j * m] = value }
        }
    }

    /// A column vector.
    public init(column: [Double]) {
        self.init(rows: column.count, columns: 1, columnMajor: column)
    }

    /// The n x n identity matrix.
    public static func identity(_ n: Int) -> Matrix {
        var result = Matrix(rows: n, columns: n)
        for i in 0..<n { result.elements[i + i * n] = 1 }
        return result
    }

    /// A square matrix with `diagonal` on its diagonal and zeros elsewhere.
    public static func diagonal(_ diagonal: [Double]) -> Matrix {
        let n = diagonal.count
        var result = Matrix(rows: n, columns: n)
        for i in 0..<n { result.elements[i + i * n] = diagonal[i] }
        return result
    }

    /// Whether the matrix is square.
    public var isSquare: Bool { rows == columns }

    /// Element (row, column), zero-based.
    ///
    /// - Parameters:
    ///   - row: the row index, from 0.
    ///   - column: the column index, from 0.
    @inlinable
    public subscript(row: Int, column: Int) -> Double {
        // A constant message keeps the accessor small enough to inline into the filter's hot loops.
        get {
            precondition(row >= 0 && row < rows && column >= 0 && column < columns, "Matrix index out of range")
            return elements[row &+ column &* rows]
        }
        set {
            precondition(row >= 0 && row < rows && column >= 0 && column < columns, "Matrix index out of range")
            elements[row &+ column &* rows] = newValue
        }
    }

    /// The transpose, Aᵀ.
    public var transposed: Matrix {
        var result = Matrix(rows: columns, columns: rows)
        for j in 0..<columns {
            for i in 0..<rows { result.elements[j + i * columns] = elements[i + j * rows] }
        }
        return result
    }

    /// The diagonal elements of a square matrix.
    public var diagonalElements: [Double] {
        (0..<Swift.min(rows, columns)).map { elements[$0 + $0 * rows] }
    }

    /// The rows as arrays, as they read on paper.
    public var rowArrays: [[Double]] {
        (0..<rows).map { i in (0..<columns).map { j in elements[i + j * rows] } }
    }

    /// The largest absolute difference between this matrix and its transpose; zero for a symmetric matrix.
    public var asymmetry: Double {
        precondition(isSquare, "asymmetry needs a square matrix, got \(rows)x\(columns)")
        var worst = 0.0
        for j in 0..<columns {
            for i in (j + 1)..<Swift.max(j + 1, rows) {
                worst = Swift.max(worst, abs(elements[i + j * rows] - elements[j + i * rows]))
            }
        }
        return worst
    }

    /// Replaces both off-diagonal halves by their average, (A + Aᵀ) / 2.
    public mutating func symmetrize() {
        precondition(isSquare, "symmetrize needs a square matrix, got \(rows)x\(columns)")
        for j in 0..<columns {
            for i in (j + 1)..<Swift.max(j + 1, rows) {
                let average = 0.5 * (elements[i + j * rows] + elements[j + i * rows])
                elements[i + j * rows] = average
                elements[j + i * rows] = average
            }
        }
    }

    /// Copies the lower triangle into the upper one, leaving a symmetric matrix.
    public mutating func mirrorLowerToUpper() {
        for j in 0..<columns {
            for i in (j + 1)..<Swift.max(j + 1, rows) { elements[j + i * rows] = elements[i + j * rows] }
        }
    }

    /// Whether every element is finite.
    @inlinable
    public var isFinite: Bool {
        for value in elements where !value.isFinite { return false }
        return true
    }

    public var description: String {
        rowArrays.map { $0.map { "\($0)" }.joined(separator: "\t") }.joined(separator: "\n")
    }
}
