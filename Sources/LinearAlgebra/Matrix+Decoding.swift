extension Matrix {
    private enum CodingKeys: String, CodingKey {
        case rows, columns, elements
    }

    /// Decodes a matrix, checked against its own declared dimensions before anything can index it.
    ///
    /// A decoded matrix comes from outside (a saved filter state), so `rows` and `columns` must be at least 0 and
    /// their product representable, `elements` must hold exactly rows × columns values, and every value must be
    /// finite: a short array would otherwise be read past its end by the first subscript (`asymmetry`, a product).
    /// Each failure is a `DecodingError.dataCorrupted` whose coding path names the field (`elements`, `rows`).
    ///
    /// - Throws: `DecodingError` for a missing or mistyped field, or one that breaks the rules above.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let rows = try c.decode(Int.self, forKey: .rows)
        let columns = try c.decode(Int.self, forKey: .columns)
        for (key, value) in [(CodingKeys.rows, rows), (.columns, columns)] where value < 0 {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: c, debugDescription: "found \(value), expected a dimension of at least 0")
        }
        let (count, overflow) = rows.multipliedReportingOverflow(by: columns)
        guard !overflow else {
            throw DecodingError.dataCorruptedError(
                forKey: .columns, in: c, debugDescription: "found \(rows)x\(columns), more elements than can exist")
        }
        let elements = try c.decode([Double].self, forKey: .elements)
        guard elements.count == count else {
            throw DecodingError.dataCorruptedError(
                forKey: .elements, in: c,
                debugDescription: "found \(elements.count) values, expected \(count) (\(rows) x \(columns))")
        }
        if let k = elements.firstIndex(where: { !$0.isFinite }) {
            throw DecodingError.dataCorruptedError(
                forKey: .elements, in: c, debugDescription: "found \(elements[k]) at index \(k), expected finite values"
            )
        }
        self.init(rows: rows, columns: columns, columnMajor: elements)
    }

    /// Encodes `rows`, `columns` and `elements` (column-major), as `init(from:)` reads them.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(rows, forKey: .rows)
        try c.encode(columns, forKey: .columns)
        try c.encode(elements, forKey: .elements)
    }
}
