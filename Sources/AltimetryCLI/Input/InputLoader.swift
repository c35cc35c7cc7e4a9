import Altimetry
import Foundation

/// Reads an input file or standard input in the format its name says.
///
/// `.ndjson`, `.jsonl` and `.json` are NDJSON, `.gpx` is GPX, anything else CSV; standard input (`-`) is NDJSON
/// when its first non-blank byte is `{`, else CSV.
public enum InputLoader {
    /// The bytes of `path` (`-` for standard input).
    ///
    /// - Throws: `InputError` with `.noInput` (66) when the file does not exist, is a directory or cannot be
    ///   opened, `.ioError` (74) when reading fails.
    public static func data(_ path: String) throws(InputError) -> Data {
        if path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError(file: path, message: "no such file; expected a readable input file", exitCode: .noInput)
        }
        guard !isDirectory.boolValue else {
            throw InputError(file: path, message: "is a directory; expected a readable input file", exitCode: .noInput)
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw InputError(file: path, message: "cannot be read (permission denied); expected a readable input file",
                             exitCode: .noInput)
        }
        do {
            // Foundation refuses to read anything but a regular file ("You don't have permission"), so a device,
            // a FIFO or a process substitution (/dev/fd/N) is read to its end instead.
            return try isRegularFile(path) ? Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
                : readToEnd(path)
        } catch {
            throw InputError(file: path, message: "could not be read: \(error.localizedDescription)", exitCode: .ioError)
        }
    }

    /// Reads `path` as CSV, NDJSON or GPX; a GPX file needs `pressurePath` for its barometer readings, or is
    /// read as GPS alone. A CSV file is parsed by up to `jobs` threads (the table is the same for any number).
    public static func table(_ path: String, pressurePath: String? = nil, options: ReadOptions,
                             jobs: Int = 1) throws(InputError) -> InputTable {
        try table(path, bytes: data(path), pressurePath: pressurePath, options: options, jobs: jobs)
    }

    /// Reads `bytes`, the contents of `path`, as `table(_:pressurePath:options:jobs:)` does.
    static func table(_ path: String, bytes: Data, pressurePath: String? = nil, options: ReadOptions,
                      jobs: Int = 1) throws(InputError) -> InputTable {
        let name = displayName(path)
        let lower = path.lowercased()
        if lower.hasSuffix(".gpx") {
            let fixes = try GPXReader.read(bytes, file: name)
            guard let pressurePath else { return fixes }
            let pressure = try table(pressurePath, options: options)
            return try merge(fixes: fixes, pressure: pressure)
        }
        if !isCSV(path, bytes: bytes) { return try NDJSONReader.read(bytes, file: name, options: options) }
        return try CSVReader.read(bytes, file: name, options: options, jobs: jobs)
    }

    /// `path` as messages name it (`<stdin>` for `-`).
    static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }

    /// Whether `path`, with contents `bytes`, is read as CSV: not GPX nor NDJSON by its name, nor standard input
    /// starting with `{`.
    static func isCSV(_ path: String, bytes: Data) -> Bool {
        let lower = path.lowercased()
        return !(lower.hasSuffix(".gpx") || lower.hasSuffix(".ndjson") || lower.hasSuffix(".jsonl") || lower.hasSuffix(".json")
                 || (path == "-" && bytes.first(where: { $0 != 32 && $0 != 9 && $0 != 10 && $0 != 13 }) == UInt8(ascii: "{")))
    }

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
