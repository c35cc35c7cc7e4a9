import Foundation

/// Writes the fused track, one output row per input row, as CSV, NDJSON or GPX bytes.
///
/// Columns (CSV) and fields (NDJSON): `t` (s), `time` (ISO 8601, when the input had it), `track_id` (when the
/// input had it), `altitude_m`, `sigma_m` (one sigma), `qnh_hpa`, `qnh_sigma_hpa`, `gps_error_m`,
/// `precision_m`, `relative_alt_m`, the reference column (when the input had it), `status`. Metres carry 3
/// decimals (1 mm), hPa 3 (0.001 hPa is 1 cm of altitude) and their sigma 4. Rejected rows have empty estimate
/// fields (`null` in NDJSON).
public struct FusedTrackWriter: Sendable {
    let table: InputTable
    let fused: [FusedRow]
    /// How many threads format CSV lines (each a contiguous block of rows; the bytes do not depend on it).
    let jobs: Int

    public init(table: InputTable, fused: [FusedRow], jobs: Int = 1) {
        self.table = table
        self.fused = fused
        self.jobs = max(1, jobs)
    }

    /// The bytes of the output in `format`.
    public func bytes(_ format: OutputFormat) -> [UInt8] {
        switch format {
        case .csv: return csv()
        case .ndjson: return ndjson()
        case .gpx: return gpx()
        }
    }

    private var hasTime: Bool { table.timeTexts != nil }

    private typealias Column = (name: String, decimals: Int, value: KeyPath<FusedRow, Double>)
    // Immutable; key paths are not yet Sendable.
    nonisolated(unsafe) private static let estimateColumns: [Column] = [
        ("altitude_m", 3, \.altitude), ("sigma_m", 3, \.altitudeStandardDeviation),
        ("qnh_hpa", 3, \.seaLevelPressure), ("qnh_sigma_hpa", 4, \.seaLevelPressureStandardDeviation),
        ("gps_error_m", 3, \.gpsError), ("precision_m", 2, \.precision), ("relative_alt_m", 3, \.relativeAltitude),
    ]

    func csv() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(table.rows.count * 96 + 256)
        var header = ["t"]
        if hasTime { header.append("time") }
        if table.hasTrackColumn { header.append("track_id") }
        header += Self.estimateColumns.map(\.name)
        if let reference = table.referenceColumn { header.append(reference) }
        header.append("status")
        out.append(contentsOf: header.joined(separator: ",").utf8)
        out.append(10)
        let count = table.rows.count
        // Lines are independent, so with several jobs each formats a contiguous block into its own buffer and the
        // blocks are concatenated in order: the same bytes, the formatting spread over the cores.
        let blocks = count >= 2 * Self.minimumBlock ? min(jobs, count / Self.minimumBlock) : 1
        if blocks == 1 {
            appendCSVLines(0..<count, to: &out)
            return out
        }
        let parts = SharedBuffer<[UInt8]>(count: blocks, initial: [])
        DispatchQueue.concurrentPerform(iterations: blocks) { block in
            var part: [UInt8] = []
            let range = (block * count / blocks)..<((block + 1) * count / blocks)
            part.reserveCapacity(range.count * 96)
            appendCSVLines(range, to: &part)
            parts[block] = part
        }
        for block in 0..<blocks { out.append(contentsOf: parts[block]) }
        return out
    }

    /// Rows below which one thread formats the whole CSV.
    static let minimumBlock = 50_000

    /// Appends the CSV lines of `rows`.
    private func appendCSVLines(_ rows: Range<Int>, to out: inout [UInt8]) {
        let comma = UInt8(ascii: ",")
        // Each track's cell, quoted as needed, made once instead of once per row.
        var trackCells: [[UInt8]] = []
        if table.hasTrackColumn {
            trackCells = table.trackNames.map { name in
                var cell: [UInt8] = []
                appendCSVText(name, to: &cell)
                return cell
            }
        }
        let hasReference = table.referenceColumn != nil
        // Each line's numbers are assembled in a stack buffer and appended in one copy; a text cell (ISO time,
        // track name, a status other than ok) or a number written through `description` flushes it first.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16 * (Fixed.maximumLength + 1)) { lineBuffer in
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
            for i in rows {
                let row = table.rows[i]
                let f = fused[i]
                if !Fixed.writeTime(row.time, into: line, at: &k) { out.append(contentsOf: row.time.description.utf8) }
                if let texts = table.timeTexts { line[k] = comma; k += 1; flush(); appendCSVText(texts[i], to: &out) }
                if table.hasTrackColumn {
                    line[k] = comma
                    k += 1
                    flush()
                    out.append(contentsOf: trackCells[row.track])
                }
                // Unrolled (key paths cost more than the formatting); the order is `estimateColumns`'.
                number(f.altitude, 3)
                number(f.altitudeStandardDeviation, 3)
                number(f.seaLevelPressure, 3)
                number(f.seaLevelPressureStandardDeviation, 4)
                number(f.gpsError, 3)
                number(f.precision, 2)
                number(f.relativeAltitude, 3)
                if hasReference {
                    if let reference = row.reference { number(reference, 3) } else { line[k] = comma; k += 1 }
                }
                line[k] = comma
                k += 1
                if case .ok = f.status {
                    line[k] = 111
                    line[k + 1] = 107
                    line[k + 2] = 10
                    k += 3
                    flush()
                } else {
                    flush()
                    appendCSVText(f.status.text, to: &out)
                    out.append(10)
                }
            }
        }
    }

    private func appendCSVText(_ text: String, to out: inout [UInt8]) {
        if text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == 34 || $0 == 10 || $0 == 13 }) {
            out.append(34)
            for byte in text.utf8 { if byte == 34 { out.append(34) }; out.append(byte) }
            out.append(34)
        } else {
            out.append(contentsOf: text.utf8)
        }
    }

    func ndjson() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(table.rows.count * 200)
        for (i, row) in table.rows.enumerated() {
            let f = fused[i]
            out.append(contentsOf: "{\"t\":".utf8)
            Fixed.appendTime(row.time, to: &out)
            if let texts = table.timeTexts { out.append(contentsOf: ",\"time\":".utf8); appendJSONString(texts[i], to: &out) }
            if table.hasTrackColumn {
                out.append(contentsOf: ",\"track_id\":".utf8)
                appendJSONString(table.trackNames[row.track], to: &out)
            }
            for column in Self.estimateColumns {
                out.append(contentsOf: ",\"\(column.name)\":".utf8)
                let v = f[keyPath: column.value]
                if v.isNaN { out.append(contentsOf: "null".utf8) } else { Fixed.append(v, column.decimals, to: &out) }
            }
            if let reference = table.referenceColumn {
                out.append(contentsOf: ",\"\(reference)\":".utf8)
                if let value = row.reference { Fixed.append(value, 3, to: &out) } else { out.append(contentsOf: "null".utf8) }
            }
            out.append(contentsOf: ",\"status\":".utf8)
            appendJSONString(f.status.text, to: &out)
            out.append(contentsOf: "}\n".utf8)
        }
        return out
    }

    private func appendJSONString(_ text: String, to out: inout [UInt8]) {
        out.append(34)
        for byte in text.utf8 {
            switch byte {
            case 34: out.append(contentsOf: [92, 34])
            case 92: out.append(contentsOf: [92, 92])
            case 10: out.append(contentsOf: [92, 110])
            case 13: out.append(contentsOf: [92, 114])
            case 9: out.append(contentsOf: [92, 116])
            case 0..<32: out.append(contentsOf: String(format: "\\u%04x", byte).utf8)
            default: out.append(byte)
            }
        }
        out.append(34)
    }

    /// Whether any row lacks a position, so GPX points get latitude and longitude 0.
    public var lacksPositions: Bool { table.rows.contains { $0.latitude == nil || $0.longitude == nil } }

    /// GPX 1.1: one `trk` per track; each point's `ele` is the fused altitude and its `extensions` carry
    /// `altimetry:sigma_m`, `altimetry:qnh_hpa`, `altimetry:qnh_sigma_hpa`, `altimetry:t` and `altimetry:status`.
    func gpx() -> [UInt8] {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="altimetry" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:altimetry="https://github.com/altimetry/gpx/1">

            """
        var groups = [[Int]](repeating: [], count: table.trackNames.count)
        for (i, row) in table.rows.enumerated() { groups[row.track].append(i) }
        for (track, indices) in groups.enumerated() where !indices.isEmpty {
            text += "  <trk>\n"
            if table.hasTrackColumn { text += "    <name>\(Self.escapeXML(table.trackNames[track]))</name>\n" }
            text += "    <trkseg>\n"
            for i in indices {
                let row = table.rows[i]
                let f = fused[i]
                text += "      <trkpt lat=\"\(row.latitude ?? 0)\" lon=\"\(row.longitude ?? 0)\">"
                if !f.altitude.isNaN { text += "<ele>\(Fixed.text(f.altitude, 3))</ele>" }
                if let texts = table.timeTexts, !texts[i].isEmpty { text += "<time>\(Self.escapeXML(texts[i]))</time>" }
                text += "<extensions>"
                text += "<altimetry:t>\(Fixed.text(row.time, 3))</altimetry:t>"
                if !f.altitude.isNaN {
                    text += "<altimetry:sigma_m>\(Fixed.text(f.altitudeStandardDeviation, 3))</altimetry:sigma_m>"
                    text += "<altimetry:qnh_hpa>\(Fixed.text(f.seaLevelPressure, 3))</altimetry:qnh_hpa>"
                    text += "<altimetry:qnh_sigma_hpa>\(Fixed.text(f.seaLevelPressureStandardDeviation, 4))</altimetry:qnh_sigma_hpa>"
                }
                text += "<altimetry:status>\(Self.escapeXML(f.status.text))</altimetry:status>"
                text += "</extensions></trkpt>\n"
            }
            text += "    </trkseg>\n  </trk>\n"
        }
        text += "</gpx>\n"
        return Array(text.utf8)
    }

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
}
