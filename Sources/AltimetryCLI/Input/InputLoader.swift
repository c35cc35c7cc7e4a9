import Altimetry
import Foundation

/// Reads an input file or standard input in the format its name says.
///
/// `.ndjson`, `.jsonl` and `.json` are NDJSON; `.gpx`, `.tcx` and `.fit` are track files (`TrackFileFormat`);
/// anything else is CSV; standard input (`-`) is NDJSON when its first non-blank byte is `{`, else CSV.
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
            return try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch {
            throw InputError(file: path, message: "could not be read: \(error.localizedDescription)", exitCode: .ioError)
        }
    }

    /// Reads `path` as CSV, NDJSON, GPX, TCX or FIT; a track file (GPX, TCX, FIT) may take its barometer
    /// readings from `pressurePath`. A CSV file is parsed by up to `jobs` threads (the table is the same for any
    /// number).
    public static func table(_ path: String, pressurePath: String? = nil, options: ReadOptions,
                             jobs: Int = 1) throws(InputError) -> InputTable {
        try load(path, bytes: data(path), pressurePath: pressurePath, options: options, jobs: jobs).table
    }

    /// Reads `bytes`, the contents of `path`, as `table(_:pressurePath:options:jobs:)` does.
    static func table(_ path: String, bytes: Data, pressurePath: String? = nil, options: ReadOptions,
                      jobs: Int = 1) throws(InputError) -> InputTable {
        try load(path, bytes: bytes, pressurePath: pressurePath, options: options, jobs: jobs).table
    }

    /// What `load` read: the rows to fuse, and for a track file what its reader said and where its rows went.
    public struct Loaded: Sendable {
        /// The rows to fuse (a track file's rows interleaved with the pressure file's, when there is one).
        public var table: InputTable
        /// The track file's reading, when the input is GPX, TCX or FIT.
        public var trackFile: TrackFileReading?
        /// For each row of the track file, its index in `table`.
        public var trackFileRows: [Int] = []
        /// Notes for the summary (what the elevation was read as).
        public var notes: [String] = []
    }

    /// Reads `bytes`, the contents of `path`, in the format its name says (see `TrackFileFormat`).
    static func load(_ path: String, bytes: Data, pressurePath: String? = nil, options: ReadOptions,
                     jobs: Int = 1) throws(InputError) -> Loaded {
        let name = displayName(path)
        guard let format = TrackFileFormat(path: path) else {
            if pressurePath != nil {
                throw InputError(file: name, message: "--pressure goes with a GPX, TCX or FIT input; expected one of those",
                                 exitCode: .usage)
            }
            let table = isCSV(path, bytes: bytes) ? try CSVReader.read(bytes, file: name, options: options, jobs: jobs)
                : try NDJSONReader.read(bytes, file: name, options: options)
            return Loaded(table: table)
        }
        var reading = try format.read(bytes, file: name, elevation: options.elevation)
        var notes = [reading.elevationNote]
        guard let pressurePath else {
            return Loaded(table: reading.table, trackFile: reading, trackFileRows: Array(reading.table.rows.indices), notes: notes)
        }
        if reading.elevation == .barometric {
            // The file's elevation comes from a barometer too: the pressure file's readings stand for it, and the
            // elevation is not taken as a GPS fix.
            for k in reading.table.rows.indices { reading.table.rows[k].pressure = nil }
            notes.append("\(reading.table.file): its barometric elevation is not used beside --pressure "
                         + "(one barometer); --ele gps if it is GPS")
        }
        let pressure = try table(pressurePath, options: options)
        let (merged, rows) = try merge(fixes: reading.table, pressure: pressure)
        return Loaded(table: merged, trackFile: reading, trackFileRows: rows, notes: notes)
    }

    /// `path` as messages name it (`<stdin>` for `-`).
    static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }

    /// Whether `path`, with contents `bytes`, is read as CSV: not a track file nor NDJSON by its name, nor
    /// standard input starting with `{`.
    static func isCSV(_ path: String, bytes: Data) -> Bool {
        let lower = path.lowercased()
        return !(TrackFileFormat(path: path) != nil || lower.hasSuffix(".ndjson") || lower.hasSuffix(".jsonl") || lower.hasSuffix(".json")
                 || (path == "-" && bytes.first(where: { $0 != 32 && $0 != 9 && $0 != 10 && $0 != 13 }) == UInt8(ascii: "{")))
    }

    /// Interleaves a track file's rows with a pressure file's rows by time (pressure first on equal times), as one
    /// track; pressure rows without a temperature take the track file's latest one within 10 minutes (a GPX
    /// `atemp`, a FIT `temperature`).
    ///
    /// - Returns: the merged table, and for each row of `fixes` its index in it.
    /// - Throws: `InputError` if the pressure file has several tracks, or if its times do not overlap the track
    ///   file's (relative times, or another day), naming both spans.
    static func merge(fixes: InputTable, pressure: InputTable) throws(InputError) -> (InputTable, [Int]) {
        guard !pressure.hasTrackColumn || pressure.trackNames.count <= 1 else {
            throw InputError(file: pressure.file, message: "found several tracks; expected one pressure track for a GPX file")
        }
        let iso = ISO8601Parser()
        let times = { (table: InputTable) -> (Double, Double)? in
            let valid = table.rows.lazy.filter { $0.invalidReason == nil }.map(\.time)
            guard let first = valid.first, let last = valid.reduce(nil as Double?, { _, t in t }) else { return nil }
            return (first, last)
        }
        if let (a, b) = times(fixes), let (c, d) = times(pressure), d < a || c > b {
            let span = { (x: Double, y: Double) in "\(iso.text(x)) to \(iso.text(y))" }
            throw InputError(file: pressure.file, message: "its times (\(span(c, d))) do not overlap the track's in \(fixes.file) "
                             + "(\(span(a, b))); expected absolute times covering the track: a 'time' column, or 't' in "
                             + "seconds since 1970-01-01T00:00:00Z")
        }
        var merged = InputTable(file: fixes.file + "+" + pressure.file)
        merged.referenceColumn = pressure.referenceColumn
        merged.notices = fixes.notices + pressure.notices
        merged.skipped = fixes.skipped + pressure.skipped
        merged.timeTexts = []
        merged.rows.reserveCapacity(fixes.rows.count + pressure.rows.count)
        var fixRows: [Int] = []
        fixRows.reserveCapacity(fixes.rows.count)
        var latestTemperature: (time: Double, kelvin: Double)?
        var i = 0, j = 0
        while i < fixes.rows.count || j < pressure.rows.count {
            let takePressure = j < pressure.rows.count && (i >= fixes.rows.count || pressure.rows[j].time <= fixes.rows[i].time)
            var row = takePressure ? pressure.rows[j] : fixes.rows[i]
            let text = takePressure ? (pressure.timeTexts?[j] ?? iso.text(row.time)) : (fixes.timeTexts?[i] ?? iso.text(row.time))
            row.track = 0
            if takePressure {
                if row.temperature == nil, let latest = latestTemperature, row.time - latest.time <= 600 {
                    row.temperature = latest.kelvin
                }
                j += 1
            } else {
                if let kelvin = row.temperature { latestTemperature = (row.time, kelvin) }
                fixRows.append(merged.rows.count)
                i += 1
            }
            merged.rows.append(row)
            merged.timeTexts?.append(text)
        }
        return (merged, fixRows)
    }
}
