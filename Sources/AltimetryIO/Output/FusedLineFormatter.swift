import Altimetry

/// Writes one output line per fused row, as CSV, an NDJSON object or a GPX track point, from `OutputColumns`.
///
/// Lines are assembled in place in a `ByteBuffer`; numbers are written by `Fixed`. Each track's CSV cell is
/// quoted once and kept, so a row with a track costs one copy of bytes, not a `String`.
struct FusedLineFormatter {
    let columns: OutputColumns
    /// The estimate columns (a copy of `OutputColumns.estimates`, read once).
    private let estimates = OutputColumns.estimates
    /// `,"name":` for each estimate column, as bytes.
    private let estimateKeys: [[UInt8]]
    /// Each track's CSV cell, by track index, made on first use.
    private var trackCells: [[UInt8]] = []
    /// A GPX input's points, written back for GPX output.
    private var gpxPoints: GPXPointWriter?

    init(_ columns: OutputColumns) {
        self.columns = columns
        estimateKeys = OutputColumns.estimates.map { Array(",\"\($0.name)\":".utf8) }
        gpxPoints = columns.gpx.map { GPXPointWriter($0, trackCount: columns.trackCount) }
    }

    /// One row to write: the input row, the estimate after it (nil when rejected), its status, and the texts
    /// that go with it.
    struct Row {
        var estimate: AltitudeEstimate?
        var status: RowStatus
        /// The row's ISO 8601 time text, with `columns.hasTime`.
        var timeText: String?
        /// The track's name, with `columns.hasTrackColumn`.
        var trackName: String
    }

    /// The CSV header line, with its line break.
    var csvHeader: [UInt8] { Array((columns.names.joined(separator: ",") + "\n").utf8) }

    /// The most bytes a line takes besides its text cells: each number a comma and `Fixed.maximumLength` (also
    /// the most a `Double.description` takes), and `,ok` with the line break.
    private var numbersSize: Int { (estimates.count + 3) * (Fixed.maximumLength + 1) + 4 }

    /// Appends the CSV line of `rows[i]`.
    ///
    /// - Parameter passThrough: the chunk's pass-through values (`columns.passThrough.count` per row).
    @inline(__always)
    mutating func appendCSV(
        _ rows: UnsafeBufferPointer<InputRow>, _ i: Int, _ r: borrowing Row,
        passThrough: [PassThroughValue], to out: inout ByteBuffer
    ) {
        let comma = UInt8(ascii: ",")
        var room = numbersSize
        let track = rows[i].track
        if columns.hasTrackColumn {
            while trackCells.count <= track {
                var cell: [UInt8] = []
                Self.appendCSVText(trackCells.count == track ? r.trackName : "", to: &cell)
                trackCells.append(cell)
            }
            room += trackCells[track].count + 1
        }
        if columns.hasTime { room += 2 * (r.timeText?.utf8.count ?? 0) + 3 }
        if columns.hasPositionColumns { room += 2 * (Fixed.maximumLength + 1) }
        let line = out.reserve(room)
        var k = 0
        let time = rows[i].time
        // A row without a time (kept under --skip-invalid) has an empty cell.
        if time.isFinite && !Fixed.writeTime(time, into: line, at: &k) { Self.place(time.description, line, &k) }
        if columns.hasTime {
            line[k] = comma
            k += 1
            var cell: [UInt8] = []
            Self.appendCSVText(r.timeText ?? "", to: &cell)
            for byte in cell {
                line[k] = byte
                k += 1
            }
        }
        if columns.hasTrackColumn {
            line[k] = comma
            k += 1
            trackCells[track].withUnsafeBufferPointer { cell in
                if let start = cell.baseAddress { (line + k).update(from: start, count: cell.count) }
                k += cell.count
            }
        }
        if let e = r.estimate {
            // Through the buffer, in place: a for-in over the array copies each column out, retaining its name.
            estimates.withUnsafeBufferPointer { columns in
                for c in columns.indices { Self.number(columns[c].value(e), columns[c].decimals, line, &k) }
            }
        } else {
            for _ in estimates {
                line[k] = comma
                k += 1
            }
        }
        if columns.referenceColumn != nil {
            if let reference = rows[i].reference {
                Self.number3(reference, line, &k)
            } else {
                line[k] = comma
                k += 1
            }
        }
        if columns.hasPositionColumns {
            for degrees in [rows[i].latitude, rows[i].longitude] {
                line[k] = comma
                k += 1
                if let degrees, degrees.isFinite { Self.place(degrees.description, line, &k) }
            }
        }
        let width = columns.passThrough.count
        if width > 0 {
            out.commit(k)
            var cells: [UInt8] = []
            for value in passThrough[(i * width)..<((i + 1) * width)] {
                cells.append(comma)
                switch value {
                case .none: break
                case .text(let text): Self.appendCSVText(text, to: &cells)
                case .literal(let text): cells.append(contentsOf: text.utf8)
                }
            }
            out.append(cells)
            k = 0
        }
        if case .ok = r.status {
            let end = width > 0 ? out.reserve(4) : line
            end[k] = comma
            end[k + 1] = UInt8(ascii: "o")
            end[k + 2] = UInt8(ascii: "k")
            end[k + 3] = 10
            out.commit(k + 4)
        } else {
            out.commit(k)
            var cell: [UInt8] = [comma]
            Self.appendCSVText(r.status.text, to: &cell)
            cell.append(10)
            out.append(cell)
        }
    }

    private static func place(_ text: String, _ line: UnsafeMutablePointer<UInt8>, _ k: inout Int) {
        for byte in text.utf8 {
            line[k] = byte
            k += 1
        }
    }

    /// Writes a comma and `value` with `decimals` decimals at `line[k...]`, advancing k.
    @inline(__always)
    private static func number(_ value: Double, _ decimals: Int, _ line: UnsafeMutablePointer<UInt8>, _ k: inout Int) {
        switch decimals {
        case 2: number2(value, line, &k)
        case 3: number3(value, line, &k)
        case 4: number4(value, line, &k)
        default: numberAnyDecimals(value, decimals, line, &k)
        }
    }

    /// Writes a comma and `value` (through `description` for what `Fixed` does not write); nothing after the comma
    /// (an empty cell) for NaN or an infinity.
    @inline(__always)
    private static func numberAnyDecimals(
        _ value: Double, _ decimals: Int, _ line: UnsafeMutablePointer<UInt8>,
        _ k: inout Int
    ) {
        line[k] = UInt8(ascii: ",")
        k += 1
        if value.isFinite && !Fixed.write(value, decimals, into: line, at: &k) { place(value.description, line, &k) }
    }

    // One function per usual decimal count, each with its count a constant: 10^d and the digit shifts fold.
    // Inlined into the line's loop (a call per number cost a seventh of the line), and taking the line and
    // position as arguments: a local function capturing them, once not inlined, checks exclusive access to the
    // position at every call.
    @inline(__always)
    private static func number2(_ value: Double, _ line: UnsafeMutablePointer<UInt8>, _ k: inout Int) {
        numberAnyDecimals(value, 2, line, &k)
    }
    @inline(__always)
    private static func number3(_ value: Double, _ line: UnsafeMutablePointer<UInt8>, _ k: inout Int) {
        numberAnyDecimals(value, 3, line, &k)
    }
    @inline(__always)
    private static func number4(_ value: Double, _ line: UnsafeMutablePointer<UInt8>, _ k: inout Int) {
        numberAnyDecimals(value, 4, line, &k)
    }

    /// Appends the NDJSON line (one object) of `rows[i]`; parameters as in `appendCSV`.
    func appendNDJSON(
        _ rows: UnsafeBufferPointer<InputRow>, _ i: Int, _ r: borrowing Row,
        passThrough: [PassThroughValue], to out: inout ByteBuffer
    ) {
        func literal(_ text: StaticString) {
            out.append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
        // `null` for NaN or an infinity: JSON has no such numbers.
        func number(_ v: Double, _ decimals: Int) {
            guard v.isFinite else { return literal("null") }
            let place = out.reserve(Fixed.maximumLength)
            var k = 0
            if Fixed.write(v, decimals, into: place, at: &k) { out.commit(k) } else { out.append(v.description) }
        }
        func string(_ text: String) {
            var bytes: [UInt8] = []
            Self.appendJSONString(text, to: &bytes)
            out.append(bytes)
        }
        func key(_ name: String) {
            var bytes: [UInt8] = [UInt8(ascii: ",")]
            Self.appendJSONString(name, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            out.append(bytes)
        }
        literal("{\"t\":")
        let time = rows[i].time
        if time.isFinite {
            let place = out.reserve(Fixed.maximumLength)
            var k = 0
            if Fixed.writeTime(time, into: place, at: &k) { out.commit(k) } else { out.append(time.description) }
        } else {
            literal("null")
        }
        if columns.hasTime {
            literal(",\"time\":")
            if let text = r.timeText, !text.isEmpty { string(text) } else { literal("null") }
        }
        if columns.hasTrackColumn {
            literal(",\"track_id\":")
            string(r.trackName)
        }
        for (c, column) in estimates.enumerated() {
            out.append(estimateKeys[c])
            if let e = r.estimate { number(column.value(e), column.decimals) } else { literal("null") }
        }
        if let referenceColumn = columns.referenceColumn {
            key(referenceColumn)
            if let value = rows[i].reference { number(value, 3) } else { literal("null") }
        }
        if columns.hasPositionColumns {
            for (name, degrees) in zip(OutputColumns.positions, [rows[i].latitude, rows[i].longitude]) {
                key(name)
                if let degrees, degrees.isFinite { out.append(degrees.description) } else { literal("null") }
            }
        }
        let width = columns.passThrough.count
        for (c, name) in columns.passThrough.enumerated() {
            key(name)
            switch passThrough[i * width + c] {
            case .none: literal("null")
            case .literal(let text): out.append(text)
            case .text(let text): if Self.isJSONNumber(text) { out.append(text) } else { string(text) }
            }
        }
        literal(",\"status\":")
        string(r.status.text)
        literal("}\n")
    }

    /// Appends the GPX track point of `rows[i]` (one line): `ele` is the altitude, `time` the input's time text,
    /// and the extensions `t`, the other estimate columns and `status`. A row without a position is no point (it
    /// appends nothing); a GPX input's points are written back as they were (`GPXPointWriter`).
    mutating func appendGPX(
        _ rows: UnsafeBufferPointer<InputRow>, _ i: Int, _ r: borrowing Row, to out: inout ByteBuffer
    ) {
        let row = rows[i]
        guard let latitude = row.latitude, let longitude = row.longitude else { return }
        if gpxPoints != nil {
            var extensions = ""
            var elevation: String?
            if let e = r.estimate {
                for column in estimates {
                    if column.name == OutputColumns.elevation {
                        let value = column.value(e)
                        if value.isFinite { elevation = Fixed.text(value, column.decimals) }
                    } else {
                        extensions += Self.extensionElement(column.name, column.value(e), column.decimals)
                    }
                }
            }
            extensions += "<altimetry:status>\(Self.escapeXML(r.status.text))</altimetry:status>"
            gpxPoints?.append(row, elevation: elevation, extensions: extensions, to: &out)
            return
        }
        var text = "      <trkpt lat=\"\(latitude)\" lon=\"\(longitude)\">"
        let e = r.estimate
        if let e, let column = estimates.first(where: { $0.name == OutputColumns.elevation }),
            case let value = column.value(e), value.isFinite
        {
            text += "<ele>\(Fixed.text(value, column.decimals))</ele>"
        }
        if let time = r.timeText, !time.isEmpty { text += "<time>\(Self.escapeXML(time))</time>" }
        text += "<extensions>" + Self.extensionElement("t", row.time, 3)
        if let e {
            for column in estimates where column.name != OutputColumns.elevation {
                text += Self.extensionElement(column.name, column.value(e), column.decimals)
            }
        }
        text += "<altimetry:status>\(Self.escapeXML(r.status.text))</altimetry:status></extensions></trkpt>\n"
        out.append(text)
    }

    /// `<altimetry:NAME>value</altimetry:NAME>`, or nothing for NaN or an infinity (a missing value is no element).
    private static func extensionElement(_ name: String, _ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "" }
        return "<altimetry:\(name)>\(Fixed.text(value, decimals))</altimetry:\(name)>"
    }

    /// Whether `text` is a number in JSON's grammar (a CSV cell then passes through to NDJSON as a number).
    static func isJSONNumber(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            var end = 0
            return FlatJSONObject.skipNumber(bytes, &end, bytes.count) && end == bytes.count
        }
    }

    /// The GPX document's start (a GPX input's namespaces and metadata with it).
    var gpxStart: String {
        if let gpxPoints { return gpxPoints.start }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="altimetry" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:altimetry="https://github.com/altimetry/gpx/1">

            """
    }

    /// A GPX track's opening lines: with its name when the input had tracks, or a GPX input's own track elements.
    func gpxTrackStart(_ track: Int, name: String) -> String {
        if let gpxPoints { return gpxPoints.trackStart(track) }
        return "  <trk>\n" + (columns.hasTrackColumn ? "    <name>\(Self.escapeXML(name))</name>\n" : "")
            + "    <trkseg>\n"
    }

    static let gpxTrackEnd = "    </trkseg>\n  </trk>\n"
    static let gpxEnd = "</gpx>\n"

    static func escapeXML(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(c)
            }
        }
        return out
    }

    /// Appends `text` as a CSV cell, quoted (with doubled quotes) when it holds a comma, a quote or a line break.
    static func appendCSVText(_ text: String, to out: inout [UInt8]) {
        if text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == 34 || $0 == 10 || $0 == 13 }) {
            out.append(34)
            for byte in text.utf8 {
                if byte == 34 { out.append(34) }
                out.append(byte)
            }
            out.append(34)
        } else {
            out.append(contentsOf: text.utf8)
        }
    }

    /// Appends `text` as a JSON string.
    static func appendJSONString(_ text: String, to out: inout [UInt8]) {
        out.append(34)
        for byte in text.utf8 {
            switch byte {
            case 34: out.append(contentsOf: [92, 34])
            case 92: out.append(contentsOf: [92, 92])
            case 10: out.append(contentsOf: [92, 110])
            case 13: out.append(contentsOf: [92, 114])
            case 9: out.append(contentsOf: [92, 116])
            case 0..<32:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [92, 117, 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: out.append(byte)
            }
        }
        out.append(34)
    }
}
