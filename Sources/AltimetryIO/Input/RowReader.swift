/// What every input format implements: its rows, a chunk at a time, as `InputRow`s in input order.
///
/// A reader knows its header when it is made (`header`: the file, whether there are ISO times, a track column,
/// a reference column, pass-through columns, notices), so the output's columns are fixed before the first row.
/// `next` then fills a chunk: the rows (each with its 1-based line or record number and its track's index in
/// `trackNames`), their time texts and pass-through values when the header has them, and the problems found:
/// under `--skip-invalid` a bad row is kept with `invalidReason` and its error in `skipped` (a line that is no
/// row at all, such as a malformed NDJSON line, only in `skipped`); without it, the first bad row ends the chunk
/// before it, as `stoppedBy`, and the input. Problems that make the whole input unusable (no header, no time
/// column) throw.
package protocol RowReader {
    /// The header's fields, no rows.
    var header: InputTable { get }

    /// Reads about `approximateBytes` of input into `chunk` (emptied first; its storage is reused).
    ///
    /// - Returns: false, with `chunk` empty, at the end of the input.
    /// - Throws: `InputError` for a structural problem or a failed read.
    mutating func next(into chunk: inout InputTable, approximateBytes: Int) throws(InputError) -> Bool

    /// Every row left, in one table (`InputLoader.table`).
    ///
    /// - Throws: what `next` throws, and the row error that stopped the input early.
    mutating func readAll() throws(InputError) -> InputTable
}

extension RowReader {
    /// Every row left: the chunks of `next`, appended.
    mutating func readAll() throws(InputError) -> InputTable {
        var table = header
        var chunk = header
        while try next(into: &chunk, approximateBytes: 1 << 16) {
            table.append(chunk)
            if let error = chunk.stoppedBy { throw error }
        }
        return table
    }
}

/// A reader over rows already in memory (a GPX file, a GPX track merged with its pressure file).
struct TableRowReader: RowReader {
    let header: InputTable
    private let table: InputTable
    private var position = 0
    private var finished = false
    /// Rows per chunk.
    private let rowsPerChunk = 2_048

    init(_ table: InputTable) {
        header = table.header
        self.table = table
    }

    /// The rows not handed out yet, as they are (a table read whole is not cut into chunks to be glued again).
    mutating func readAll() throws(InputError) -> InputTable {
        guard !finished else { return header }
        finished = true
        guard position > 0 else {
            if let error = table.stoppedBy { throw error }
            return table
        }
        var rest = header
        rest.trackNames = table.trackNames
        rest.rows = Array(table.rows[position...])
        rest.timeTexts = table.timeTexts.map { $0[position..<$0.count] }
        let width = table.passThroughColumns.count
        rest.passThrough = Array(table.passThrough[(position * width)...])
        if let error = table.stoppedBy { throw error }
        return rest
    }

    mutating func next(into chunk: inout InputTable, approximateBytes: Int) throws(InputError) -> Bool {
        chunk = header
        chunk.trackNames = table.trackNames
        guard !finished else { return false }
        if position == 0 { chunk.skipped = table.skipped }
        let range = position..<min(table.rows.count, position + rowsPerChunk)
        chunk.rows.append(contentsOf: table.rows[range])
        if let texts = table.timeTexts { chunk.timeTexts = texts[range] }
        let width = table.passThroughColumns.count
        if width > 0 {
            chunk.passThrough.append(
                contentsOf: table.passThrough[(range.lowerBound * width)..<(range.upperBound * width)])
        }
        position = range.upperBound
        if position == table.rows.count {
            finished = true
            chunk.stoppedBy = table.stoppedBy
        }
        return true
    }
}
