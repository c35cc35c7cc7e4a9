/// The time texts of a table's rows (the ISO 8601 text each row's time had in the input, which the output gives
/// back as written), kept in one byte buffer.
///
/// An array of `String`s costs a heap allocation per row (a 20-byte time is too long for a string stored
/// inline) and a release when the table goes; the readers made a million of them per million rows, as much time
/// as reading the rest of a FIT record. Here a row's text is its bytes appended to `bytes` and the offset where
/// they end; a `String` is made only when a row's text is asked for (`self[i]`), once, by the output.
package struct TimeTexts: Sendable, Equatable, ExpressibleByArrayLiteral {
    /// Every row's text, one after the other, in UTF-8.
    private var bytes: [UInt8] = []
    /// Where each row's text ends in `bytes` (row i's starts where row i − 1's ends).
    private var ends: [Int] = []

    package init() {}

    package init(arrayLiteral texts: String...) {
        for text in texts { append(text) }
    }

    /// The number of rows.
    package var count: Int { ends.count }
    package var isEmpty: Bool { ends.isEmpty }

    /// The text of row `i` (below `count`).
    package subscript(i: Int) -> String {
        let start = i == 0 ? 0 : ends[i - 1]
        return bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[start..<ends[i]]), as: UTF8.self)
        }
    }

    /// The rows in `range`, as a table of their own.
    package subscript(range: Range<Int>) -> TimeTexts {
        var slice = TimeTexts()
        guard !range.isEmpty else { return slice }
        let start = range.lowerBound == 0 ? 0 : ends[range.lowerBound - 1]
        slice.bytes = Array(bytes[start..<ends[range.upperBound - 1]])
        slice.ends = ends[range].map { $0 - start }
        return slice
    }

    /// Appends a row whose text is `text`.
    package mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        ends.append(bytes.count)
    }

    /// Appends a row whose text is the UTF-8 `text`.
    mutating func append(utf8 text: UnsafeRawBufferPointer) {
        // As typed bytes: an array appends those in one copy, raw bytes one at a time.
        bytes.append(contentsOf: text.assumingMemoryBound(to: UInt8.self))
        ends.append(bytes.count)
    }

    /// Appends a row whose text is `seconds` (since 1970) as `ISO8601Parser.text` writes it, without a `String`.
    mutating func append(time seconds: Double) {
        guard ISO8601Parser.isWritable(seconds) else { return append(ISO8601Parser().text(seconds)) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ISO8601Parser.maximumLength) { text in
            let length = ISO8601Parser.write(seconds, into: text)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[..<length]))
        }
        ends.append(bytes.count)
    }

    /// Appends the rows of `other`.
    package mutating func append(contentsOf other: TimeTexts) {
        let start = bytes.count
        bytes.append(contentsOf: other.bytes)
        ends.append(contentsOf: other.ends.lazy.map { $0 + start })
    }

    /// Removes every row, keeping the storage.
    package mutating func removeAll(keepingCapacity: Bool = false) {
        bytes.removeAll(keepingCapacity: keepingCapacity)
        ends.removeAll(keepingCapacity: keepingCapacity)
    }

    /// Reserves room for `rows` rows of about `bytesPerRow` bytes.
    mutating func reserveCapacity(rows: Int, bytesPerRow: Int = 24) {
        bytes.reserveCapacity(rows * bytesPerRow)
        ends.reserveCapacity(rows)
    }
}
