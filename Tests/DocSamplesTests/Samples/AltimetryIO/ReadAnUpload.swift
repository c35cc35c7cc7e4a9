import Altimetry
import AltimetryIO
import Foundation

/// Reads an uploaded recording into the filter's readings (time in seconds, pressure in hPa, GPS altitude and
/// its one sigma in metres, temperature in kelvin), and the rows it could not use, each naming its line and field.
func readUpload(
    _ upload: Data, named name: String
) throws(InputError) -> (readings: [AltitudeReading], problems: [InputError]) {
    let table = try InputLoader.table(upload, file: name, options: ReadOptions(skipInvalid: true))
    let readings = table.rows.filter { $0.invalidReason == nil }.map { row in
        AltitudeReading(
            time: row.time, pressure: row.pressure, gpsAltitude: row.gpsAltitude,
            gpsVerticalAccuracy: row.gpsVerticalAccuracy, temperature: row.temperature)
    }
    return (readings, table.skipped)
}
