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

    func csv() -> [UInt8] {
        var formatter = FusedLineFormatter(table)
        var out = formatter.csvHeader
        let count = table.rows.count
        // Lines are independent, so with several jobs each formats a contiguous block into its own buffer and the
        // blocks are concatenated in order: the same bytes, the formatting spread over the cores.
        let blocks = count >= 2 * Self.minimumBlock ? min(jobs, count / Self.minimumBlock) : 1
        if blocks == 1 {
            var part = ByteBuffer(capacity: count * 96 + 256)
            appendCSVLines(0..<count, formatter: &formatter, to: &part)
            part.withBytes { out.append(contentsOf: $0) }
            return out
        }
        let parts = SharedBuffer<[UInt8]>(count: blocks, initial: [])
        DispatchQueue.concurrentPerform(iterations: blocks) { block in
            var formatter = FusedLineFormatter(table)
            let range = (block * count / blocks)..<((block + 1) * count / blocks)
            var part = ByteBuffer(capacity: range.count * 96)
            appendCSVLines(range, formatter: &formatter, to: &part)
            parts[block] = part.array
        }
        for block in 0..<blocks { out.append(contentsOf: parts[block]) }
        return out
    }

    /// Rows below which one thread formats the whole CSV.
    static let minimumBlock = 50_000

    /// Appends the CSV lines of `rows`.
    private func appendCSVLines(_ range: Range<Int>, formatter: inout FusedLineFormatter, to out: inout ByteBuffer) {
        table.rows.withUnsafeBufferPointer { rows in
            for i in range {
                formatter.appendCSV(rows, i, fused[i], timeText: table.timeTexts?[i], trackNames: table.trackNames, to: &out)
            }
        }
    }

    func ndjson() -> [UInt8] {
        let formatter = FusedLineFormatter(table)
        var out = ByteBuffer(capacity: table.rows.count * 200)
        table.rows.withUnsafeBufferPointer { rows in
            for i in rows.indices {
                formatter.appendNDJSON(rows, i, fused[i], timeText: table.timeTexts?[i], trackNames: table.trackNames, to: &out)
            }
        }
        return out.array
    }

    /// The rows without a position, which GPX output leaves out (a track point needs one).
    public var rowsWithoutPosition: Int { table.rows.count { $0.latitude == nil || $0.longitude == nil } }

    /// GPX 1.1: one `trk` per track, one point per row with a position (rows without one are left out); each
    /// point's `ele` is the fused altitude and its `extensions` carry `altimetry:sigma_m`, `altimetry:qnh_hpa`,
    /// `altimetry:qnh_sigma_hpa`, `altimetry:t` and `altimetry:status`. A GPX input is written back by
    /// `GPXTrackWriter` instead.
    func gpx() -> [UInt8] {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="altimetry" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:altimetry="https://github.com/altimetry/gpx/1">

            """
        var groups = [[Int]](repeating: [], count: table.trackNames.count)
        for (i, row) in table.rows.enumerated() where row.latitude != nil && row.longitude != nil { groups[row.track].append(i) }
        for (track, indices) in groups.enumerated() where !indices.isEmpty {
            text += "  <trk>\n"
            if table.hasTrackColumn { text += "    <name>\(Self.escapeXML(table.trackNames[track]))</name>\n" }
            text += "    <trkseg>\n"
            for i in indices {
                let row = table.rows[i]
                let f = fused[i]
                guard let latitude = row.latitude, let longitude = row.longitude else { continue }
                text += "      <trkpt lat=\"\(latitude)\" lon=\"\(longitude)\">"
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
