import Altimetry
import Dispatch
import Foundation

/// Reads the CSV input format (see Docs/formats.md) from bytes.
///
/// The header names the columns, in any order; lines starting with `#` and blank lines are skipped; a blank
/// cell is no reading. Cells are split on UTF-8 bytes and numbers parsed by `FastNumber`, so a row costs no
/// allocation unless it carries a new `track_id` or an ISO 8601 `time`. Cells may be wrapped in double quotes
/// (no embedded commas).
public enum CSVReader {
    /// Parses `data` as the file named `file` in messages.
    ///
    /// - Throws: `InputError` for an empty file, a missing header, no time column, neither a pressure nor a GPS
    ///   column, and, unless `options.skipInvalid`, any unusable cell, a short (truncated) or long row, or time
    ///   going backwards within a track.
    /// - Parameter jobs: threads parsing at once; the table is the same for any number.
    public static func read(_ data: Data, file: String, options: ReadOptions = ReadOptions(),
                            jobs: Int = 1) throws(InputError) -> InputTable {
        try read(data, file: file, options: options, jobs: jobs, minimumChunkBytes: minimumChunkBytes)
    }

    /// Data below this many bytes per job is parsed on one thread (starting threads would cost more).
    static let minimumChunkBytes = 1 << 18

    /// `read(_:file:options:jobs:)` with the chunk size threshold given (tests split small files with 1).
    static func read(_ data: Data, file: String, options: ReadOptions, jobs: Int,
                     minimumChunkBytes: Int) throws(InputError) -> InputTable {
        do {
            return try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws(InputError) -> InputTable in
                var parser = Parser(bytes: bytes, file: file, options: options)
                return try parser.parse(jobs: jobs, minimumChunkBytes: minimumChunkBytes)
            }
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError(file: file, message: "\(error)", exitCode: .ioError)
        }
    }

    struct Column {
        var field: InputField?
        var name: String
    }

    struct Parser {
        let bytes: UnsafeRawBufferPointer
        let file: String
        let options: ReadOptions
        var table: InputTable
        var columns: [Column] = []
        var trackIndex: [String: Int] = [:]
        var lastTrackBytes: [UInt8] = []
        var knownTrackBytes: [(bytes: [UInt8], index: Int)] = []
        var lastTrack = 0
        var lastTimes: [Double] = []
        var currentLineIsUnterminated = false
        /// Its formatters are used from one thread at a time: each chunk gets its own.
        var iso = ISO8601Parser()
        /// Added to the track numbers of rows with a `track_id`: 1 in a chunk (whose 0 means "no track read"),
        /// else 0.
        var trackOffset = 0
        /// Whether time order is left to `parseInChunks`'s merge (in a chunk, which cannot see earlier rows).
        var defersTimeChecks = false
        /// Whether the last row appended came from a line without a line break.
        var lastRowWasUnterminated = false
        /// The number of the last line `parseLines` went through.
        var lastLineNumber = 0

        init(bytes: UnsafeRawBufferPointer, file: String, options: ReadOptions) {
            self.bytes = bytes
            self.file = file
            self.options = options
            self.table = InputTable(file: file)
        }

        /// Lines as byte ranges without the line break (and without a trailing carriage return).
        ///
        /// The header is read here; with `jobs` > 1 and enough data after it, the data lines are split at line
        /// boundaries into `jobs` chunks parsed at once (see `parseInChunks`), else they are parsed in turn.
        mutating func parse(jobs: Int = 1, minimumChunkBytes: Int = CSVReader.minimumChunkBytes) throws(InputError) -> InputTable {
            let n = bytes.count
            let (bodyStart, headerLine) = try parseLines(from: 0, to: n, firstLine: 1, headerOnly: true)
            guard let headerLine else { throw emptyFile }
            let chunks = min(jobs, (n - bodyStart) / max(1, minimumChunkBytes))
            if chunks > 1 { return try parseInChunks(from: bodyStart, firstLine: headerLine + 1, chunks: chunks) }
            // One row per line at most: reserving that up front spares the table's regrowth (copies of every row
            // so far, and fresh pages faulted in each time) on large files.
            var lineBreaks = 0
            for k in bodyStart..<n where bytes[k] == 10 { lineBreaks += 1 }
            table.rows.reserveCapacity(lineBreaks + 1)
            _ = try parseLines(from: bodyStart, to: n, firstLine: headerLine + 1, headerOnly: false)
            return table
        }

        /// The error for a file without a header.
        var emptyFile: InputError {
            InputError(file: file, message: "the file is empty; expected a header line naming the columns "
                       + "(t or time, pressure_hpa|pressure_kpa|pressure_pa and/or gps_alt_m) and data rows")
        }

        /// Parses the lines in `bytes[from..<to]`, numbering them from `firstLine`: with `headerOnly`, up to and
        /// including the header (returning where the next line starts and the header's line, nil if none), else
        /// every line as a data row.
        mutating func parseLines(from start: Int, to n: Int, firstLine: Int,
                                 headerOnly: Bool) throws(InputError) -> (next: Int, headerLine: Int?) {
            var lineStart = start
            var lineNumber = firstLine - 1
            var cellStarts: [Int] = []
            var cellEnds: [Int] = []
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
                        Self.record(bytes, s, lineEnd, &cellStarts, &cellEnds, &cells)
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
                Self.record(bytes, s, end, &cellStarts, &cellEnds, &cells)
                if headerOnly {
                    try readHeader(Array(cellStarts[..<cells]), Array(cellEnds[..<cells]), line: lineNumber)
                    return (min(next, n), lineNumber)
                }
                currentLineIsUnterminated = !endedWithNewline
                try readRow(cellStarts, cellEnds, count: cells, line: lineNumber, isLast: !endedWithNewline)
            }
            lastLineNumber = lineNumber
            return (n, nil)
        }

        /// Records the cell `bytes[s..<i]`, without surrounding blanks and double quotes, as cell number `cells`
        /// (then counted), in arrays reused line after line.
        @inline(__always)
        static func record(_ bytes: UnsafeRawBufferPointer, _ s: Int, _ i: Int, _ starts: inout [Int], _ ends: inout [Int],
                           _ cells: inout Int) {
            var a = s, b = i
            while a < b && (bytes[a] == 32 || bytes[a] == 9) { a += 1 }
            while b > a && (bytes[b - 1] == 32 || bytes[b - 1] == 9) { b -= 1 }
            if b - a >= 2 && bytes[a] == 34 && bytes[b - 1] == 34 { a += 1; b -= 1 }
            if cells < starts.count {
                starts[cells] = a
                ends[cells] = b
            } else {
                starts.append(a)
                ends.append(b)
            }
            cells += 1
        }

        /// What one chunk of data lines yielded: its rows (lines numbered from 1 within the chunk, tracks numbered
        /// from 1 in order of first appearance, 0 for none read), their problems, and the error that stopped it.
        struct Chunk: Sendable {
            var table: InputTable
            var trackNames: [String]
            var lineBreaks: Int
            var lastRowWasUnterminated: Bool
            var error: InputError?
        }

        /// Parses the data lines from `start` in `chunks` pieces at once, then merges them in file order.
        ///
        /// Each chunk parses its cells as `readRow` always does; the merge then renumbers lines and tracks, checks
        /// time order, and collects the skipped rows, row by row in file order, so every row, message and line
        /// number is what a single pass gives: without `--skip-invalid`, the first problem in the file is thrown.
        mutating func parseInChunks(from start: Int, firstLine: Int, chunks: Int) throws(InputError) -> InputTable {
            let n = bytes.count
            var bounds = [start]
            for c in 1..<chunks {
                var k = max(bounds[c - 1], start + (n - start) * c / chunks)
                while k < n && bytes[k - 1] != 10 { k += 1 }
                bounds.append(k)
            }
            bounds.append(n)
            let results = SharedBuffer<Chunk?>(count: chunks, initial: nil)
            let template = self
            let shared = UncheckedSendable(template)
            DispatchQueue.concurrentPerform(iterations: chunks) { [bounds] c in
                var parser = shared.value
                parser.iso = ISO8601Parser()
                parser.table.rows = []
                parser.table.trackNames = [""]
                parser.trackOffset = 1
                parser.defersTimeChecks = true
                let (a, b) = (bounds[c], bounds[c + 1])
                var lineBreaks = 0
                for k in a..<b where parser.bytes[k] == 10 { lineBreaks += 1 }
                // The first chunk's rows become the table's: room for every chunk's (of about as many lines).
                parser.table.rows.reserveCapacity(c == 0 ? lineBreaks * chunks + lineBreaks / 8 + 16 : lineBreaks + 1)
                var failure: InputError?
                do throws(InputError) {
                    _ = try parser.parseLines(from: a, to: b, firstLine: 1, headerOnly: false)
                } catch {
                    failure = error
                }
                results[c] = Chunk(table: parser.table, trackNames: parser.trackIndex.isEmpty ? [] : parser.table.trackNames,
                                   lineBreaks: lineBreaks, lastRowWasUnterminated: parser.lastRowWasUnterminated,
                                   error: failure)
            }
            var lineOffset = firstLine - 1
            for c in 0..<chunks {
                guard var chunk = results[c] else { continue }
                results[c] = nil
                var tracks = [0]
                for name in chunk.trackNames { tracks.append(globalTrack(name)) }
                var skipped = chunk.table.skipped.makeIterator()
                // Rows are fixed up in the chunk's own storage (the first chunk's becomes the table's), so only
                // later chunks' rows are copied, once, in bulk.
                var rows = chunk.table.rows
                chunk.table.rows = []
                let last = rows.count - 1
                let offset = lineOffset
                try rows.withUnsafeMutableBufferPointer { (rows) throws(InputError) in
                    for k in rows.indices {
                        rows[k].line += offset
                        if rows[k].track < tracks.count { rows[k].track = tracks[rows[k].track] }
                        if rows[k].invalidReason != nil {
                            if var problem = skipped.next() {
                                problem.line = problem.line.map { $0 + offset }
                                table.skipped.append(problem)
                            }
                        } else {
                            currentLineIsUnterminated = k == last && chunk.lastRowWasUnterminated
                            var firstProblem: InputError?
                            try checkTime(&rows[k], &firstProblem)
                            if let firstProblem {
                                rows[k].invalidReason = firstProblem.message
                                table.skipped.append(firstProblem)
                            }
                        }
                    }
                }
                if c == 0 { table.rows = rows } else { table.rows.append(contentsOf: rows) }
                table.timeTexts?.append(contentsOf: chunk.table.timeTexts ?? [])
                if var error = chunk.error {
                    error.line = error.line.map { $0 + lineOffset }
                    throw error
                }
                lineOffset += chunk.lineBreaks
            }
            return table
        }

        /// The index of the track named `name` in the merged table, adding it if new (as `trackNumber` does).
        mutating func globalTrack(_ name: String) -> Int {
            if let known = trackIndex[name] { return known }
            if table.trackNames == [""] && trackIndex.isEmpty { table.trackNames = [] }
            let index = table.trackNames.count
            table.trackNames.append(name)
            trackIndex[name] = index
            return index
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
                throw InputError(file: file, line: line, message: "found data '\(text(starts[0], ends[ends.count - 1]))' "
                                 + "where the header was expected; the first line must name the columns, e.g. "
                                 + "t,pressure_hpa,gps_alt_m,gps_vacc_m")
            }
            var unknown: [String] = []
            var seen: Set<InputField> = []
            for (k, name) in names.enumerated() {
                let field = options.field(named: name)
                if let field {
                    if seen.contains(field) {
                        throw InputError(file: file, line: line, column: (name, k + 1),
                                         message: "found the column '\(name)' twice; expected each column once")
                    }
                    seen.insert(field)
                } else {
                    unknown.append(name)
                }
                columns.append(Column(field: field, name: name))
            }
            if !unknown.isEmpty {
                table.notices.append("notice: \(file): ignoring unknown column\(unknown.count == 1 ? "" : "s") "
                                     + unknown.map { "'\($0)'" }.joined(separator: ", "))
            }
            guard seen.contains(.t) || seen.contains(.time) else {
                throw InputError(file: file, line: line, message: "found no time column in the header "
                                 + "(\(names.joined(separator: ","))); expected 't' (seconds) or 'time' (ISO 8601)")
            }
            if seen.contains(.t) && seen.contains(.time) {
                throw InputError(file: file, line: line, message: "found both 't' and 'time'; expected one time column")
            }
            let pressures = seen.filter(\.isPressure)
            if pressures.count > 1 {
                throw InputError(file: file, line: line, message: "found \(pressures.count) pressure columns; expected one "
                                 + "of pressure_hpa, pressure_kpa, pressure_pa")
            }
            if seen.contains(.gpsEllipsoidAltitude) != seen.contains(.geoidSeparation) {
                throw InputError(file: file, line: line, message: "found only one of gps_alt_ellipsoid_m and geoid_sep_m; "
                                 + "expected both (altitude above mean sea level = ellipsoidal altitude - geoid separation)")
            }
            if seen.contains(.gpsAltitude) && seen.contains(.gpsEllipsoidAltitude) {
                throw InputError(file: file, line: line, message: "found both gps_alt_m and gps_alt_ellipsoid_m; expected one")
            }
            if seen.contains(.trueAltitude) && seen.contains(.referenceAltitude) {
                throw InputError(file: file, line: line, message: "found both true_alt_m and ref_alt_m; expected one")
            }
            if pressures.isEmpty && !seen.contains(.gpsAltitude) && !seen.contains(.gpsEllipsoidAltitude) {
                throw InputError(file: file, line: line, message: "found no pressure and no GPS column in the header "
                                 + "(\(names.joined(separator: ","))); expected pressure_hpa, pressure_kpa or pressure_pa, "
                                 + "and/or gps_alt_m (or gps_alt_ellipsoid_m with geoid_sep_m)")
            }
            table.hasTrackColumn = seen.contains(.trackID)
            table.referenceColumn = seen.contains(.trueAltitude) ? "true_alt_m"
                : seen.contains(.referenceAltitude) ? (options.referenceColumn?.lowercased() ?? "ref_alt_m") : nil
            if seen.contains(.time) { table.timeTexts = [] }
        }

        /// Records a problem: throws, or under `--skip-invalid` returns the reason to mark the row with.
        func problem(line: Int, column k: Int?, _ message: String) throws(InputError) -> InputError {
            var error = InputError(file: file, line: line, column: k.map { (columns[$0].name, $0 + 1) }, message: message)
            if currentLineIsUnterminated && !message.contains("truncated") {
                error.message += " (the last line has no line break and may be truncated)"
            }
            if !options.skipInvalid { throw error }
            return error
        }

        /// Reads the row of the line `line` whose `count` cells span `starts[k]..<ends[k]`.
        mutating func readRow(_ starts: [Int], _ ends: [Int], count: Int, line: Int, isLast: Bool) throws(InputError) {
            var row = InputRow(line: line, time: .nan)
            var firstProblem: InputError?
            // Whether firstProblem is set: testing a Bool per cell is much cheaper than testing the optional error.
            var failed = false
            var ellipsoid: Double?
            var separation: Double?
            var timeText = ""
            if count != columns.count {
                let message: String
                if count < columns.count {
                    message = "found \(count) cells, expected \(columns.count) (the header's columns; "
                        + "'\(columns[count].name)' and after are missing)"
                        + (isLast ? "; the last line looks truncated" : "")
                } else {
                    message = "found \(count) cells, expected \(columns.count) (the header's columns)"
                }
                firstProblem = try problem(line: line, column: nil, message)
                failed = true
            }
            for k in 0..<min(count, columns.count) where !failed {
                guard let field = columns[k].field else { continue }
                let a = starts[k], b = ends[k]
                if field == .trackID {
                    row.track = trackNumber(a, b) + trackOffset
                    continue
                }
                if field == .time {
                    timeText = text(a, b)
                    guard let seconds = iso.seconds(timeText) else {
                        firstProblem = try problem(line: line, column: k, "found '\(timeText)', expected an ISO 8601 time "
                                                   + "such as 2024-05-01T12:00:00Z")
                        failed = true
                        break
                    }
                    row.time = seconds
                    continue
                }
                if a == b {
                    if field == .t {
                        firstProblem = try problem(line: line, column: k, "found an empty cell, expected a time in seconds")
                        failed = true
                    }
                    continue
                }
                guard let value = FastNumber.parse(bytes, a, b), value.isFinite else {
                    let found = text(a, b)
                    let what = Double(found).map { $0.isNaN ? "NaN" : "an infinite value" } ?? "'\(found)'"
                    firstProblem = try problem(line: line, column: k, "found \(what), expected a finite number"
                                               + (field == .t ? " of seconds" : ""))
                    failed = true
                    break
                }
                if let message = ValueCheck.problem(field, value) {
                    firstProblem = try problem(line: line, column: k, message)
                    failed = true
                    break
                }
                switch field {
                case .t: row.time = value
                case .pressureHectopascals, .pressureKilopascals, .pressurePascals:
                    row.pressure = value * field.hectopascalsPerUnit
                case .gpsAltitude: row.gpsAltitude = value
                case .gpsEllipsoidAltitude: ellipsoid = value
                case .geoidSeparation: separation = value
                case .gpsVerticalAccuracy: row.gpsVerticalAccuracy = options.verticalAccuracy.standardDeviation(ofReported: value)
                case .temperatureCelsius: row.temperature = value + 273.15
                case .trueAltitude, .referenceAltitude: row.reference = value
                case .latitude: row.latitude = value
                case .longitude: row.longitude = value
                case .time, .trackID: break
                }
            }
            if let ellipsoid {
                if let separation { row.gpsAltitude = ellipsoid - separation } else if !failed {
                    firstProblem = try problem(line: line, column: nil, "found gps_alt_ellipsoid_m without geoid_sep_m; "
                                               + "expected both in the same row")
                    failed = true
                }
            }
            if !failed && !defersTimeChecks {
                try checkTime(&row, &firstProblem)
                // A case pattern, not `!= nil`, which copies the optional error through a generic witness.
                if case .some = firstProblem { failed = true }
            }
            if failed, let firstProblem {
                row.invalidReason = firstProblem.message
                table.skipped.append(firstProblem)
            }
            table.rows.append(row)
            table.timeTexts?.append(timeText)
            lastRowWasUnterminated = isLast
        }

        mutating func checkTime(_ row: inout InputRow, _ firstProblem: inout InputError?) throws(InputError) {
            while lastTimes.count <= row.track { lastTimes.append(-.infinity) }
            let previous = lastTimes[row.track]
            if row.time < previous {
                let k = columns.firstIndex { $0.field == .t || $0.field == .time }
                let track = table.hasTrackColumn ? " in track '\(table.trackNames[row.track])'" : ""
                firstProblem = try problem(line: line(row), column: k, "time went backwards\(track): found "
                                           + "\(row.time) s after \(previous) s; expected times that never decrease")
            } else {
                lastTimes[row.track] = row.time
            }
        }

        func line(_ row: InputRow) -> Int { row.line }

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
            while i < count { if bytes[a + i] != name[i] { return false }; i += 1 }
            return true
        }
    }
}

/// A value handed to concurrent workers that only read it.
struct UncheckedSendable<Value>: @unchecked Sendable {
    // Safety: used for a parser whose byte buffer outlives the workers (they join before `read` returns) and
    // which each worker copies before changing, giving the copy its own `ISO8601Parser` (the one reference type).
    let value: Value
    init(_ value: Value) { self.value = value }
}
