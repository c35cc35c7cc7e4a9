import Altimetry
import AltimetryIO

/// The input options every command that reads a recording accepts, with one help line and one message each:
/// `--ele`, `--pressure`, `--track`, `--skip-invalid`, `--vacc-confidence`.
struct InputOptions: Sendable, Equatable {
    /// The options, in the order help lists them.
    static let options: [ArgumentScanner.Option] = [
        ElevationSource.option,
        .init(
            "pressure", .value, placeholder: "FILE",
            help: "With a GPX, TCX, FIT or IGC INPUT: the barometer readings (CSV or NDJSON, absolute times)."),
        .init(
            "track", .value, placeholder: "ID",
            help: "The track to read, by name or number from 1 (default every track, or the only one)."),
        .init(
            "skip-invalid", .flag, help: "Keep going past invalid rows: each is reported and marked rejected."),
        VerticalAccuracyConvention.option,
    ]

    /// How the readers read the file.
    var read: ReadOptions
    /// The barometer readings beside a track file (`--pressure`).
    var pressure: String?
    /// The track chosen (`--track`), by name or number from 1; nil for every track.
    var track: String?

    /// The options given in `arguments`; `referenceColumn` is the command's own `--reference`, when it has one.
    ///
    /// - Throws: `UsageError` for a value `--ele` or `--vacc-confidence` does not take, or an empty `--track`.
    init(_ arguments: ArgumentScanner, referenceColumn: String? = nil) throws(UsageError) {
        read = ReadOptions(
            skipInvalid: arguments.flags.contains("skip-invalid"),
            verticalAccuracy: try VerticalAccuracyConvention(optionValue: arguments.values["vacc-confidence"]),
            referenceColumn: referenceColumn,
            elevation: try ElevationSource(optionValue: arguments.values["ele"]))
        pressure = arguments.values["pressure"]
        track = arguments.values["track"]
        if track?.isEmpty == true { throw UsageError("option '--track' expects a track's name or number, got ''") }
    }
}
