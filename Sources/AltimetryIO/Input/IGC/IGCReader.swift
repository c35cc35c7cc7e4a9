import Foundation

/// Reads an IGC flight recorder file (a vario's or a glider logger's) as rows: one per B record, with both of
/// its altitudes.
///
/// A B record carries a pressure altitude and a GNSS altitude at every fix (`IGCFix`): the ideal input. The
/// pressure altitude is the barometer: the recorder computes it from its pressure sensor through the ISA with
/// 1013.25 hPa at sea level, in whole metres, so it is turned back into the pressure it came from
/// (`ElevationSource.pressure(atBarometricAltitude:)`), within half a metre of altitude (the quantisation, about
/// 0.06 hPa at sea level, σ = 1/√12 m ≈ 0.29 m, below any barometer's own noise). The GNSS altitude is the GPS
/// fix, except on a fix flagged `V` (no valid 3D fix), whose row keeps the pressure alone. Where a recorder has
/// no such altitude the specification fills the field with zeros: a file whose every pressure altitude is 0 has
/// no pressure sensor, one whose every GNSS altitude is 0 none from GNSS (a phone app with the altitude off);
/// such a field is not read, and the summary's note says so. A run of zeros amid real altitudes (fixes before the
/// sensor reads) is a placeholder too (`TrackFileReading.removeZeroPlaceholders(of:)`).
///
/// Times are UTC: the date of the `HFDTE` header (`HFDTEDDMMYY`, or `HFDTEDATE:DDMMYY,NN` since the 2016
/// specification) plus each B record's time of day; a time more than 12 hours earlier than the last is the next
/// day (a flight across midnight UTC); a time earlier by less is a time going backwards, a bad record. The I
/// record's `LAD` and `LOD` extensions add a digit to the minutes of the position (`IGCExtensions`). Other
/// records (A, C, D, E, F, G, K, L and the other H records) are not read.
///
/// A bad B record stops the read, naming the line, the field and its columns; with `skipInvalid` it is kept as
/// a rejected row instead (`InvalidRowCollector`).
package enum IGCReader {
    /// How far back a fix's time of day may jump, in seconds, before it is taken as the next day.
    static let rolloverThreshold = 43_200

    /// Parses `data` as the IGC file named `file` in messages.
    ///
    /// - Parameter elevation: `--ele`, which does not apply (a B record holds both altitudes); given, the
    ///   summary's note says so.
    /// - Throws: `InputError` for an empty file, a file with no B record, a B record before the date, a bad
    ///   date or I record, and without `skipInvalid` a bad B record or time going backwards, each naming the
    ///   line and field.
    package static func read(
        _ data: Data, file: String, elevation: ElevationSource? = nil, skipInvalid: Bool = false
    ) throws(InputError) -> TrackFileReading {
        var parser = Parser(file: file, skipInvalid: skipInvalid)
        try parser.parse([UInt8](data))
        return try parser.reading(elevation: elevation)
    }

    struct Parser {
        let file: String
        var table: InputTable
        var problems: InvalidRowCollector
        /// Seconds from 1970-01-01T00:00:00Z to the flight's first midnight UTC, once the date is read.
        var midnight: Double?
        var extensions = IGCExtensions()
        /// Whole days since the date's midnight (a flight across midnight UTC).
        var days = 0
        /// The last valid fix's seconds since the date's midnight.
        var lastTime: Int?
        /// Each row's pressure altitude (metres; nil for a rejected row), turned into pressure at the end.
        var pressureAltitudes: [Int?] = []
        /// Whether any fix has a GNSS altitude other than 0.
        var hasGNSSAltitude = false

        init(file: String, skipInvalid: Bool) {
            self.file = file
            table = InputTable(file: file)
            table.timeTexts = []
            problems = InvalidRowCollector(skipInvalid: skipInvalid, suggestsSkipping: true)
        }

        mutating func parse(_ bytes: [UInt8]) throws(InputError) {
            guard bytes.contains(where: { ![32, 9, 10, 13].contains($0) }) else {
                throw InputError(file: file, message: "the file is empty; expected an IGC file with B records")
            }
            var line = 0
            var start = 0
            while start < bytes.count {
                line += 1
                var end = bytes[start...].firstIndex(of: 10) ?? bytes.count
                let next = end + 1
                if end > start && bytes[end - 1] == 13 { end -= 1 }
                let record = bytes[start..<end]
                start = next
                switch record.first {
                case UInt8(ascii: "B"): try fix(record, line: line)
                case UInt8(ascii: "H"): try header(record, line: line)
                case UInt8(ascii: "I"):
                    do { extensions = try IGCExtensions(record) } catch { throw self.error(error, line: line) }
                default: continue
                }
            }
            guard !table.rows.isEmpty else {
                throw InputError(file: file, message: "found no B record (fix); expected an IGC flight with fixes")
            }
        }

        /// Reads the date from an `HFDTE` (or `HODTE`, `HPDTE`) record; other H records are not read.
        mutating func header(_ record: ArraySlice<UInt8>, line: Int) throws(InputError) {
            let text = String(decoding: record, as: UTF8.self)
            guard text.count >= 5, text.dropFirst(2).hasPrefix("DTE") else { return }
            var body = text.dropFirst(5)
            if body.hasPrefix("DATE:") { body = body.dropFirst(5) }
            let digits = body.prefix(6)
            let bad = InputError(
                file: file, line: line, column: ("date", 6),
                message: "found \(InputError.quoted(text)); expected HFDTEDDMMYY or HFDTEDATE:DDMMYY,NN (a UTC date)")
            guard digits.count == 6, digits.allSatisfy(\.isASCII), let day = Int(digits.prefix(2)),
                let month = Int(digits.dropFirst(2).prefix(2)), let year = Int(digits.suffix(2)),
                (1...12).contains(month), day >= 1, day <= ISO8601Parser.daysInMonth(month, year: Self.fullYear(year))
            else { throw bad }
            midnight = Double(ISO8601Parser.daysFromCivil(year: Self.fullYear(year), month: month, day: day)) * 86_400
        }

        /// Reads a B record as a row.
        mutating func fix(_ record: ArraySlice<UInt8>, line: Int) throws(InputError) {
            guard let midnight else {
                throw InputError(
                    file: file, line: line,
                    message: "found a B record before the date; expected an HFDTE record (HFDTEDDMMYY) before the fixes"
                )
            }
            var row = InputRow(line: line, time: .nan)
            var pressureAltitude: Int?
            let decoded: IGCFix?
            do throws(IGCFixError) { decoded = try IGCFix(record, extensions: extensions) } catch {
                decoded = nil
                try problems.report(self.error(error, line: line))
            }
            if let fix = decoded {
                var time = fix.secondsOfDay + 86_400 * days
                if let lastTime, time < lastTime - IGCReader.rolloverThreshold {
                    days += 1
                    time += 86_400
                }
                row.time = midnight + Double(time)
                row.latitude = fix.latitude
                row.longitude = fix.longitude
                row.gpsAltitude = fix.isValid ? Double(fix.gnssAltitude) : nil
                if fix.gnssAltitude != 0 { hasGNSSAltitude = true }
                pressureAltitude = fix.pressureAltitude
                if let lastTime, time < lastTime {
                    try problems.report(
                        InputError(
                            file: file, line: line, column: (IGCFix.time.name, 2),
                            message: "time went backwards: found \(Self.clock(time)) after \(Self.clock(lastTime)); "
                                + "expected times that never decrease (a day later only across midnight)"))
                } else {
                    lastTime = time
                }
                if let problem = ValueCheck.problem(.barometricAltitude, Double(fix.pressureAltitude)) {
                    try problems.report(
                        InputError(
                            file: file, line: line, column: (IGCFix.pressureAltitude.name, 26), message: problem))
                }
            }
            problems.finish(&row, skipped: &table.skipped)
            if row.invalidReason != nil {
                row.gpsAltitude = nil
                pressureAltitude = nil
            }
            if row.time.isNaN { row.time = table.rows.last?.time ?? midnight }
            table.rows.append(row)
            table.timeTexts?.append(time: row.time)
            pressureAltitudes.append(pressureAltitude)
        }

        /// The message for a record that could not be decoded, naming the field and its columns.
        func error(_ error: IGCFixError, line: Int) -> InputError {
            switch error {
            case .short(let length):
                return InputError(
                    file: file, line: line,
                    message: "found a B record of \(length) characters; expected at least \(IGCFix.minimumLength) "
                        + "(time, latitude, longitude, fix validity, pressure altitude, GNSS altitude)")
            case .field(let field, let found):
                return InputError(
                    file: file, line: line, column: (field.name, field.columns.lowerBound),
                    message: "found \(InputError.quoted(found)) in columns \(field.columns.lowerBound)-"
                        + "\(field.columns.upperBound); expected \(field.expected)")
            }
        }

        /// The rows with their pressures, and what the altitudes were read as.
        mutating func reading(elevation option: ElevationSource?) throws(InputError) -> TrackFileReading {
            let hasBarometer = pressureAltitudes.contains { $0 != nil && $0 != 0 }
            for k in table.rows.indices {
                if hasBarometer {
                    table.rows[k].pressure = pressureAltitudes[k].flatMap {
                        ElevationSource.pressure(atBarometricAltitude: Double($0))
                    }
                }
                if !hasGNSSAltitude { table.rows[k].gpsAltitude = nil }
            }
            var reason = "IGC B records: "
            switch (hasBarometer, hasGNSSAltitude) {
            case (true, true):
                reason += "the pressure altitude (ISA, 1013.25 hPa) is the barometer, the GNSS altitude GPS"
            case (true, false):
                reason +=
                    "the pressure altitude (ISA, 1013.25 hPa) is the barometer; every GNSS altitude is 0, not read"
            case (false, true):
                reason += "every pressure altitude is 0, no pressure sensor; the GNSS altitude alone, as GPS"
            case (false, false):
                throw InputError(
                    file: file,
                    message: "found no altitude: every B record's pressure altitude and GNSS altitude is 0 (the "
                        + "placeholder of a recorder without them); expected a barometer or a GNSS altitude")
            }
            if let option { reason += "; --ele \(option.rawValue) does not apply, a B record holds both" }
            var reading = TrackFileReading(
                table: table, elevation: hasBarometer ? .barometric : .gps, elevationReason: reason)
            // Runs of zeros amid real altitudes (a recorder's first fixes before its sensor reads) are placeholders.
            reading.removeZeroPlaceholders(of: .barometric)
            reading.removeZeroPlaceholders(of: .gps)
            return reading
        }

        /// `seconds` since the date's midnight as `HH:MM:SS`, with `+1 d` past the first day.
        static func clock(_ seconds: Int) -> String {
            let day = seconds / 86_400, rest = seconds % 86_400
            let text = [rest / 3_600, rest / 60 % 60, rest % 60].map { $0 < 10 ? "0\($0)" : "\($0)" }
            return text.joined(separator: ":") + (day > 0 ? " +\(day) d" : "")
        }

        /// A two-digit year as aerofiles and Python's `%y` read it: 69 to 99 are 1969 to 1999, 00 to 68 2000 to 2068.
        static func fullYear(_ year: Int) -> Int { year < 69 ? 2_000 + year : 1_900 + year }
    }
}
