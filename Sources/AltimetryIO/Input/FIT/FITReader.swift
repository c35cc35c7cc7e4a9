import Foundation

/// Reads a FIT activity file (`FITDecoder`) as rows: one per `record`, one per `gps_metadata` message and one per
/// `barometer_data` sample, in time order (records first, then fixes, then samples, on equal times), as one track.
///
/// A record's `enhanced_altitude` (else `altitude`) is barometric by default: devices with a barometer (most
/// watches and bike computers that write FIT) record their barometric altitude there; with `--ele gps` it is a GPS
/// fix instead. A record's `absolute_pressure` (Pa), where the device writes it, is the station pressure, and
/// then its barometric altitude, from the same sensor, is not used besides. `barometer_data` samples (`baro_pres`,
/// Pa, several a message at `timestamp` + `timestamp_ms` + `sample_time_offset`) are the barometer's own stream:
/// where a file has them, they are the pressure, and the records carry none (neither `absolute_pressure` nor a
/// barometric altitude: the same sensor is not counted twice). `temperature` (°C) is the station's air
/// temperature. A `gps_metadata` message's `enhanced_altitude` is always a GPS fix. Records and samples without
/// a time are skipped, with a notice.
package enum FITReader {
    /// Parses `data` as the FIT file named `file` in messages.
    ///
    /// - Parameter skipInvalid: a record with a value out of range, or a time before the previous one, is kept
    ///   with `invalidReason` and its problem in the table's `skipped`, instead of stopping the read.
    /// A damaged file (a CRC that does not match, a truncated file) is read as far as it decodes, with a warning
    /// per problem in the table's notices, naming the byte offset.
    ///
    /// - Throws: `InputError` for what `FITDecoder` refuses (naming the byte offset), a file without records, and
    ///   without `skipInvalid` a value out of range (naming the message and field) or time going backwards.
    package static func read(
        _ data: Data, file: String, elevation option: ElevationSource? = nil,
        skipInvalid: Bool = false
    ) throws(InputError) -> TrackFileReading {
        let messages: FITMessages
        do {
            messages = try data.withUnsafeBytes {
                (bytes: UnsafeRawBufferPointer) throws(FITDecoder.Failure) -> FITMessages in
                try FITDecoder.decode(bytes)
            }
        } catch let failure as FITDecoder.Failure {
            throw InputError(file: file, message: "at byte \(failure.offset): \(failure.message)")
        } catch {
            throw InputError(file: file, message: "\(error)", exitCode: .software)
        }
        let (elevation, reason) = Self.elevation(option, messages)
        var table = InputTable(file: file)
        table.notices += messages.warnings.map { "warning: \(file): at byte \($0.offset): \($0.message)" }
        var problems = InvalidRowCollector(skipInvalid: skipInvalid, suggestsSkipping: true)
        var untimed = 0
        let barometerStream = messages.barometerSamples.contains { $0.time != nil && $0.pressure != nil }
        // Each list's times are checked as it is read; merged by time, they stay in order.
        var last = -Double.infinity
        var rows: [InputRow] = []
        rows.reserveCapacity(messages.records.count)
        for record in messages.records {
            guard let time = record.time else {
                untimed += 1
                continue
            }
            var row = InputRow(line: record.index + 1, time: time)
            try position(&row, record.latitude, record.longitude, &problems, file: file)
            if let celsius = record.temperature,
                try check(.temperatureCelsius, celsius, "temperature", row.line, &problems, file: file)
            {
                row.temperature = celsius + 273.15
            }
            if let pascals = record.absolutePressure, !barometerStream,
                try check(.pressurePascals, pascals, "absolute_pressure", row.line, &problems, file: file)
            {
                row.pressure = pascals / 100
            }
            if let altitude = record.enhancedAltitude ?? record.altitude {
                let field = record.enhancedAltitude != nil ? "enhanced_altitude" : "altitude"
                switch elevation {
                case .gps:
                    if try check(.gpsAltitude, altitude, field, row.line, &problems, file: file) {
                        row.gpsAltitude = altitude
                    }
                case .barometric where row.pressure == nil && record.absolutePressure == nil && !barometerStream:
                    if let pressure = ElevationSource.pressure(atBarometricAltitude: altitude) {
                        row.pressure = pressure
                    } else {
                        try problems.report(
                            InputError(
                                file: file, line: row.line, column: (field, 0),
                                message: "found "
                                    + "\(altitude) m in message \(row.line), expected a barometric altitude "
                                    + "within the standard atmosphere (-1000 to 11000 m)"))
                    }
                case .barometric:
                    break
                }
            }
            try order(row.time, line: row.line, &last, &problems, file: file)
            problems.finish(&row, skipped: &table.skipped)
            rows.append(consume row)
        }
        var fixes: [InputRow] = []
        last = -.infinity
        for fix in messages.gnssFixes {
            guard let time = fix.time else {
                untimed += 1
                continue
            }
            var row = InputRow(line: fix.index + 1, time: time)
            try position(&row, fix.latitude, fix.longitude, &problems, file: file)
            if let altitude = fix.altitude,
                try check(.gpsAltitude, altitude, "gps_metadata.enhanced_altitude", row.line, &problems, file: file)
            {
                row.gpsAltitude = altitude
            }
            try order(row.time, line: row.line, &last, &problems, file: file)
            problems.finish(&row, skipped: &table.skipped)
            fixes.append(consume row)
        }
        var samples: [InputRow] = []
        last = -.infinity
        for sample in messages.barometerSamples {
            guard let pascals = sample.pressure else { continue }
            guard let time = sample.time else {
                untimed += 1
                continue
            }
            var row = InputRow(line: sample.index + 1, time: time)
            if try check(.pressurePascals, pascals, "barometer_data.baro_pres", row.line, &problems, file: file) {
                row.pressure = pascals / 100
            }
            try order(row.time, line: row.line, &last, &problems, file: file)
            problems.finish(&row, skipped: &table.skipped)
            samples.append(consume row)
        }
        rows = mergedByTime([rows, fixes, samples])
        guard !rows.isEmpty else {
            throw InputError(
                file: file,
                message: "found no record with a time (\(messages.records.count) records, "
                    + "\(messages.gnssFixes.count) gps_metadata, \(messages.barometerSamples.count) barometer "
                    + "samples); expected an activity file")
        }
        if !fixes.isEmpty || !samples.isEmpty {
            // Problems were found list by list; the messages report them in file order.
            table.skipped = table.skipped.enumerated()
                .sorted { ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset) }.map(\.element)
        }
        table.rows = rows
        var texts = TimeTexts()
        texts.reserveCapacity(rows: rows.count)
        // By index: a row bound by `for row in rows` is a copy (its optional reason retained and released).
        for k in rows.indices { texts.append(time: rows[k].time) }
        table.timeTexts = texts
        table.trackNames = [""]
        if untimed > 0 {
            table.notices.append(
                "notice: \(file): skipped \(untimed) message\(untimed == 1 ? "" : "s") or sample"
                    + "\(untimed == 1 ? "" : "s") without a timestamp")
        }
        if barometerStream {
            table.notices.append(
                "notice: \(file): the pressure is the barometer_data stream (\(samples.count) samples); "
                    + "the records' barometric altitude and absolute_pressure are not used besides (one barometer)")
        }
        return TrackFileReading(table: table, elevation: elevation, elevationReason: reason)
    }

    /// Checks that the row at `time` (seconds since 1970) of message `line`, unless it has a problem already, is
    /// not before `last` (the list's last valid time), which it then becomes.
    ///
    /// - Throws: the problem, unless `problems` skips invalid rows.
    static func order(
        _ time: Double, line: Int, _ last: inout Double, _ problems: inout InvalidRowCollector,
        file: String
    ) throws(InputError) {
        guard !problems.hasProblem else { return }
        guard time < last else {
            last = time
            return
        }
        let iso = ISO8601Parser()
        try problems.report(
            InputError(
                file: file, line: line, column: ("timestamp", 0),
                message: "time went backwards "
                    + "in message \(line): \(iso.text(time)) after \(iso.text(last)); expected "
                    + "times that never decrease"))
    }

    /// The rows of `lists`, each in time order, merged in time order; on equal times the earlier list's first.
    ///
    /// - Complexity: O(n × lists.count).
    static func mergedByTime(_ lists: [[InputRow]]) -> [InputRow] {
        let nonEmpty = lists.filter { !$0.isEmpty }
        guard nonEmpty.count > 1 else { return nonEmpty.first ?? [] }
        var merged: [InputRow] = []
        merged.reserveCapacity(nonEmpty.reduce(0) { $0 + $1.count })
        var heads = [Int](repeating: 0, count: nonEmpty.count)
        while true {
            var best = -1
            for l in nonEmpty.indices where heads[l] < nonEmpty[l].count {
                if best < 0 || nonEmpty[l][heads[l]].time < nonEmpty[best][heads[best]].time { best = l }
            }
            guard best >= 0 else { return merged }
            merged.append(nonEmpty[best][heads[best]])
            heads[best] += 1
        }
    }

    /// Gives `row` the position, checked.
    static func position(
        _ row: inout InputRow, _ latitude: Double?, _ longitude: Double?,
        _ problems: inout InvalidRowCollector, file: String
    ) throws(InputError) {
        if let latitude, let longitude,
            try check(.latitude, latitude, "position_lat", row.line, &problems, file: file),
            try check(.longitude, longitude, "position_long", row.line, &problems, file: file)
        {
            row.latitude = latitude
            row.longitude = longitude
        }
    }

    /// Checks a value of the message numbered `line` (1-based): whether it is fine.
    ///
    /// - Throws: the problem, unless `problems` skips invalid rows (then it is reported there).
    static func check(
        _ field: InputField, _ value: Double, _ name: String, _ line: Int,
        _ problems: inout InvalidRowCollector, file: String
    ) throws(InputError) -> Bool {
        guard let problem = ValueCheck.problem(field, value) else { return true }
        try problems.report(
            InputError(file: file, line: line, column: (name, 0), message: "in message \(line): \(problem)"))
        return false
    }

    /// What the records' altitude is, with why: `--ele`, else the device (`FITDeviceCatalog`: `file_id`'s, then
    /// the creator's `device_info`, for a file an app wrote), else the
    /// altitude's character (`ElevationCharacter`), else barometric (most devices that write FIT have a
    /// barometer).
    static func elevation(_ option: ElevationSource?, _ messages: FITMessages) -> (ElevationSource, String) {
        if let option { return (option, "--ele \(option.rawValue)") }
        if let known = FITDeviceCatalog.elevation(
            manufacturer: messages.manufacturer, product: messages.product, productName: messages.productName)
        {
            return known
        }
        if let device = messages.creatorDevice,
            let known = FITDeviceCatalog.elevation(
                manufacturer: device.manufacturer, product: device.product, productName: device.productName)
        {
            return (known.0, known.1 + " (device_info)")
        }
        var times: [Double] = [], elevations: [Double] = []
        for record in messages.records {
            guard let time = record.time, let altitude = record.enhancedAltitude ?? record.altitude else { continue }
            times.append(time)
            elevations.append(altitude)
        }
        if let verdict = ElevationCharacter.verdict(times: times, elevations: elevations) { return verdict }
        let device = FITDeviceCatalog.describe(manufacturer: messages.manufacturer, product: messages.product)
        return (
            .barometric,
            "\(device) is not known here and its altitude is smooth; FIT records carry the barometric altitude "
                + "on devices with a barometer; --ele gps if this device has none"
        )
    }
}
