import Altimetry
import Foundation

/// Opens an input file or standard input as a `RowReader` for the format its content shows (`InputFormat`), or
/// reads it whole.
///
/// FIT, GPX and TCX are known by their first bytes, NDJSON by a first `{`; otherwise the extension decides
/// (`.gpx`, `.tcx`, `.fit` are track files, read whole; `.ndjson`, `.jsonl`, `.json` NDJSON) and anything else is
/// CSV. A followed file (`fuse --follow`) is CSV or NDJSON and goes by its name alone.
public enum InputLoader {
    /// The bytes of `path` (`-` for standard input).
    ///
    /// - Throws: `InputError` with `.noInput` (66) when the file does not exist, is a directory or cannot be
    ///   opened, `.ioError` (74) when reading fails.
    package static func data(_ path: String) throws(InputError) -> Data {
        try InputFile(path: path).readAll()
    }

    /// Reads `path` whole as CSV, NDJSON or a track file (with `pressurePath`'s barometer readings for a track
    /// file).
    ///
    /// - Parameters:
    ///   - path: the input file (`-` for standard input).
    ///   - pressurePath: a CSV or NDJSON file of barometer readings for a track file, or nil.
    ///   - options: how bad values are treated and what conventions the file follows.
    /// - Throws: `InputError` for an unreadable or invalid input, including the first invalid row without
    ///   `options.skipInvalid`.
    public static func table(
        _ path: String, pressurePath: String? = nil,
        options: ReadOptions
    ) throws(InputError) -> InputTable {
        try table(from: reader(path, pressurePath: pressurePath, options: options))
    }

    /// Every row of `reader`, in one table.
    ///
    /// - Throws: what the reader throws, and the error that stopped it early.
    static func table(from reader: any RowReader) throws(InputError) -> InputTable {
        var reader = reader
        return try reader.readAll()
    }

    /// A reader of `path` in the format its content (or, for a followed file, its name) shows; a track file is
    /// merged with `pressurePath`'s readings when given (see `merge`).
    ///
    /// - Parameters:
    ///   - following: with a policy, the file is followed as it grows (`fuse --follow`).
    ///   - track: a track's name or number from 1 (`InputTable.trackIndex`): the file is then read whole and
    ///     only that track's rows are handed out; nil for every track, read a chunk at a time.
    /// - Throws: `InputError`: the file cannot be opened or read, or (with `track`) its first invalid row
    ///   without `skipInvalid`, or a `track` it does not have.
    package static func reader(
        _ path: String, pressurePath: String? = nil, options: ReadOptions,
        following: FollowPolicy? = nil, track: String? = nil
    ) throws(InputError) -> any RowReader {
        if let track {
            let whole = try table(path, pressurePath: pressurePath, options: options)
            return TableRowReader(whole.keepingTrack(try whole.trackIndex(track)))
        }
        let input = try InputFile(path: path, following: following)
        let pressure = try pressurePath.map { (path) throws(InputError) in try InputFile(path: path) }
        return try reader(input, pressure: pressure, options: options, sniffing: following == nil)
    }

    /// A reader of `input` in the format `InputFormat.detect` finds in its first bytes and name, or, when not
    /// `sniffing` (a followed file, which may hold no bytes yet), the format its name says (CSV when it says
    /// none). A track file is merged with `pressure`'s readings when given, read as CSV or NDJSON by its content
    /// and name likewise.
    static func reader(
        _ input: InputFile, pressure: InputFile?, options: ReadOptions,
        sniffing: Bool
    ) throws(InputError) -> any RowReader {
        let format: InputFormat
        if sniffing {
            // As few bytes as tell the format, so a live pipe is not held up.
            var count = 16
            var leading = try input.leadingBytes(count)
            while leading.count == count && InputFormat.needsMoreBytes(leading) {
                count *= 4
                leading = try input.leadingBytes(count)
            }
            format = InputFormat.detect(leading: leading, name: input.name)
        } else {
            format = InputFormat(extensionOf: input.name) ?? .csv
        }
        guard case .track(let track) = format else {
            if pressure != nil {
                throw InputError(
                    file: input.name, message: "--pressure goes with a GPX, TCX or FIT input; expected one of those",
                    exitCode: .usage)
            }
            return try reader(input, format: format, options: options)
        }
        var (fixes, elevation) = try trackTable(track, input, options: options)
        guard let pressure else {
            try TrackFileFormat.requireAltitude(fixes)
            return TableRowReader(fixes)
        }
        if elevation == .barometric {
            // The file's elevation comes from a barometer too: the pressure file's readings stand for it, and the
            // elevation is not taken as a GPS fix.
            for k in fixes.rows.indices { fixes.rows[k].pressure = nil }
            fixes.notices.append(
                "notice: \(fixes.file): its barometric elevation is not used beside --pressure "
                    + "(one barometer); --ele gps if it is GPS")
        }
        let readings = try table(from: reader(pressure, pressure: nil, options: options, sniffing: true))
        return TableRowReader(try merge(fixes: fixes, pressure: readings))
    }

    /// A reader of `input` in `format`.
    static func reader(_ input: InputFile, format: InputFormat, options: ReadOptions) throws(InputError)
        -> any RowReader
    {
        switch format {
        case .csv: return try CSVReader(input, options: options)
        case .ndjson: return try NDJSONReader(input, options: options)
        case .track(let track): return TableRowReader(try trackTable(track, input, options: options).table)
        }
    }

    /// A track file's rows, with its GPX document and a notice saying what its elevation was read as.
    static func trackTable(
        _ track: TrackFileFormat, _ input: InputFile,
        options: ReadOptions
    ) throws(InputError) -> (table: InputTable, elevation: ElevationSource) {
        let reading = try track.read(
            input.readAll(), file: input.name, elevation: options.elevation,
            skipInvalid: options.skipInvalid)
        var table = reading.table
        table.gpx = reading.gpx
        table.notices.append("notice: " + reading.elevationNote)
        return (table, reading.elevation)
    }

    /// `path` as messages name it (`<stdin>` for `-`).
    package static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }

    /// Interleaves a track file's rows with a pressure file's rows by time (pressure first on equal times), as one
    /// track. A pressure row without a temperature takes the track file's latest one within 10 minutes (a GPX
    /// `atemp`, a FIT `temperature`); pressure rows lose any position (they are not the track's points).
    ///
    /// - Throws: `InputError` if the pressure file has several tracks, or if its times do not overlap the track
    ///   file's (relative times, or another day), naming both spans.
    static func merge(fixes: InputTable, pressure: InputTable) throws(InputError) -> InputTable {
        guard !pressure.hasTrackColumn || pressure.trackNames.count <= 1 else {
            throw InputError(
                file: pressure.file, message: "found several tracks; expected one pressure track for a GPX file")
        }
        let iso = ISO8601Parser()
        let span = { (table: InputTable) -> (Double, Double)? in
            let valid = table.rows.lazy.filter { $0.invalidReason == nil }.map(\.time)
            guard let first = valid.first, let last = valid.reduce(nil as Double?, { _, t in t }) else { return nil }
            return (first, last)
        }
        if let (a, b) = span(fixes), let (c, d) = span(pressure), d < a || c > b {
            let text = { (x: Double, y: Double) in "\(iso.text(x)) to \(iso.text(y))" }
            throw InputError(
                file: pressure.file,
                message: "its times (\(text(c, d))) do not overlap the track's in \(fixes.file) "
                    + "(\(text(a, b))); expected absolute times covering the track: a 'time' column, or 't' in "
                    + "seconds since 1970-01-01T00:00:00Z")
        }
        var merged = InputTable(file: fixes.file + "+" + pressure.file)
        merged.referenceColumn = pressure.referenceColumn
        merged.notices = fixes.notices + pressure.notices
        merged.skipped = fixes.skipped + pressure.skipped
        merged.gpx = fixes.gpx
        merged.timeTexts = []
        merged.rows.reserveCapacity(fixes.rows.count + pressure.rows.count)
        var latestTemperature: (time: Double, kelvin: Double)?
        var i = 0, j = 0
        while i < fixes.rows.count || j < pressure.rows.count {
            let takePressure =
                j < pressure.rows.count && (i >= fixes.rows.count || pressure.rows[j].time <= fixes.rows[i].time)
            var row = takePressure ? pressure.rows[j] : fixes.rows[i]
            let text =
                takePressure
                ? (pressure.timeTexts?[j] ?? iso.text(row.time)) : (fixes.timeTexts?[i] ?? iso.text(row.time))
            row.track = 0
            if takePressure {
                if row.temperature == nil, let latest = latestTemperature, row.time - latest.time <= 600 {
                    row.temperature = latest.kelvin
                }
                row.latitude = nil
                row.longitude = nil
                j += 1
            } else {
                if let kelvin = row.temperature { latestTemperature = (row.time, kelvin) }
                i += 1
            }
            merged.rows.append(row)
            merged.timeTexts?.append(text)
        }
        return merged
    }
}
