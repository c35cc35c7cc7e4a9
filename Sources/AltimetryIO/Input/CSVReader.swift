import Altimetry
import Foundation

/// Reads the CSV input format (see Docs/formats.md) a chunk of lines at a time.
///
/// The header names the columns, in any order; lines starting with `#` and blank lines are skipped; a blank
/// cell is no reading. Cells are split on UTF-8 bytes and numbers parsed by `FastNumber`, so a row costs no
/// allocation unless it carries a new `track_id`, an ISO 8601 `time` or a pass-through column. Cells may be
/// wrapped in double quotes (no embedded commas). Columns the filter does not use (`lat`, `lon`, unknown ones)
/// are passed through as text. Line breaks are LF or CRLF; a header holding a lone CR (a file with CR-only line
/// endings) is an error.
struct CSVReader: RowReader {
    let header: InputTable
    private let input: InputFile
    private var parser: Parser
    /// The lines after the header in the chunk the header came in, parsed by the first `next`.
    private var afterHeader: (bytes: UnsafeRawBufferPointer, start: Int, firstLine: Int)?
    private var finished = false

    /// Reads up to the header of `input`.
    ///
    /// - Throws: `InputError` for an empty file, a missing or unusable header, or a failed read.
    init(_ input: InputFile, options: ReadOptions) throws(InputError) {
        self.input = input
        parser = Parser(file: input.name, options: options)
        while true {
            guard let (bytes, firstLine) = try input.nextLines(approximateBytes: 1 << 16) else {
                throw parser.emptyFile
            }
            parser.bytes = bytes
            let (next, headerLine) = try parser.parseLines(
                from: 0, to: bytes.count, firstLine: firstLine, headerOnly: true)
            if let headerLine {
                afterHeader = (bytes, next, headerLine + 1)
                break
            }
        }
        parser.bytes = UnsafeRawBufferPointer(start: nil, count: 0)
        header = parser.table
        parser.table.notices = []
    }

    /// Reads a whole CSV file from memory (tests, and inputs already read).
    ///
    /// - Throws: `InputError` as `next` does, and for the first row error without `options.skipInvalid`.
    static func read(_ data: Data, file: String, options: ReadOptions = ReadOptions()) throws(InputError) -> InputTable
    {
        try InputLoader.table(
            from: InputLoader.reader(InputFile(bytes: data, name: file), format: .csv, options: options))
    }

    mutating func next(into chunk: inout InputTable, approximateBytes: Int) throws(InputError) -> Bool {
        chunk.removeRows()
        guard !finished else { return false }
        let bytes: UnsafeRawBufferPointer, start: Int, firstLine: Int
        if let pending = afterHeader {
            (bytes, start, firstLine) = pending
            afterHeader = nil
        } else if let (next, line) = try input.nextLines(approximateBytes: approximateBytes) {
            (bytes, start, firstLine) = (next, 0, line)
        } else {
            finished = true
            return false
        }
        swap(&parser.table.rows, &chunk.rows)
        parser.bytes = bytes
        do {
            _ = try parser.parseLines(from: start, to: bytes.count, firstLine: firstLine, headerOnly: false)
        } catch {
            parser.table.stoppedBy = error
            finished = true
        }
        parser.bytes = UnsafeRawBufferPointer(start: nil, count: 0)
        chunk = parser.table
        parser.table.removeRows()
        parser.table.rows = []
        return true
    }

    struct Column {
        var field: InputField?
        var name: String
        /// The column's place among the pass-through columns, or -1.
        var passThrough = -1
    }

    struct Parser {
        /// The lines being parsed (valid during `parseLines`).
        var bytes = UnsafeRawBufferPointer(start: nil, count: 0)
        let file: String
        let options: ReadOptions
        var table: InputTable
        var columns: [Column] = []
        /// The pass-through columns' indices, in order.
        var passThroughIndices: [Int] = []
        var trackIndex: [String: Int] = [:]
        var lastTrackBytes: [UInt8] = []
        var knownTrackBytes: [(bytes: [UInt8], index: Int)] = []
        var lastTrack = 0
        var lastTimes: [Double] = []
        var currentLineIsUnterminated = false
        /// The `t` column's index when the header has both `t` and `time` (as `fuse` writes them): the row's
        /// time is read from `time`, and `t` must agree with it (`TimeColumns.agreement`).
        var checkedSecondsColumn: Int?
        /// The problems of the row being read.
        var problems: InvalidRowCollector

        init(file: String, options: ReadOptions) {
            self.file = file
            self.options = options
            self.table = InputTable(file: file)
            problems = InvalidRowCollector(skipInvalid: options.skipInvalid)
        }

        /// The error for a file without a header.
        var emptyFile: InputError {
            InputError(
                file: file,
                message: "the file is empty; expected a header line naming the columns "
                    + "(t or time, pressure_hpa|pressure_kpa|pressure_pa and/or gps_alt_m) and data rows")
        }

        /// Parses the lines in `bytes[from..<to]`, numbering them from `firstLine`: with `headerOnly`, up to and
        /// including the header (returning where the next line starts and the header's line, nil if none), else
        /// every line as a data row.
        mutating func parseLines(
            from start: Int, to n: Int, firstLine: Int,
            headerOnly: Bool
        ) throws(InputError) -> (next: Int, headerLine: Int?) {
            var lineStart = start
            var lineNumber = firstLine - 1
            // Each cell's bounds in one array: one uniqueness check per cell written.
            var cellBounds: [Range<Int>] = []
            // Cells are counted in `cells`, the arrays reused line after line (emptying them costs more).
            var cells = 0
            while lineStart < n {
                lineNumber += 1
                if bytes[lineStart] == UInt8(ascii: "#") {
                    var lineEnd = lineStart
                    while lineEnd < n && bytes[lineEnd] != 10 { lineEnd += 1 }
                    lineStart = lineEnd + 1
                    continue
                }
                // One pass finds the line's end and its cells' commas (a carriage return before the line break is
                // not part of the last cell).
                cells = 0
                var s = lineStart
                var lineEnd = lineStart
                while lineEnd < n {
                    let c = bytes[lineEnd]
                    if c == 10 { break }
                    if c == UInt8(ascii: ",") {
                        Self.record(bytes, s, lineEnd, &cellBounds, &cells)
                        s = lineEnd + 1
                    }
                    lineEnd += 1
                }
                let next = lineEnd + 1
                let endedWithNewline = lineEnd < bytes.count
                var end = lineEnd
                if end > lineStart && bytes[end - 1] == 13 { end -= 1 }
                defer { lineStart = next }
                if end == lineStart { continue }
                if isBlank(lineStart, end) { continue }
                Self.record(bytes, s, end, &cellBounds, &cells)
                if headerOnly {
                    if bytes[lineStart..<end].contains(13) {
                        throw InputError(
                            file: file, line: lineNumber,
                            message: "found a carriage return inside the header "
                                + "line: the file's lines end with CR alone; expected LF or CRLF line breaks")
                    }
                    try readHeader(
                        cellBounds[..<cells].map(\.lowerBound), cellBounds[..<cells].map(\.upperBound), line: lineNumber
                    )
                    return (min(next, n), lineNumber)
                }
                currentLineIsUnterminated = !endedWithNewline
                try readRow(cellBounds, count: cells, line: lineNumber, isLast: !endedWithNewline)
            }
            return (n, nil)
        }

        /// Records the cell `bytes[s..<i]`, without surrounding blanks and double quotes, as cell number `cells`
        /// (then counted), in an array reused line after line.
        @inline(__always)
        static func record(
            _ bytes: UnsafeRawBufferPointer, _ s: Int, _ i: Int, _ bounds: inout [Range<Int>], _ cells: inout Int
        ) {
            var a = s, b = i
            while a < b && (bytes[a] == 32 || bytes[a] == 9) { a += 1 }
            while b > a && (bytes[b - 1] == 32 || bytes[b - 1] == 9) { b -= 1 }
            if b - a >= 2 && bytes[a] == 34 && bytes[b - 1] == 34 {
                a += 1
                b -= 1
            }
            if cells < bounds.count { bounds[cells] = a..<b } else { bounds.append(a..<b) }
            cells += 1
        }

        func isBlank(_ a: Int, _ b: Int) -> Bool {
            var i = a
            while i < b {
                if bytes[i] != 32 && bytes[i] != 9 && bytes[i] != 13 && bytes[i] != UInt8(ascii: ",") { return false }
                i += 1
            }
            return true
        }

        func text(_ a: Int, _ b: Int) -> String {
            String(decoding: UnsafeRawBufferPointer(rebasing: bytes[a..<b]), as: UTF8.self)
        }

        mutating func readHeader(_ starts: [Int], _ ends: [Int], line: Int) throws(InputError) {
            let names = zip(starts, ends).map { text($0, $1).lowercased() }
            if let first = names.first, Double(first) != nil || first.isEmpty {
                throw InputError(
                    file: file, line: line,
                    message: "found data '\(text(starts[0], ends[ends.count - 1]))' "
                        + "where the header was expected; the first line must name the columns, e.g. "
                        + "t,pressure_hpa,gps_alt_m,gps_vacc_m")
            }
            var unknown: [String] = []
            var seen: Set<InputField> = []
            for (k, name) in names.enumerated() {
                let field = options.field(named: name)
                if let field {
                    if seen.contains(field) {
                        throw InputError(
                            file: file, line: line, column: (name, k + 1),
                            message: "found the column '\(name)' twice; expected each column once")
                    }
                    seen.insert(field)
                } else {
                    unknown.append(name)
                }
                var column = Column(field: field, name: name)
                if field?.passesThrough ?? true {
                    column.passThrough = passThroughIndices.count
                    passThroughIndices.append(k)
                    table.passThroughColumns.append(name)
                }
                columns.append(column)
            }
            if !unknown.isEmpty {
                table.notices.append(InputField.unknownNotice(file: file, names: unknown, kind: "column"))
            }
            guard seen.contains(.t) || seen.contains(.time) else {
                throw InputError(
                    file: file, line: line,
                    message: "found no time column in the header "
                        + "(\(names.joined(separator: ","))); expected 't' (seconds) or 'time' (ISO 8601)")
            }
            if seen.contains(.t) && seen.contains(.time) {
                checkedSecondsColumn = columns.firstIndex { $0.field == .t }
            }
            let pressures = seen.filter(\.isBarometer)
            if pressures.count > 1 {
                throw InputError(
                    file: file, line: line,
                    message: "found \(pressures.count) barometer columns; expected one "
                        + "of pressure_hpa, pressure_kpa, pressure_pa, baro_alt_m, relative_alt_m")
            }
            if seen.contains(.gpsEllipsoidAltitude) != seen.contains(.geoidSeparation) {
                throw InputError(
                    file: file, line: line,
                    message: "found only one of gps_alt_ellipsoid_m and geoid_sep_m; "
                        + "expected both (altitude above mean sea level = ellipsoidal altitude - geoid separation)")
            }
            if seen.contains(.gpsAltitude) && seen.contains(.gpsEllipsoidAltitude) {
                throw InputError(
                    file: file, line: line, message: "found both gps_alt_m and gps_alt_ellipsoid_m; expected one")
            }
            if seen.contains(.trueAltitude) && seen.contains(.referenceAltitude) {
                throw InputError(file: file, line: line, message: "found both true_alt_m and ref_alt_m; expected one")
            }
            if pressures.isEmpty && !seen.contains(.gpsAltitude) && !seen.contains(.gpsEllipsoidAltitude) {
                throw InputError(
                    file: file, line: line,
                    message: "found no pressure and no GPS column in the header "
                        + "(\(names.joined(separator: ","))); expected pressure_hpa, pressure_kpa, pressure_pa, baro_alt_m or relative_alt_m, "
                        + "and/or gps_alt_m (or gps_alt_ellipsoid_m with geoid_sep_m)")
            }
            table.hasTrackColumn = seen.contains(.trackID)
            table.referenceColumn =
                seen.contains(.trueAltitude)
                ? "true_alt_m"
                : seen.contains(.referenceAltitude) ? (options.referenceColumn?.lowercased() ?? "ref_alt_m") : nil
            if seen.contains(.time) { table.timeTexts = [] }
        }

        /// Reports a problem of the row being read (`InvalidRowCollector`): thrown without `--skip-invalid`.
        mutating func report(line: Int, column k: Int?, _ message: String) throws(InputError) {
            var error = InputError(
                file: file, line: line, column: k.map { (columns[$0].name, $0 + 1) }, message: message)
            if currentLineIsUnterminated && !message.contains("truncated") {
                error.message += " (the last line has no line break and may be truncated)"
            }
            try problems.report(error)
        }

        /// Reads the row of the line `line` whose `count` cells span `cells[k]`.
        mutating func readRow(_ cells: [Range<Int>], count: Int, line: Int, isLast: Bool) throws(InputError) {
            var row = InputRow(line: line, time: .nan)
            var ellipsoid: Double?
            var separation: Double?
            // The time cell's bytes, kept as the row's time text (no string per row).
            var timeCell = 0..<0
            // The `t` cell's value, when it is checked against `time`.
            var seconds: Double?
            if count != columns.count {
                let message: String
                if count < columns.count {
                    message =
                        "found \(count) cells, expected \(columns.count) (the header's columns; "
                        + "'\(columns[count].name)' and after are missing)"
                        + (isLast ? "; the last line looks truncated" : "")
                } else {
                    message = "found \(count) cells, expected \(columns.count) (the header's columns)"
                }
                try report(line: line, column: nil, message)
            }
            for k in 0..<min(count, columns.count) where !problems.hasProblem {
                guard let field = columns[k].field else { continue }
                let a = cells[k].lowerBound, b = cells[k].upperBound
                if field == .trackID {
                    row.track = trackNumber(a, b)
                    continue
                }
                if field == .time {
                    timeCell = a..<b
                    guard let seconds = ISO8601Parser.seconds(bytes, a, b) else {
                        try report(
                            line: line, column: k,
                            "found \(InputError.quoted(text(a, b))), expected an ISO 8601 time "
                                + "such as 2024-05-01T12:00:00Z")
                        break
                    }
                    row.time = seconds
                    continue
                }
                if k == checkedSecondsColumn {
                    seconds = FastNumber.parse(bytes, a, b)
                    continue
                }
                if a == b {
                    if field == .t {
                        try report(line: line, column: k, "found an empty cell, expected a time in seconds")
                    }
                    continue
                }
                guard let value = FastNumber.parse(bytes, a, b), value.isFinite else {
                    let found = text(a, b)
                    let what = FastNumber.nonFiniteName(found) ?? InputError.quoted(found)
                    try report(
                        line: line, column: k,
                        "found \(what), expected a finite number" + (field == .t ? " of seconds" : ""))
                    break
                }
                if let message = ValueCheck.problem(field, value) {
                    try report(line: line, column: k, message)
                    break
                }
                row.store(field, value, options: options, ellipsoid: &ellipsoid, separation: &separation)
            }
            if let ellipsoid {
                if let separation {
                    row.gpsAltitude = ellipsoid - separation
                } else if !problems.hasProblem {
                    try report(
                        line: line, column: nil,
                        "found gps_alt_ellipsoid_m without geoid_sep_m; expected both in the same row")
                }
            }
            if let k = checkedSecondsColumn, !problems.hasProblem, row.time.isFinite,
                let message = TimeColumns.disagreement(seconds: seconds, time: row.time)
            {
                try report(line: line, column: k, message)
            }
            if !problems.hasProblem { try checkTime(row) }
            problems.finish(&row, skipped: &table.skipped)
            table.rows.append(row)
            table.timeTexts?.append(utf8: UnsafeRawBufferPointer(rebasing: bytes[timeCell]))
            for k in passThroughIndices {
                table.passThrough.append(
                    k < count && !cells[k].isEmpty ? .text(text(cells[k].lowerBound, cells[k].upperBound)) : .none)
            }
        }

        /// Reports a time earlier than its track's last, or keeps it as the track's last.
        mutating func checkTime(_ row: InputRow) throws(InputError) {
            while lastTimes.count <= row.track { lastTimes.append(-.infinity) }
            let previous = lastTimes[row.track]
            if row.time < previous {
                let k = columns.firstIndex { $0.field == .t || $0.field == .time }
                let track = table.hasTrackColumn ? " in track '\(table.trackNames[row.track])'" : ""
                try report(
                    line: row.line, column: k,
                    "time went backwards\(track): found "
                        + "\(row.time) s after \(previous) s; expected times that never decrease")
            } else {
                lastTimes[row.track] = row.time
            }
        }

        /// The index of the track named by the bytes, reusing the previous row's when they match.
        ///
        /// Interleaved tracks change name every row, so the first `knownTrackLimit` names' bytes are also kept
        /// and matched byte for byte before a `String` is made and looked up (a byte match is the same name).
        mutating func trackNumber(_ a: Int, _ b: Int) -> Int {
            if sameBytes(lastTrackBytes, a, b) { return lastTrack }
            for k in knownTrackBytes.indices where sameBytes(knownTrackBytes[k].bytes, a, b) {
                lastTrackBytes = knownTrackBytes[k].bytes
                lastTrack = knownTrackBytes[k].index
                return lastTrack
            }
            lastTrackBytes = Array(UnsafeRawBufferPointer(rebasing: bytes[a..<b]))
            let name = text(a, b)
            if let known = trackIndex[name] {
                lastTrack = known
            } else {
                if table.trackNames == [""] && trackIndex.isEmpty { table.trackNames = [] }
                lastTrack = table.trackNames.count
                table.trackNames.append(name)
                trackIndex[name] = lastTrack
            }
            if knownTrackBytes.count < Self.knownTrackLimit { knownTrackBytes.append((lastTrackBytes, lastTrack)) }
            return lastTrack
        }

        /// How many tracks' name bytes `trackNumber` keeps for matching without a `String`.
        static let knownTrackLimit = 64

        /// Whether `bytes[a..<b]` equals `name`.
        func sameBytes(_ name: [UInt8], _ a: Int, _ b: Int) -> Bool {
            let count = b - a
            guard count == name.count else { return false }
            var i = 0
            while i < count {
                if bytes[a + i] != name[i] { return false }
                i += 1
            }
            return true
        }
    }
}
