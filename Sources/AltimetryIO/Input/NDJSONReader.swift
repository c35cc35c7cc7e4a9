import Altimetry
import Foundation

/// Reads newline-delimited JSON (see Docs/formats.md) a chunk of lines at a time: one flat object per line with
/// the CSV's field names.
///
/// Each line is scanned in place by `FlatJSONObject` (strict JSON, flat objects only); a field that is absent or
/// `null` is no reading; numbers are JSON numbers (`true` or a string where a number belongs is an error), `time`
/// and `track_id` strings (a numeric `track_id` is taken as written). Blank lines and lines starting with `#`
/// are skipped. The first object plays the header's part: whether times are `t` or `time`, whether there is a
/// `track_id` and a reference field, and which fields pass through to the output (`lat`, `lon` and unknown
/// ones, in its order); every line then follows it (a line without the first's `track_id` is an error, a
/// pass-through field the first line lacks is left out with a notice).
struct NDJSONReader: RowReader {
    let header: InputTable
    private let input: InputFile
    private let options: ReadOptions
    private var scanner = FlatJSONObject()
    /// The chunk being built, with the header's fields.
    private var table: InputTable
    /// The lines read by `init` while looking for the first object, parsed by the first `next`.
    private var firstLines: (bytes: [UInt8], firstLine: Int)?
    private var finished = false
    /// Each key of the last line, by position, with its field (nil: passed through or ignored) and its place among
    /// the pass-through columns (-1: none): lines of one file usually repeat their keys in order. The key's
    /// decoded bytes are in `lastKeyBytes`, `keySlot` bytes per position (a longer key is not kept: length -1).
    private var lastKeys: [(length: Int, field: InputField?, passThrough: Int)] = []
    private var lastKeyBytes: [UInt8] = []
    private static let keySlot = 32
    private var trackIndex: [String: Int] = [:]
    private var lastTimes: [Double] = []
    private let usesISOTime: Bool
    private var sawReading = false
    private var lateFields: Set<String> = []
    private var iso = ISO8601Parser()
    /// The problems of the line being read.
    private var problems: InvalidRowCollector

    /// Reads up to the first object of `input`.
    ///
    /// - Throws: `InputError` for an input with no object, or a failed read.
    init(_ input: InputFile, options: ReadOptions) throws(InputError) {
        self.input = input
        self.options = options
        problems = InvalidRowCollector(skipInvalid: options.skipInvalid)
        var header = InputTable(file: input.name)
        var held: [UInt8] = []
        var heldFirstLine = 1
        var found: (keys: [String], line: Int)?
        var scanner = FlatJSONObject()
        search: while let (bytes, firstLine) = try input.nextLines(approximateBytes: 1 << 16) {
            if held.isEmpty { heldFirstLine = firstLine }
            held.append(contentsOf: bytes)
            var line = firstLine
            var found1: [String]?
            Self.forEachLine(bytes) { a, b in
                defer { line += 1 }
                guard found1 == nil, !Self.isSkipped(bytes, a, b) else { return }
                do throws(FlatJSONObject.Failure) {
                    try scanner.scan(bytes, a, b)
                    found1 = scanner.members.map { FlatJSONObject.key(bytes, $0) }
                } catch {}
                if found1 != nil { found = (found1 ?? [], line) }
            }
            if found != nil { break search }
        }
        guard !held.isEmpty else {
            throw InputError(file: input.name, message: "the file is empty; expected one JSON object per line")
        }
        firstLines = (held, heldFirstLine)
        let keys = found?.keys ?? []
        usesISOTime = keys.contains(InputField.time.rawValue)
        if usesISOTime { header.timeTexts = [] }
        header.hasTrackColumn = keys.contains(InputField.trackID.rawValue)
        if header.hasTrackColumn { header.trackNames = [] }
        header.referenceColumn = keys.first {
            options.field(named: $0) == .trueAltitude || options.field(named: $0) == .referenceAltitude
        }
        var unknown: [String] = []
        for key in keys {
            let field = options.field(named: key)
            if field == nil { unknown.append(key) }
            if field?.passesThrough ?? true { header.passThroughColumns.append(key) }
        }
        if !unknown.isEmpty {
            header.notices.append(InputField.unknownNotice(file: input.name, names: unknown, kind: "field"))
        }
        self.header = header
        table = header
        table.notices = []
    }

    /// Reads a whole NDJSON file from memory (tests, and inputs already read).
    ///
    /// - Throws: `InputError` as `next` does, and for the first row error without `options.skipInvalid`.
    static func read(_ data: Data, file: String, options: ReadOptions = ReadOptions()) throws(InputError) -> InputTable
    {
        try InputLoader.table(
            from: InputLoader.reader(InputFile(bytes: data, name: file), format: .ndjson, options: options))
    }

    /// Calls `body` with each line's bounds in `bytes`, without its line break (nor a carriage return before it).
    private static func forEachLine(_ bytes: UnsafeRawBufferPointer, _ body: (Int, Int) -> Void) {
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 10 { end += 1 }
            let next = end + 1
            if end > start && bytes[end - 1] == 13 { end -= 1 }
            body(start, end)
            start = next
        }
    }

    /// Whether the line is blank or a comment.
    private static func isSkipped(_ bytes: UnsafeRawBufferPointer, _ a: Int, _ b: Int) -> Bool {
        var i = a
        while i < b && (bytes[i] == 32 || bytes[i] == 9) { i += 1 }
        return i == b || bytes[i] == UInt8(ascii: "#")
    }

    mutating func next(into chunk: inout InputTable, approximateBytes: Int) throws(InputError) -> Bool {
        chunk.removeRows()
        guard !finished else { return false }
        swap(&table.rows, &chunk.rows)
        if let (held, firstLine) = firstLines {
            firstLines = nil
            held.withUnsafeBytes { parse($0, firstLine: firstLine, isEnd: false) }
        } else if let (bytes, firstLine) = try input.nextLines(approximateBytes: approximateBytes) {
            parse(bytes, firstLine: firstLine, isEnd: false)
        } else {
            finished = true
            if !sawReading && table.stoppedBy == nil {
                throw InputError(
                    file: input.name,
                    message: "found no pressure and no GPS field in any line; expected "
                        + "pressure_hpa, pressure_kpa, pressure_pa, baro_alt_m or relative_alt_m, and/or gps_alt_m (or gps_alt_ellipsoid_m "
                        + "with geoid_sep_m)")
            }
            swap(&table.rows, &chunk.rows)
            return false
        }
        if table.stoppedBy != nil { finished = true }
        chunk = table
        table.removeRows()
        table.rows = []
        table.notices = []
        return true
    }

    /// Parses the lines of `bytes` into `table`, stopping at the first error unless `skipInvalid`.
    private mutating func parse(_ bytes: UnsafeRawBufferPointer, firstLine: Int, isEnd: Bool) {
        guard let base = bytes.baseAddress else { return }
        var line = firstLine - 1
        var start = 0
        // A Bool, not `table.stoppedBy == nil`, which copies the optional error per line.
        var stopped = false
        while start < bytes.count && !stopped {
            line += 1
            // The line break, found by the C library's vectorised search.
            var end = memchr(base + start, 10, bytes.count - start).map { UnsafeRawPointer($0) - base } ?? bytes.count
            let next = end + 1
            let isLast = end == bytes.count
            if end > start && bytes[end - 1] == 13 { end -= 1 }
            defer { start = next }
            if Self.isSkipped(bytes, start, end) { continue }
            do throws(InputError) {
                try readLine(bytes, start, end, line: line, isLast: isLast)
            } catch {
                table.stoppedBy = error
                stopped = true
            }
        }
    }

    /// Reads one line as a row.
    ///
    /// - Throws: `InputError` for the line's first problem without `skipInvalid`.
    private mutating func readLine(
        _ bytes: UnsafeRawBufferPointer, _ a: Int, _ b: Int, line: Int,
        isLast: Bool
    ) throws(InputError) {
        do throws(FlatJSONObject.Failure) {
            try scanner.scan(bytes, a, b)
        } catch {
            let shown = InputError.quoted(
                String(decoding: UnsafeRawBufferPointer(rebasing: bytes[a..<b]), as: UTF8.self))
            let problem = InputError(
                file: input.name, line: line,
                message: "found \(shown), which is not a complete JSON "
                    + "object (column \(error.column): \(error.message)); expected one flat object per line"
                    + (isLast ? " (the last line looks truncated)" : ""))
            try problems.skipLine(problem, skipped: &table.skipped)
            return
        }
        var row = InputRow(line: line, time: .nan)
        func fail(_ name: String, _ message: String) throws(InputError) {
            try problems.report(InputError(file: input.name, line: line, column: (name, 0), message: message))
        }
        let passThroughCount = table.passThroughColumns.count
        let passThroughStart = table.passThrough.count
        if passThroughCount > 0 { table.passThrough.append(contentsOf: repeatElement(.none, count: passThroughCount)) }
        var ellipsoid: Double?
        var separation: Double?
        var timeText = ""
        var sawTrack = false
        var sawTime = false
        var secondsBesideTime: Double?
        let members = scanner.members
        for (position, member) in members.enumerated() {
            let (field, passThrough) = lookUp(bytes, member, at: position)
            if passThrough >= 0 {
                table.passThrough[passThroughStart + passThrough] = Self.passThroughValue(bytes, member)
            }
            guard let field, member.kind != .null else { continue }
            let value = bytes[member.valueStart..<member.valueEnd]
            func found() -> String {
                member.kind == .string
                    ? FlatJSONObject.decode(bytes, member.valueStart, member.valueEnd, plain: member.valueIsPlain) ?? ""
                    : String(decoding: UnsafeRawBufferPointer(rebasing: value), as: UTF8.self)
            }
            switch field {
            case .trackID:
                guard member.kind == .string || member.kind == .number else {
                    try fail(field.rawValue, "found \(found()), expected a string")
                    continue
                }
                sawTrack = true
                let name = found()
                if let known = trackIndex[name] {
                    row.track = known
                } else {
                    row.track = table.trackNames.count
                    trackIndex[name] = row.track
                    table.trackNames.append(name)
                }
                continue
            case .time:
                sawTime = true
                guard usesISOTime else {
                    throw InputError(
                        file: input.name, line: line,
                        message: "found 'time' after lines with 't'; expected one time field throughout")
                }
                let text = found()
                guard member.kind == .string, let seconds = iso.seconds(text) else {
                    try fail(field.rawValue, "found \(text), expected an ISO 8601 time such as 2024-05-01T12:00:00Z")
                    continue
                }
                timeText = text
                row.time = seconds
                continue
            default:
                break
            }
            let v = member.number
            guard member.kind == .number, v.isFinite else {
                try fail(field.rawValue, "found \(found()), expected a finite number")
                continue
            }
            if let message = ValueCheck.problem(field, v) {
                try fail(field.rawValue, message)
                continue
            }
            if field == .t && usesISOTime {
                // Beside 'time' (as fuse writes it), 't' is checked against it, not read.
                secondsBesideTime = v
                continue
            }
            if field == .t { sawTime = true }
            row.store(field, v, options: options, ellipsoid: &ellipsoid, separation: &separation)
        }
        if sawTrack != table.hasTrackColumn && !problems.hasProblem {
            try fail(
                InputField.trackID.rawValue,
                table.hasTrackColumn
                    ? "found no track_id; expected one on every line, as on the first"
                    : "found a track_id, which the first line lacks; expected track_id on every line or on none")
        }
        if let ellipsoid {
            if let separation {
                row.gpsAltitude = ellipsoid - separation
            } else {
                try fail("gps_alt_ellipsoid_m", "found gps_alt_ellipsoid_m without geoid_sep_m; expected both")
            }
        }
        if let seconds = secondsBesideTime, !problems.hasProblem, sawTime, row.time.isFinite,
            let message = TimeColumns.disagreement(seconds: seconds, time: row.time)
        {
            try fail("t", message)
        }
        if row.pressure != nil || row.gpsAltitude != nil { sawReading = true }
        if !problems.hasProblem && (!sawTime || row.time.isNaN) {
            try fail("t", "found no time; expected 't' (seconds) or 'time' (ISO 8601)")
        }
        if !problems.hasProblem {
            while lastTimes.count <= row.track { lastTimes.append(-.infinity) }
            let previous = lastTimes[row.track]
            if row.time < previous {
                try fail(
                    usesISOTime ? "time" : "t",
                    "time went backwards: found \(row.time) s after \(previous) s; "
                        + "expected times that never decrease")
            } else {
                lastTimes[row.track] = row.time
            }
        }
        problems.finish(&row, skipped: &table.skipped)
        table.rows.append(row)
        table.timeTexts?.append(timeText)
    }

    /// The field of the member at `position` and its place among the pass-through columns (-1: none), from the
    /// last line's keys when the key is the same.
    private mutating func lookUp(
        _ bytes: UnsafeRawBufferPointer, _ member: FlatJSONObject.Member,
        at position: Int
    ) -> (InputField?, Int) {
        let count = member.keyEnd - member.keyStart
        if member.keyIsPlain, position < lastKeys.count, lastKeys[position].length == count,
            let line = bytes.baseAddress,
            lastKeyBytes.withUnsafeBytes({ cached in
                cached.baseAddress.map { memcmp($0 + position * Self.keySlot, line + member.keyStart, count) == 0 }
                    ?? false
            })
        {
            return (lastKeys[position].field, lastKeys[position].passThrough)
        }
        let key = FlatJSONObject.key(bytes, member)
        let field = options.field(named: key)
        var passThrough = -1
        if field?.passesThrough ?? true {
            if let k = table.passThroughColumns.firstIndex(of: key) {
                passThrough = k
            } else if lateFields.insert(key).inserted {
                table.notices.append(
                    "notice: \(input.name): field '\(key)' is not in the first line; it is not passed "
                        + "through to the output")
            }
        }
        let keyBytes = Array(key.utf8)
        let entry = (keyBytes.count <= Self.keySlot ? keyBytes.count : -1, field, passThrough)
        if position < lastKeys.count { lastKeys[position] = entry } else { lastKeys.append(entry) }
        if lastKeyBytes.count < lastKeys.count * Self.keySlot {
            lastKeyBytes += repeatElement(0, count: lastKeys.count * Self.keySlot - lastKeyBytes.count)
        }
        lastKeyBytes.replaceSubrange(
            (position * Self.keySlot)..<(position * Self.keySlot + min(keyBytes.count, Self.keySlot)),
            with: keyBytes.prefix(Self.keySlot))
        return (field, passThrough)
    }

    private static func passThroughValue(_ bytes: UnsafeRawBufferPointer, _ member: FlatJSONObject.Member)
        -> PassThroughValue
    {
        switch member.kind {
        case .null: return .none
        case .string:
            return .text(
                FlatJSONObject.decode(bytes, member.valueStart, member.valueEnd, plain: member.valueIsPlain) ?? "")
        default:
            return .literal(
                String(
                    decoding: UnsafeRawBufferPointer(rebasing: bytes[member.valueStart..<member.valueEnd]),
                    as: UTF8.self))
        }
    }
}
