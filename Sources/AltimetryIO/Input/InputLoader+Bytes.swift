import Foundation

extension InputLoader {
    /// Reads `data`, an input already in memory (an upload), whole, as the file named `file` in messages.
    ///
    /// The format is the one the bytes show (FIT's header, GPX's or TCX's root element, NDJSON's first `{`), else
    /// the one `file`'s extension names (`.gpx`, `.tcx`, `.fit`; `.ndjson`, `.jsonl`, `.json`; `.csv`), else CSV
    /// (`InputFormat`).
    ///
    /// - Parameters:
    ///   - data: the input's bytes (a UTF-8 byte order mark at the start is dropped).
    ///   - file: the name messages and `InputError.file` give the input, such as the upload's file name.
    ///   - options: how bad values are treated and the file's conventions.
    /// - Returns: every row, with the rows kept as invalid under `options.skipInvalid` and their errors in
    ///   `InputTable.skipped`.
    /// - Throws: `InputError` for an input that cannot be read (no header, no time column, a broken track file)
    ///   and, without `options.skipInvalid`, for its first invalid row, naming the line and field.
    public static func table(_ data: Data, file: String, options: ReadOptions) throws(InputError) -> InputTable {
        try table(from: reader(data, file: file, options: options))
    }

    /// Reads `data`, a GPX, TCX or FIT upload, whole, merged with `pressure`, the barometer readings recorded
    /// beside it (a CSV or NDJSON upload with absolute times), as `fuse INPUT --pressure FILE` merges two files.
    ///
    /// - Parameters:
    ///   - data: the track file's bytes (GPX, TCX or FIT, known by their content).
    ///   - file: the track file's name in messages.
    ///   - pressure: the barometer readings' bytes.
    ///   - pressureFile: their name in messages; CSV or NDJSON by the first non-blank byte, else by the extension.
    ///   - options: how bad values are treated and the files' conventions.
    /// - Returns: one track, the two inputs' rows interleaved by time (see `merge(fixes:pressure:)`).
    /// - Throws: `InputError` when `file` is not a track file, when either input cannot be read, when the
    ///   pressure readings hold several tracks or do not overlap the track's times, and, without
    ///   `options.skipInvalid`, for the first invalid row, naming its file, line and field.
    public static func table(
        _ data: Data, file: String, pressure: Data, pressureFile: String,
        options: ReadOptions
    ) throws(InputError) -> InputTable {
        try table(
            from: reader(
                InputFile(bytes: data, name: file), pressure: InputFile(bytes: pressure, name: pressureFile),
                options: options, sniffing: true))
    }

    /// A reader of `data`, in the format `table(_:file:options:)` reads it as.
    static func reader(_ data: Data, file: String, options: ReadOptions) throws(InputError) -> any RowReader {
        try reader(InputFile(bytes: data, name: file), pressure: nil, options: options, sniffing: true)
    }
}
