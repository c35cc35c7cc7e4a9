import Altimetry
import Foundation

/// Fuses a CSV input that grows, chunk by chunk of complete lines, with the output `fuse` gives on the finished
/// file.
///
/// Lines up to the header (comments included) are kept as a prefix; each chunk of new lines is parsed as the
/// prefix followed by those lines, by the same `CSVReader`, with line numbers shifted to the file's. Each track
/// continues from its filter's checkpoint after the previous chunk, which `AltitudeFilterCheckpoint` guarantees
/// is bit-identical to never stopping. So every output row equals the one `fuse` writes for the same input row.
///
/// One difference remains, in errors only: time going backwards across two chunks is reported by the filter
/// ("the filter refused the row: …") rather than by the reader, since each chunk is checked on its own.
struct FollowFuser {
    /// The file, as named in messages.
    let file: String
    let parameters: AltitudeModelParameters
    let options: ReadOptions
    let format: OutputFormat

    /// The file's lines up to and including the header.
    private var prefix: [UInt8] = []
    private var prefixLines = 0
    private var headerFound = false
    /// File lines consumed so far, the prefix included.
    private var linesConsumed = 0
    private var headerWritten = false
    private var noticesShown = false
    private var checkpoints: [String: AltitudeFilterCheckpoint] = [:]
    /// Track names in order of first appearance.
    private(set) var trackOrder: [String] = []
    /// The estimate after each track's last usable row.
    private(set) var finals: [String: AltitudeEstimate] = [:]
    /// Input rows fused so far.
    private(set) var rowCount = 0

    init(file: String, parameters: AltitudeModelParameters, options: ReadOptions, format: OutputFormat) {
        self.file = file
        self.parameters = parameters
        self.options = options
        self.format = format
    }

    /// Whether a line (without its newline) is the header: not blank, not a comment, not commas alone.
    static func isHeader(_ line: ArraySlice<UInt8>) -> Bool {
        guard let first = line.first, first != UInt8(ascii: "#") else { return false }
        return line.contains { $0 != 32 && $0 != 9 && $0 != 13 && $0 != UInt8(ascii: ",") }
    }

    /// Fuses a chunk of complete lines (or, at the end, a last line without its newline) and returns the output
    /// bytes for its rows; diagnostics go to `console`'s standard error.
    ///
    /// - Throws: `InputError`, as `fuse` would for the same rows.
    mutating func consume(_ bytes: [UInt8], console: Console) throws(InputError) -> [UInt8] {
        var data: [UInt8] = []
        var dataLines = 0
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: 10).map { $0 + 1 } ?? bytes.endIndex
            let line = bytes[start..<end]
            if headerFound {
                data.append(contentsOf: line)
                dataLines += 1
            } else {
                prefix.append(contentsOf: line)
                prefixLines += 1
                linesConsumed += 1
                headerFound = Self.isHeader(line.last == 10 ? line.dropLast() : line)
            }
            start = end
        }
        guard headerFound, dataLines > 0 || !headerWritten else { return [] }
        let shift = linesConsumed - prefixLines
        linesConsumed += dataLines
        return try fuse(prefix + data, shift: shift, console: console)
    }

    private mutating func fuse(_ bytes: [UInt8], shift: Int, console: Console) throws(InputError) -> [UInt8] {
        func shifted(_ error: InputError) -> InputError {
            var error = error
            if let line = error.line, line > prefixLines { error.line = line + shift }
            return error
        }
        var table: InputTable
        do { table = try CSVReader.read(Data(bytes), file: file, options: options) } catch { throw shifted(error) }
        for i in table.rows.indices { table.rows[i].line += shift }
        if !noticesShown {
            for notice in table.notices { console.writeError(notice + "\n") }
            noticesShown = true
        }
        for skipped in table.skipped { console.writeError("skipped: \(shifted(skipped))\n") }
        var fused = [FusedRow](repeating: FusedRow(), count: table.rows.count)
        for (index, name) in table.trackNames.enumerated() {
            let positions = table.rows.indices.filter { table.rows[$0].track == index }
            guard !positions.isEmpty else { continue }
            var track = InputTable(file: table.file)
            track.trackNames = [name]
            track.rows = positions.map { var row = table.rows[$0]; row.track = 0; return row }
            let fuser = TrackFuser(parameters: parameters, skipInvalid: options.skipInvalid, resume: checkpoints[name], jobs: 1)
            let result = try fuser.fuse(track)
            for (k, position) in positions.enumerated() { fused[position] = result.rows[k] }
            guard let summary = result.tracks.first else { continue }
            for refused in summary.refused { console.writeError("skipped: \(refused)\n") }
            if !trackOrder.contains(name) { trackOrder.append(name) }
            checkpoints[name] = summary.checkpoint
            if let final = summary.final { finals[name] = final }
        }
        rowCount += table.rows.count
        var out = FusedTrackWriter(table: table, fused: fused).bytes(format)
        if headerWritten, format == .csv, let newline = out.firstIndex(of: 10) { out.removeSubrange(...newline) }
        headerWritten = true
        return out
    }

    /// The summary for standard error: rows, then each track's final altitude and QNH.
    var summary: String {
        var text = "rows: \(rowCount)\n"
        for name in trackOrder {
            let label = name.isEmpty ? "" : "track '\(name)': "
            guard let e = finals[name] else { text += "\(label)no usable reading\n"; continue }
            text += "\(label)final altitude \(Fixed.text(e.altitude, 1)) ± \(Fixed.text(e.altitudeStandardDeviation, 1)) m, "
                + "QNH \(Fixed.text(e.seaLevelPressure, 2)) ± \(Fixed.text(e.seaLevelPressureStandardDeviation, 2)) hPa\n"
        }
        return text
    }
}
