/// Formats one output line (CSV or NDJSON) per fused row, for `FusedTrackWriter` and `StreamingFuser` alike.
///
/// The columns are fixed by the input's header: `t`, `time` (with an ISO 8601 input), `track_id` (with a track
/// column), the estimate columns, the reference column (when present), `status`. Each track's CSV cell is
/// quoted once and kept, so a row with a track costs one copy of bytes, not a `String`.
struct FusedLineFormatter {
    /// Whether lines carry the input's `time` text.
    let hasTime: Bool
    /// Whether lines carry `track_id`.
    let hasTrackColumn: Bool
    /// The reference column's name (`true_alt_m` or `ref_alt_m`), when the input has one.
    let referenceColumn: String?
    /// Each track's CSV cell, by track index, made on first use.
    private var trackCells: [[UInt8]] = []

    init(hasTime: Bool, hasTrackColumn: Bool, referenceColumn: String?) {
        self.hasTime = hasTime
        self.hasTrackColumn = hasTrackColumn
        self.referenceColumn = referenceColumn
    }

    /// The formatter for the columns `table`'s header implies.
    init(_ table: InputTable) {
        self.init(hasTime: table.timeTexts != nil, hasTrackColumn: table.hasTrackColumn,
                  referenceColumn: table.referenceColumn)
    }

    /// The estimate columns in output order, with their decimals: metres 3 (1 mm), hPa 3 (0.001 hPa is 1 cm of
    /// altitude) and its sigma 4, the display precision 2.
    static let estimateColumns: [(name: String, decimals: Int)] = [
        ("altitude_m", 3), ("sigma_m", 3), ("qnh_hpa", 3), ("qnh_sigma_hpa", 4), ("gps_error_m", 3),
        ("precision_m", 2), ("relative_alt_m", 3),
    ]

    /// The CSV header line, with its line break.
    var csvHeader: [UInt8] {
        var header = ["t"]
        if hasTime { header.append("time") }
        if hasTrackColumn { header.append("track_id") }
        header += Self.estimateColumns.map(\.name)
        if let referenceColumn { header.append(referenceColumn) }
        header.append("status")
        return Array((header.joined(separator: ",") + "\n").utf8)
    }

    /// The most bytes a line takes besides its text cells: 10 numbers, each a comma and `Fixed.maximumLength`
    /// (also the most a `Double.description` takes), and `,ok` with the line break.
    private static let numbersSize = 10 * (Fixed.maximumLength + 1) + 4

    /// Appends the CSV line of `rows[i]` fused as `f`, written in place.
    ///
    /// - Parameters:
    ///   - timeText: the row's ISO 8601 text, with `hasTime`.
    ///   - trackNames: the track names by index, with `hasTrackColumn`.
    @inline(__always)
    mutating func appendCSV(_ rows: UnsafeBufferPointer<InputRow>, _ i: Int, _ f: FusedRow, timeText: String?,
                            trackNames: [String], to out: inout ByteBuffer) {
        let comma = UInt8(ascii: ",")
        var room = Self.numbersSize
        if hasTrackColumn {
            let track = rows[i].track
            while trackCells.count <= track {
                var cell: [UInt8] = []
                let k = trackCells.count
                Self.appendCSVText(k < trackNames.count ? trackNames[k] : "", to: &cell)
                trackCells.append(cell)
            }
            room += trackCells[track].count + 1
        }
        if hasTime { room += 2 * (timeText?.utf8.count ?? 0) + 3 }
        let line = out.reserve(room)
        var k = 0
        func place(_ text: String) {
            for byte in text.utf8 {
                line[k] = byte
                k += 1
            }
        }
        let time = rows[i].time
        if !Fixed.writeTime(time, into: line, at: &k) { place(time.description) }
        if hasTime {
            line[k] = comma
            k += 1
            var cell: [UInt8] = []
            Self.appendCSVText(timeText ?? "", to: &cell)
            for byte in cell { line[k] = byte; k += 1 }
        }
        if hasTrackColumn {
            line[k] = comma
            k += 1
            trackCells[rows[i].track].withUnsafeBufferPointer { cell in
                if let start = cell.baseAddress { (line + k).update(from: start, count: cell.count) }
                k += cell.count
            }
        }
        // Unrolled; the order is `estimateColumns`'.
        Self.number3(f.altitude, line, &k)
        Self.number3(f.altitudeStandardDeviation, line, &k)
        Self.number3(f.seaLevelPressure, line, &k)
        Self.number4(f.seaLevelPressureStandardDeviation, line, &k)
        Self.number3(f.gpsError, line, &k)
        Self.number2(f.precision, line, &k)
        Self.number3(f.relativeAltitude, line, &k)
        if referenceColumn != nil {
            if let reference = rows[i].reference { Self.number3(reference, line, &k) } else { line[k] = comma; k += 1 }
        }
        line[k] = comma
        k += 1
        if case .ok = f.status {
            line[k] = UInt8(ascii: "o")
            line[k + 1] = UInt8(ascii: "k")
            line[k + 2] = 10
            out.commit(k + 3)
        } else {
            out.commit(k)
            var cell: [UInt8] = []
            Self.appendCSVText(f.status.text, to: &cell)
            cell.append(10)
            out.append(cell)
        }
    }

    /// Writes a comma and `value` with `decimals` decimals at `line[k...]`, advancing k (through `description`
    /// for what `Fixed` does not write).
    @inline(__always)
    private static func number(_ value: Double, _ decimals: Int, _ line: UnsafeMutablePointer<UInt8>, _ k: inout Int) {
        line[k] = UInt8(ascii: ",")
        k += 1
        if !Fixed.write(value, decimals, into: line, at: &k) {
            for byte in value.description.utf8 {
                line[k] = byte
                k += 1
            }
        }
    }

    // One function per decimal count, each with its count a constant: 10^d, the divisions and the digit loops
    // fold (measured: a quarter fewer instructions to format a line than with one function taking the count). Not
    // inlined seven times into a line, and taking the line and position as arguments: a local function
    // capturing them, once not inlined, checks exclusive access to the position at every call.
    @inline(never)
    private static func number2(_ value: Double, _ line: UnsafeMutablePointer<UInt8>, _ k: inout Int) {
        number(value, 2, line, &k)
    }
    @inline(never)
    private static func number3(_ value: Double, _ line: UnsafeMutablePointer<UInt8>, _ k: inout Int) {
        number(value, 3, line, &k)
    }
    @inline(never)
    private static func number4(_ value: Double, _ line: UnsafeMutablePointer<UInt8>, _ k: inout Int) {
        number(value, 4, line, &k)
    }

    /// Appends the NDJSON line (one object) of `rows[i]` fused as `f`; parameters as in `appendCSV`.
    func appendNDJSON(_ rows: UnsafeBufferPointer<InputRow>, _ i: Int, _ f: FusedRow, timeText: String?,
                      trackNames: [String], to out: inout ByteBuffer) {
        func literal(_ text: StaticString) {
            out.append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
        func number(_ v: Double, _ decimals: Int) {
            let place = out.reserve(Fixed.maximumLength)
            var k = 0
            if Fixed.write(v, decimals, into: place, at: &k) { out.commit(k) } else { out.append(v.description) }
        }
        func string(_ text: String) {
            var bytes: [UInt8] = []
            Self.appendJSONString(text, to: &bytes)
            out.append(bytes)
        }
        literal("{\"t\":")
        let time = rows[i].time
        let place = out.reserve(Fixed.maximumLength)
        var k = 0
        if Fixed.writeTime(time, into: place, at: &k) { out.commit(k) } else { out.append(time.description) }
        if hasTime { literal(",\"time\":"); string(timeText ?? "") }
        if hasTrackColumn {
            literal(",\"track_id\":")
            let track = rows[i].track
            string(track < trackNames.count ? trackNames[track] : "")
        }
        func field(_ name: StaticString, _ v: Double, _ decimals: Int) {
            literal(name)
            if v.isNaN { literal("null") } else { number(v, decimals) }
        }
        // Unrolled (no array per row); names and decimals are `estimateColumns`'.
        field(",\"altitude_m\":", f.altitude, 3)
        field(",\"sigma_m\":", f.altitudeStandardDeviation, 3)
        field(",\"qnh_hpa\":", f.seaLevelPressure, 3)
        field(",\"qnh_sigma_hpa\":", f.seaLevelPressureStandardDeviation, 4)
        field(",\"gps_error_m\":", f.gpsError, 3)
        field(",\"precision_m\":", f.precision, 2)
        field(",\"relative_alt_m\":", f.relativeAltitude, 3)
        if let referenceColumn {
            out.append(",\"\(referenceColumn)\":")
            if let value = rows[i].reference { number(value, 3) } else { literal("null") }
        }
        literal(",\"status\":")
        string(f.status.text)
        literal("}\n")
    }

    /// Appends `text` as a CSV cell, quoted (with doubled quotes) when it holds a comma, a quote or a line break.
    static func appendCSVText(_ text: String, to out: inout [UInt8]) {
        if text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == 34 || $0 == 10 || $0 == 13 }) {
            out.append(34)
            for byte in text.utf8 { if byte == 34 { out.append(34) }; out.append(byte) }
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
