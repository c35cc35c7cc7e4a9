import Altimetry
import AltimetryIO

/// The readings of a one-track input, for the commands that measure a whole track (`ascent`, `identify`).
enum SingleTrackInput {
    /// Reads `input` as `fuse` does, writes the readers' notices and skipped rows to standard error, and returns
    /// the file's display name and its rows that carry a reading.
    ///
    /// - Throws: the reader's `InputError`, or one naming the file when it holds more than one track.
    static func readings(_ input: String, options: ReadOptions, command: String, console: Console)
        throws(InputError) -> (file: String, readings: [AltitudeReading])
    {
        let table = try InputLoader.table(input, options: options)
        for notice in table.notices { console.writeError(notice + "\n") }
        for skipped in table.skipped { console.writeError("skipped: \(skipped)\n") }
        guard table.trackNames.count == 1 else {
            throw InputError(
                file: table.file, message: "found \(table.trackNames.count) tracks; \(command) expects one")
        }
        let readings = table.rows.filter { $0.invalidReason == nil && ($0.pressure != nil || $0.gpsAltitude != nil) }
            .map {
                AltitudeReading(
                    time: $0.time, pressure: $0.pressure, gpsAltitude: $0.gpsAltitude,
                    gpsVerticalAccuracy: $0.gpsVerticalAccuracy, temperature: $0.temperature)
            }
        return (table.file, readings)
    }
}
