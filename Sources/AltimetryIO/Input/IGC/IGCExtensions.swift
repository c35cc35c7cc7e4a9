/// The B record extensions an IGC file's I record declares, of which the reader uses two: `LAD` and `LOD`, more
/// digits of the latitude's and the longitude's minutes (after the three decimals of the B record itself).
///
/// The I record (FAI IGC Flight Recorder Specification, Appendix A, "I Record") is `I`, the number of
/// extensions `NN`, then per extension its first and last columns in the B record (`SS`, `FF`, 1-based) and its
/// three-letter code: `I023636LAD3737LOD` puts one `LAD` digit in column 36 and one `LOD` digit in column 37.
struct IGCExtensions: Sendable, Equatable {
    /// Each declared extension's code and its columns (1-based, inclusive).
    var declared: [(code: String, columns: ClosedRange<Int>)] = []

    /// No extensions (a file without an I record).
    init() {}

    /// Decodes the I record `line` (its bytes without the line break).
    ///
    /// - Throws: `IGCFixError.field` naming what is wrong: a count that is not two digits, a length other than
    ///   3 + 7 x the count, or columns that are not digits, start before column 36 or end before they start.
    init(_ line: ArraySlice<UInt8>) throws(IGCFixError) {
        let bytes = Array(line)
        let countField = IGCFix.Field(name: "extension count", columns: 2...3, expected: "two digits")
        func digits(_ a: Int, _ b: Int) -> Int? {
            guard b <= bytes.count else { return nil }
            var value = 0
            for k in a...b {
                guard bytes[k - 1] >= 48, bytes[k - 1] <= 57 else { return nil }
                value = value * 10 + Int(bytes[k - 1] - 48)
            }
            return value
        }
        guard let count = digits(2, 3) else {
            throw .field(countField, found: String(decoding: bytes.prefix(3).dropFirst(), as: UTF8.self))
        }
        guard bytes.count == 3 + 7 * count else {
            let length = IGCFix.Field(
                name: "extensions", columns: 4...max(4, bytes.count),
                expected: "\(count) extensions of 7 characters (SSFFCCC), \(3 + 7 * count) characters in all")
            throw .field(length, found: "\(bytes.count) characters")
        }
        for k in 0..<count {
            let at = 4 + 7 * k
            let field = IGCFix.Field(
                name: "extension \(k + 1)", columns: at...(at + 6),
                expected: "SSFFCCC: first and last column (from 36) and a three-letter code")
            guard let first = digits(at, at + 1), let last = digits(at + 2, at + 3), first >= 36, last >= first
            else {
                throw .field(field, found: String(decoding: bytes[(at - 1)..<(at + 6)], as: UTF8.self))
            }
            declared.append((String(decoding: bytes[(at + 3)..<(at + 6)], as: UTF8.self), first...last))
        }
    }

    static func == (a: IGCExtensions, b: IGCExtensions) -> Bool {
        a.declared.elementsEqual(b.declared) { $0.code == $1.code && $0.columns == $1.columns }
    }

    /// The `LAD` digit of the B record `bytes`, or nil when none is declared or the record is too short or the
    /// column holds no digit.
    func latitudeDigit(_ bytes: [UInt8]) -> Int? { digit("LAD", bytes) }

    /// The `LOD` digit of the B record `bytes`, likewise.
    func longitudeDigit(_ bytes: [UInt8]) -> Int? { digit("LOD", bytes) }

    /// The first digit of the extension `code` (one more decimal of the minutes; further digits, which no
    /// recorder writes, are ignored).
    private func digit(_ code: String, _ bytes: [UInt8]) -> Int? {
        guard let columns = declared.first(where: { $0.code == code })?.columns, columns.lowerBound <= bytes.count
        else { return nil }
        let byte = bytes[columns.lowerBound - 1]
        return byte >= 48 && byte <= 57 ? Int(byte - 48) : nil
    }
}
