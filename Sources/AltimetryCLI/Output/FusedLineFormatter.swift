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

    /// The most bytes a line's numbers take in the line buffer: 10 numbers, each a comma and `Fixed.maximumLength`.
    private static let lineBufferSize = 16 * (Fixed.maximumLength + 1)

    /// Appends the CSV line of `rows[i]` fused as `f`.
    ///
    /// - Parameters:
    ///   - timeText: the row's ISO 8601 text, with `hasTime`.
    ///   - trackNames: the track names by index, with `hasTrackColumn`.
    @inline(__always)
    mutating func appendCSV(_ rows: UnsafeBufferPointer<InputRow>, _ i: Int, _ f: FusedRow, timeText: String?,
                            trackNames: [String], to out: inout [UInt8]) {
        let comma = UInt8(ascii: ",")
        var trackCell: [UInt8] = []
        if hasTrackColumn {
            let track = rows[i].track
            while trackCells.count <= track {
                var cell: [UInt8] = []
                let k = trackCells.count
                Self.appendCSVText(k < trackNames.count ? trackNames[k] : "", to: &cell)
                trackCells.append(cell)
            }
            trackCell = trackCells[track]
        }
        let time = rows[i].time
        let reference = rows[i].reference
        // The line's numbers are assembled in a stack buffer and appended in one copy; a text cell (ISO time,
        // track name, a status other than ok) or a number written through `description` flushes it first.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.lineBufferSize) { lineBuffer in
            guard let line = lineBuffer.baseAddress else { return }
            var k = 0
            func flush() {
                out.append(contentsOf: UnsafeBufferPointer(start: line, count: k))
                k = 0
            }
            func number(_ value: Double, _ decimals: Int) {
                line[k] = comma
                k += 1
                if !Fixed.write(value, decimals, into: line, at: &k) {
                    flush()
                    out.append(contentsOf: value.description.utf8)
                }
            }
            if !Fixed.writeTime(time, into: line, at: &k) { out.append(contentsOf: time.description.utf8) }
            if hasTime { line[k] = comma; k += 1; flush(); Self.appendCSVText(timeText ?? "", to: &out) }
            if hasTrackColumn {
                line[k] = comma
                k += 1
                flush()
                out.append(contentsOf: trackCell)
            }
            // Unrolled; the order is `estimateColumns`'.
            number(f.altitude, 3)
            number(f.altitudeStandardDeviation, 3)
            number(f.seaLevelPressure, 3)
            number(f.seaLevelPressureStandardDeviation, 4)
            number(f.gpsError, 3)
            number(f.precision, 2)
            number(f.relativeAltitude, 3)
            if referenceColumn != nil {
                if let reference { number(reference, 3) } else { line[k] = comma; k += 1 }
            }
            line[k] = comma
            k += 1
            if case .ok = f.status {
                line[k] = UInt8(ascii: "o")
                line[k + 1] = UInt8(ascii: "k")
                line[k + 2] = 10
                k += 3
                flush()
            } else {
                flush()
                Self.appendCSVText(f.status.text, to: &out)
                out.append(10)
            }
        }
    }

    /// Appends the NDJSON line (one object) of `rows[i]` fused as `f`; parameters as in `appendCSV`.
    func appendNDJSON(_ rows: UnsafeBufferPointer<InputRow>, _ i: Int, _ f: FusedRow, timeText: String?,
                      trackNames: [String], to out: inout [UInt8]) {
        out.append(contentsOf: "{\"t\":".utf8)
        Fixed.appendTime(rows[i].time, to: &out)
        if hasTime { out.append(contentsOf: ",\"time\":".utf8); Self.appendJSONString(timeText ?? "", to: &out) }
        if hasTrackColumn {
            out.append(contentsOf: ",\"track_id\":".utf8)
            let track = rows[i].track
            Self.appendJSONString(track < trackNames.count ? trackNames[track] : "", to: &out)
        }
        func field(_ name: StaticString, _ v: Double, _ decimals: Int) {
            out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            if v.isNaN { out.append(contentsOf: "null".utf8) } else { Fixed.append(v, decimals, to: &out) }
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
            out.append(contentsOf: ",\"\(referenceColumn)\":".utf8)
            if let value = rows[i].reference { Fixed.append(value, 3, to: &out) } else { out.append(contentsOf: "null".utf8) }
        }
        out.append(contentsOf: ",\"status\":".utf8)
        Self.appendJSONString(f.status.text, to: &out)
        out.append(contentsOf: "}\n".utf8)
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
