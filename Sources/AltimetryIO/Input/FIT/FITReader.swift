import Foundation

/// Reads a FIT activity file (`FITDecoder`) as rows: one per `record` and one per `gps_metadata` message, in time
/// order (a record first on equal times), as one track.
///
/// A record's `enhanced_altitude` (else `altitude`) is barometric by default: devices with a barometer (most
/// watches and bike computers that write FIT) record their barometric altitude there; with `--ele gps` it is a GPS
/// fix instead. A record's `absolute_pressure` (Pa), where the device writes it, is the station pressure, and
/// then its barometric altitude, from the same sensor, is not used besides. `temperature` (°C) is the station's
/// air temperature. A `gps_metadata` message's `enhanced_altitude` is always a GPS fix. Records without a time
/// are skipped, with a notice.
package enum FITReader {
    /// Parses `data` as the FIT file named `file` in messages.
    ///
    /// - Throws: `InputError` for what `FITDecoder` refuses (naming the byte offset), a file without records, a
    ///   value out of range (naming the message), or time going backwards.
    package static func read(_ data: Data, file: String, elevation option: ElevationSource? = nil) throws(InputError) -> TrackFileReading {
        let messages: FITMessages
        do {
            messages = try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws(FITDecoder.Failure) -> FITMessages in
                try FITDecoder.decode(bytes)
            }
        } catch let failure as FITDecoder.Failure {
            throw InputError(file: file, message: "at byte \(failure.offset): \(failure.message)")
        } catch {
            throw InputError(file: file, message: "\(error)", exitCode: .software)
        }
        let elevation = option ?? .barometric
        let reason = option != nil ? "--ele \(elevation.rawValue)"
            : "FIT records carry the barometric altitude on devices with a barometer; --ele gps if this device has none"
        var table = InputTable(file: file)
        table.timeTexts = []
        let iso = ISO8601Parser()
        var untimed = 0
        var rows: [InputRow] = []
        rows.reserveCapacity(messages.records.count + messages.gnssFixes.count)
        for record in messages.records {
            guard let time = record.time else { untimed += 1; continue }
            var row = InputRow(line: record.index + 1, time: time)
            try position(&row, record.latitude, record.longitude, file: file)
            if let celsius = record.temperature {
                try check(.temperatureCelsius, celsius, "temperature", row.line, file: file)
                row.temperature = celsius + 273.15
            }
            if let pascals = record.absolutePressure, elevation == .barometric {
                try check(.pressurePascals, pascals, "absolute_pressure", row.line, file: file)
                row.pressure = pascals / 100
            } else if let altitude = record.enhancedAltitude ?? record.altitude {
                let field = record.enhancedAltitude != nil ? "enhanced_altitude" : "altitude"
                switch elevation {
                case .gps:
                    try check(.gpsAltitude, altitude, field, row.line, file: file)
                    row.gpsAltitude = altitude
                case .barometric:
                    guard let pressure = ElevationSource.pressure(atBarometricAltitude: altitude) else {
                        throw InputError(file: file, line: row.line, column: (field, 0), message: "found \(altitude) m in "
                                         + "record message \(row.line), expected a barometric altitude within the standard "
                                         + "atmosphere (-1000 to 11000 m)")
                    }
                    row.pressure = pressure
                }
            }
            rows.append(row)
        }
        var fixes: [InputRow] = []
        for fix in messages.gnssFixes {
            guard let time = fix.time else { untimed += 1; continue }
            var row = InputRow(line: fix.index + 1, time: time)
            try position(&row, fix.latitude, fix.longitude, file: file)
            if let altitude = fix.altitude {
                try check(.gpsAltitude, altitude, "gps_metadata.enhanced_altitude", row.line, file: file)
                row.gpsAltitude = altitude
            }
            fixes.append(row)
        }
        if !fixes.isEmpty {
            // Both lists are in file order; a stable merge by time keeps a record before a fix of the same time.
            var merged: [InputRow] = []
            merged.reserveCapacity(rows.count + fixes.count)
            var i = 0, j = 0
            while i < rows.count || j < fixes.count {
                if j >= fixes.count || (i < rows.count && rows[i].time <= fixes[j].time) {
                    merged.append(rows[i]); i += 1
                } else {
                    merged.append(fixes[j]); j += 1
                }
            }
            rows = merged
        }
        guard !rows.isEmpty else {
            throw InputError(file: file, message: "found no record with a time (\(messages.records.count) records, "
                             + "\(messages.gnssFixes.count) gps_metadata); expected an activity file")
        }
        for k in rows.indices.dropFirst() where rows[k].time < rows[k - 1].time {
            throw InputError(file: file, line: rows[k].line, column: ("timestamp", 0), message: "time went backwards in "
                             + "message \(rows[k].line): \(iso.text(rows[k].time)) after \(iso.text(rows[k - 1].time)); "
                             + "expected times that never decrease")
        }
        table.rows = rows
        table.timeTexts = rows.map { iso.text($0.time) }
        table.trackNames = [""]
        if untimed > 0 {
            table.notices.append("notice: \(file): skipped \(untimed) message\(untimed == 1 ? "" : "s") without a timestamp")
        }
        return TrackFileReading(table: table, elevation: elevation, elevationReason: reason)
    }

    /// Gives `row` the position, checked.
    static func position(_ row: inout InputRow, _ latitude: Double?, _ longitude: Double?, file: String) throws(InputError) {
        if let latitude, let longitude {
            try check(.latitude, latitude, "position_lat", row.line, file: file)
            try check(.longitude, longitude, "position_long", row.line, file: file)
            row.latitude = latitude
            row.longitude = longitude
        }
    }

    /// Checks a value of the message numbered `line` (1-based).
    static func check(_ field: InputField, _ value: Double, _ name: String, _ line: Int, file: String) throws(InputError) {
        if let problem = ValueCheck.problem(field, value) {
            throw InputError(file: file, line: line, column: (name, 0), message: "in message \(line): \(problem)")
        }
    }
}
