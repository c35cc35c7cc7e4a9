import Foundation

extension FusePipeline {
    /// Fuses the input file at `path` into `sink`, a chunk at a time (memory does not grow with the file).
    ///
    /// The format is the one the content shows, else the name's extension (`InputFormat`), as for
    /// `InputLoader.table(_:pressurePath:options:)`; `-` is standard input.
    ///
    /// - Parameters:
    ///   - path: the input file (CSV, NDJSON, GPX, TCX or FIT), or `-` for standard input.
    ///   - pressurePath: with a GPX, TCX or FIT input, a CSV or NDJSON file of barometer readings with absolute
    ///     times, merged with its track points by time.
    ///   - options: how the reader treats bad values and the file's conventions; rows the filter refuses follow
    ///     `skipInvalid`.
    ///   - sink: where the output's bytes go, in `format`; the caller commits it after the run (a file sink's
    ///     file appears only then); a failed run has abandoned it.
    ///   - diagnostics: called with each notice and each skipped row, in input order, one call at a time.
    /// - Returns: the input's header, the rows written, and a summary per track.
    /// - Throws: `InputError`: the first bad row (without `skipInvalid`), a structural problem, a failed read or
    ///   write. The rows before it have been written to `sink`.
    public func run(
        path: String, pressurePath: String? = nil, options: ReadOptions, to sink: OutputSink,
        diagnostics: @escaping @Sendable (FuseDiagnostic) -> Void
    ) throws(InputError) -> Outcome {
        try run(
            InputLoader.reader(path, pressurePath: pressurePath, options: options), to: sink,
            diagnostics: diagnostics)
    }

    /// Fuses `data`, an input already in memory (an upload), as the file named `file`, into `sink`.
    ///
    /// The format is the one `InputLoader.table(_:file:options:)` reads `data` as.
    ///
    /// - Parameters:
    ///   - data: the input's bytes.
    ///   - file: the name messages give the input; its extension says the format where the content does not.
    ///   - options: how the reader treats bad values and the file's conventions; rows the filter refuses follow
    ///     `skipInvalid`.
    ///   - sink: where the output's bytes go, in `format`; the caller commits it after the run (a file sink's
    ///     file appears only then); a failed run has abandoned it.
    ///   - diagnostics: called with each notice and each skipped row, in input order, one call at a time.
    /// - Returns: the input's header, the rows written, and a summary per track.
    /// - Throws: `InputError`, as `run(path:pressurePath:options:to:diagnostics:)` does.
    public func run(
        _ data: Data, file: String, options: ReadOptions, to sink: OutputSink,
        diagnostics: @escaping @Sendable (FuseDiagnostic) -> Void
    ) throws(InputError) -> Outcome {
        try run(InputLoader.reader(data, file: file, options: options), to: sink, diagnostics: diagnostics)
    }

    /// Fuses rows already read (`InputLoader.table`, or rows a server built) into `sink`.
    ///
    /// - Parameters:
    ///   - table: the rows, in input order; within a track, time must not decrease.
    ///   - sink: where the output's bytes go, in `format`; the caller commits it after the run (a file sink's
    ///     file appears only then); a failed run has abandoned it.
    ///   - diagnostics: called with each notice and each skipped row, in input order, one call at a time.
    /// - Returns: the table's header, the rows written, and a summary per track.
    /// - Throws: `InputError` for a row the filter refuses (without `skipInvalid`) or a failed write.
    public func run(
        _ table: InputTable, to sink: OutputSink,
        diagnostics: @escaping @Sendable (FuseDiagnostic) -> Void
    ) throws(InputError) -> Outcome {
        try run(TableRowReader(table), to: sink, diagnostics: diagnostics)
    }
}
