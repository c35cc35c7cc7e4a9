extension CSVReader {
    /// Reads CSV bytes a chunk of whole lines at a time, for a pipeline that fuses and writes each chunk while the
    /// next is read.
    ///
    /// Every row goes through the same code as `CSVReader.read` in one pass (the same values, checks, messages,
    /// line numbers and track numbers), so the chunks' rows, concatenated, are that table's rows.
    struct Chunks {
        private var parser: Parser
        /// Where the next chunk starts, as a byte offset.
        private var position: Int
        /// The line number of the first line at `position`.
        private var nextLine: Int
        /// What the header said (`hasTrackColumn`, `referenceColumn`, `timeTexts` empty or nil, `notices`), no rows.
        let header: InputTable

        /// Reads the header of `bytes`, which must outlive the reader.
        ///
        /// - Throws: `InputError` as `CSVReader.read` does for the header.
        init(bytes: UnsafeRawBufferPointer, file: String, options: ReadOptions) throws(InputError) {
            parser = Parser(bytes: bytes, file: file, options: options)
            let (bodyStart, headerLine) = try parser.parseLines(from: 0, to: bytes.count, firstLine: 1, headerOnly: true)
            guard let headerLine else { throw parser.emptyFile }
            position = bodyStart
            nextLine = headerLine + 1
            header = parser.table
        }

        /// Whether every line has been read.
        var isAtEnd: Bool { position >= parser.bytes.count }

        /// The next chunk: the lines from the current position through the first line break at or after
        /// `approximateBytes` more bytes, as a table with the header's fields, the rows (in `reusing`'s storage),
        /// their time texts and skipped rows, and every track name seen so far.
        ///
        /// - Throws: `InputError` as `CSVReader.read` does for the same row.
        mutating func next(approximateBytes: Int, reusing rows: inout [InputRow]) throws(InputError) -> InputTable {
            let bytes = parser.bytes
            let n = bytes.count
            var end = min(n, position + max(1, approximateBytes))
            while end < n && bytes[end - 1] != 10 { end += 1 }
            rows.removeAll(keepingCapacity: true)
            swap(&parser.table.rows, &rows)
            defer {
                parser.table.rows = []
                parser.table.skipped = []
                if parser.table.timeTexts != nil { parser.table.timeTexts = [] }
            }
            _ = try parser.parseLines(from: position, to: end, firstLine: nextLine, headerOnly: false)
            nextLine = parser.lastLineNumber + 1
            position = end
            return parser.table
        }
    }
}
