import Foundation

/// Reads a Garmin Training Center (TCX) file's track points as rows.
///
/// Every `Trackpoint` (of an `Activity` or a `Course`, each one track) needs a `Time` (RFC 3339); its `Position`
/// (`LatitudeDegrees`, `LongitudeDegrees`, WGS 84) and `AltitudeMeters` are optional. The altitude is a GPS fix
/// or, with `ElevationSource.barometric`, a barometric altitude; the default follows the first activity's
/// `Creator` `Name` (see `ElevationSource.resolved`), which TCX writes after the laps, so altitudes are turned
/// into readings once the file is read. Heart rate, cadence and the rest are not read. Namespace prefixes are
/// ignored (elements are matched by local name).
package enum TCXReader {
    /// Parses `data` as the TCX file named `file` in messages.
    ///
    /// - Throws: `InputError` for XML that is not well formed (with line and column), no track point, a track
    ///   point without a time, a value out of range, or time going backwards within a track.
    package static func read(_ data: Data, file: String, elevation: ElevationSource? = nil) throws(InputError) -> TrackFileReading {
        do {
            return try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws(InputError) -> TrackFileReading in
                var parser = Parser(file: file)
                return try parser.parse(bytes, elevation: elevation)
            }
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError(file: file, message: "\(error)", exitCode: .software)
        }
    }

    /// The elements whose text is read.
    enum Value { case time, latitude, longitude, altitude, creatorName }

    struct Parser {
        let file: String
        var table: InputTable
        var lines = LineCounter()
        /// Each row's altitude in metres, NaN for none, turned into a reading at the end.
        var altitudes: [Double] = []
        var row: InputRow?
        var altitude = Double.nan
        var timeText = ""
        var value: Value?
        var buffer: [UInt8] = []
        var creatorDepth = 0
        var creator: String?

        init(file: String) {
            self.file = file
            table = InputTable(file: file)
            table.trackNames = []
            table.timeTexts = []
        }

        mutating func parse(_ bytes: UnsafeRawBufferPointer, elevation option: ElevationSource?) throws(InputError) -> TrackFileReading {
            guard !bytes.isEmpty else {
                throw InputError(file: file, message: "the file is empty; expected a TCX document with track points")
            }
            do {
                var scanner = try XMLScanner(bytes)
                while let event = try scanner.next() {
                    switch event {
                    case .start(let name, _): try start(name, scanner)
                    case .text(let range, _): if value != nil { scanner.appendDecoded(range, to: &buffer) }
                    case .end(let name): try end(name, scanner)
                    }
                }
            } catch let failure as XMLScanner.Failure {
                var counter = LineCounter()
                let (line, column) = counter.location(failure.offset, in: bytes)
                throw InputError(file: file, line: line, message: "malformed TCX (XML error at column \(column): \(failure.message))")
            } catch let error as InputError {
                throw error
            } catch {
                throw InputError(file: file, message: "\(error)", exitCode: .software)
            }
            guard !table.rows.isEmpty else {
                throw InputError(file: file, message: "found no track points (Trackpoint); expected a TCX activity or course")
            }
            let (elevation, reason) = ElevationSource.resolved(option, creator: creator ?? "")
            for k in table.rows.indices where !altitudes[k].isNaN {
                switch elevation {
                case .gps: table.rows[k].gpsAltitude = altitudes[k]
                case .barometric:
                    guard let pressure = ElevationSource.pressure(atBarometricAltitude: altitudes[k]) else {
                        throw InputError(file: file, line: table.rows[k].line, column: ("AltitudeMeters", 0),
                                         message: "found \(altitudes[k]), expected a barometric altitude within the "
                                         + "standard atmosphere (-1000 to 11000 m)")
                    }
                    table.rows[k].pressure = pressure
                }
            }
            return TrackFileReading(table: table, elevation: elevation, elevationReason: reason)
        }

        func error(_ scanner: XMLScanner, field: String, _ message: String) -> InputError {
            var counter = lines
            return InputError(file: file, line: counter.location(scanner.eventStart, in: scanner.bytes).line,
                              column: (field, 0), message: message)
        }

        mutating func start(_ name: Range<Int>, _ scanner: XMLScanner) throws(InputError) {
            if scanner.localName(name, is: "Activity") || scanner.localName(name, is: "Course") {
                table.trackNames.append("track \(table.trackNames.count + 1)")
            } else if scanner.localName(name, is: "Trackpoint") {
                if table.trackNames.isEmpty { table.trackNames = ["track 1"] }
                let line = lines.location(scanner.eventStart, in: scanner.bytes).line
                row = InputRow(line: line, time: .nan, track: table.trackNames.count - 1)
                altitude = .nan
                timeText = ""
            } else if scanner.localName(name, is: "Creator") {
                creatorDepth = scanner.open.count
            } else if row != nil {
                value = scanner.localName(name, is: "Time") ? .time : scanner.localName(name, is: "LatitudeDegrees") ? .latitude
                    : scanner.localName(name, is: "LongitudeDegrees") ? .longitude
                    : scanner.localName(name, is: "AltitudeMeters") ? .altitude : nil
                buffer.removeAll(keepingCapacity: true)
            } else if creatorDepth > 0 && creator == nil && scanner.localName(name, is: "Name")
                        && scanner.open.count == creatorDepth + 1 {
                value = .creatorName
                buffer.removeAll(keepingCapacity: true)
            }
        }

        mutating func end(_ name: Range<Int>, _ scanner: XMLScanner) throws(InputError) {
            if let kind = value {
                value = nil
                try finishValue(kind, scanner)
            }
            if scanner.localName(name, is: "Trackpoint") {
                try finishPoint(scanner)
            } else if scanner.localName(name, is: "Creator") {
                creatorDepth = 0
            }
        }

        mutating func finishValue(_ kind: Value, _ scanner: XMLScanner) throws(InputError) {
            // Numbers and times are read from the bytes; a string is made only for the time text and messages.
            let text = { [buffer] in String(decoding: buffer, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
            switch kind {
            case .creatorName:
                creator = text()
            case .time:
                let trimmed = buffer.withUnsafeBytes { DecimalNumber.trimmed($0) }
                let seconds = buffer.withUnsafeBytes { ISO8601Parser.seconds(UnsafeRawBufferPointer(rebasing: $0[trimmed])) }
                guard let seconds else {
                    throw error(scanner, field: "Time", "found '\(text())', expected an ISO 8601 time such as 2024-05-01T12:00:00Z")
                }
                row?.time = seconds
                timeText = String(decoding: buffer[trimmed], as: UTF8.self)
            case .altitude:
                guard let metres = buffer.withUnsafeBytes(DecimalNumber.parse), abs(metres) < 20_000 else {
                    throw error(scanner, field: "AltitudeMeters", "found '\(text())', expected an altitude in metres within ±20,000")
                }
                altitude = metres
            case .latitude, .longitude:
                let isLatitude = kind == .latitude
                let field = isLatitude ? "LatitudeDegrees" : "LongitudeDegrees"
                guard let degrees = buffer.withUnsafeBytes(DecimalNumber.parse),
                      ValueCheck.problem(isLatitude ? .latitude : .longitude, degrees) == nil else {
                    throw error(scanner, field: field, "found '\(text())', expected "
                                + (isLatitude ? "a latitude in degrees within ±90" : "a longitude in degrees within ±180"))
                }
                if isLatitude { row?.latitude = degrees } else { row?.longitude = degrees }
            }
        }

        mutating func finishPoint(_ scanner: XMLScanner) throws(InputError) {
            guard let finished = row else { return }
            row = nil
            guard !finished.time.isNaN else {
                throw error(scanner, field: "Time", "found a Trackpoint without a Time; expected <Time>")
            }
            guard (finished.latitude == nil) == (finished.longitude == nil) else {
                throw error(scanner, field: "Position", "found a Position with only one of LatitudeDegrees and "
                            + "LongitudeDegrees; expected both")
            }
            if let last = table.rows.last, last.track == finished.track, finished.time < last.time {
                throw error(scanner, field: "Time", "time went backwards: found \(timeText) before the previous point; "
                            + "expected times that never decrease")
            }
            table.rows.append(finished)
            table.timeTexts?.append(timeText)
            altitudes.append(altitude)
        }
    }
}
