import Altimetry
import Foundation

/// Opens an input file or standard input as a `RowReader` for the format its name says, or reads it whole.
///
/// `.ndjson`, `.jsonl` and `.json` are NDJSON, `.gpx` is GPX, anything else CSV; standard input (`-`) is NDJSON
/// when its first non-blank byte is `{`, else CSV.
public enum InputLoader {
    /// The formats read.
    enum Format {
        case csv, ndjson, gpx
    }

    /// The bytes of `path` (`-` for standard input).
    ///
    /// - Throws: `InputError` with `.noInput` (66) when the file does not exist, is a directory or cannot be
    ///   opened, `.ioError` (74) when reading fails.
    public static func data(_ path: String) throws(InputError) -> Data {
        try InputFile(path: path).readAll()
    }

    /// Reads `path` whole as CSV, NDJSON or GPX (with `pressurePath`'s barometer readings for a GPX file).
    ///
    /// - Throws: `InputError` for an unreadable or invalid input, including the first invalid row without
    ///   `options.skipInvalid`.
    public static func table(_ path: String, pressurePath: String? = nil, options: ReadOptions,
                             jobs: Int = 1) throws(InputError) -> InputTable {
        try table(from: reader(path, pressurePath: pressurePath, options: options))
    }

    /// Every row of `reader`, in one table.
    ///
    /// - Throws: what the reader throws, and the error that stopped it early.
    static func table(from reader: any RowReader) throws(InputError) -> InputTable {
        var reader = reader
        var table = reader.header
        var chunk = reader.header
        while try reader.next(into: &chunk, approximateBytes: 1 << 16) {
            table.append(chunk)
            if let error = chunk.stoppedBy { throw error }
        }
        return table
    }

    /// A reader of `path` in the format its name (or, for standard input, its first byte) says; a GPX file is
    /// merged with `pressurePath`'s readings when given.
    ///
    /// - Parameter following: with a policy, the file is followed as it grows (`fuse --follow`).
    static func reader(_ path: String, pressurePath: String? = nil, options: ReadOptions,
                       following: FollowPolicy? = nil) throws(InputError) -> any RowReader {
        let input = try InputFile(path: path, following: following)
        let lower = path.lowercased()
        let format: Format
        if lower.hasSuffix(".gpx") {
            format = .gpx
        } else if [".ndjson", ".jsonl", ".json"].contains(where: lower.hasSuffix) {
            format = .ndjson
        } else if path == "-" {
            format = try input.firstNonBlankByte() == UInt8(ascii: "{") ? .ndjson : .csv
        } else {
            format = .csv
        }
        if format == .gpx, let pressurePath {
            let fixes = try GPXReader.read(input.readAll(), file: input.name)
            let pressure = try table(from: reader(pressurePath, options: options))
            return TableRowReader(try merge(fixes: fixes, pressure: pressure))
        }
        return try reader(input, format: format, options: options)
    }

    /// A reader of `input` in `format`.
    static func reader(_ input: InputFile, format: Format, options: ReadOptions) throws(InputError) -> any RowReader {
        switch format {
        case .csv: return try CSVReader(input, options: options)
        case .ndjson: return try NDJSONReader(input, options: options)
        case .gpx: return TableRowReader(try GPXReader.read(input.readAll(), file: input.name))
        }
    }

    /// `path` as messages name it (`<stdin>` for `-`).
    static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }

    /// Interleaves GPX fixes with a pressure file's rows by time (pressure first on equal times), as one track.
    ///
    /// - Throws: `InputError` if the pressure file has several tracks.
    static func merge(fixes: InputTable, pressure: InputTable) throws(InputError) -> InputTable {
        guard !pressure.hasTrackColumn || pressure.trackNames.count <= 1 else {
            throw InputError(file: pressure.file, message: "found several tracks; expected one pressure track for a GPX file")
        }
        var merged = InputTable(file: fixes.file + "+" + pressure.file)
        merged.referenceColumn = pressure.referenceColumn
        merged.notices = fixes.notices + pressure.notices
        merged.skipped = fixes.skipped + pressure.skipped
        merged.timeTexts = []
        let iso = ISO8601Parser()
        var i = 0, j = 0
        while i < fixes.rows.count || j < pressure.rows.count {
            let takePressure = j < pressure.rows.count && (i >= fixes.rows.count || pressure.rows[j].time <= fixes.rows[i].time)
            var row = takePressure ? pressure.rows[j] : fixes.rows[i]
            let text = takePressure ? (pressure.timeTexts?[j] ?? iso.text(row.time)) : (fixes.timeTexts?[i] ?? iso.text(row.time))
            row.track = 0
            merged.rows.append(row)
            merged.timeTexts?.append(text)
            if takePressure { j += 1 } else { i += 1 }
        }
        return merged
    }
}
