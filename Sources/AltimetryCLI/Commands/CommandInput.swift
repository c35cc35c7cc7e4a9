import Altimetry
import AltimetryIO

/// How every command reads its INPUT: the same readers, the same options (`InputOptions`) and the same messages.
enum CommandInput {
    /// Reads `input` whole (with `--pressure`'s readings) for a command that measures one track (`ascent`,
    /// `floors`, ...; `fuse` streams every track through `InputLoader.reader`), writes the readers' notices and
    /// skipped rows to standard error, and keeps the track `--track` chooses.
    ///
    /// - Parameters:
    ///   - command: the command's name, for messages.
    ///   - showsNotice: which notices are written (all by default).
    /// - Throws: the readers' `InputError`; one naming the tracks when `--track` names none, or when the file has
    ///   several and no `--track` chooses one (exit 64).
    static func oneTrack(
        _ input: String, options: InputOptions, command: String, console: Console,
        showsNotice: (String) -> Bool = { _ in true }
    ) throws(InputError) -> InputTable {
        var reader = try InputLoader.reader(
            input, pressurePath: options.pressure, options: options.read, track: options.track)
        let table = try reader.readAll()
        for notice in table.notices where showsNotice(notice) { console.writeError(notice + "\n") }
        for skipped in table.skipped { console.writeError("skipped: \(skipped)\n") }
        if table.trackNames.count > 1 {
            throw InputError(
                file: table.file,
                message: "found \(table.trackNames.count) tracks; \(command) reads one: expected --track with "
                    + table.trackList, exitCode: .usage)
        }
        return table
    }

    /// The rows of `table` that carry a reading and are not invalid, as the filter's readings.
    static func readings(_ table: InputTable) -> [AltitudeReading] {
        table.rows.filter { $0.invalidReason == nil && ($0.pressure != nil || $0.gpsAltitude != nil) }.map {
            AltitudeReading(
                time: $0.time, pressure: $0.pressure, gpsAltitude: $0.gpsAltitude,
                gpsVerticalAccuracy: $0.gpsVerticalAccuracy, temperature: $0.temperature)
        }
    }
}
