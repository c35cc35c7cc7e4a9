import Foundation

/// Reads a Garmin Training Center (TCX) file's track points as rows.
///
/// Every `Trackpoint` (of an `Activity` or a `Course`, each one track) needs a `Time` (RFC 3339); its `Position`
/// (`LatitudeDegrees`, `LongitudeDegrees`, WGS 84) and `AltitudeMeters` are optional. The altitude is a GPS fix
/// or, with `ElevationSource.barometric`, a barometric altitude; the default follows the first activity's
/// `Creator` `Name` (see `ElevationSource.resolved`), which TCX writes after the laps, so altitudes are turned
/// into readings once the file is read. Heart rate, cadence and the rest are not read. Namespace prefixes are
/// ignored (elements are matched by local name).
///
/// A bad track point stops the read, naming the line and field; with `skipInvalid` (`--skip-invalid`) it is
/// reported and kept as a rejected row instead (`InvalidRowCollector`), and every other point goes on.
package enum TCXReader {
    /// Parses `data` as the TCX file named `file` in messages.
    ///
    /// - Throws: `InputError` for XML that is not well formed (with line and column), no track point, and without
    ///   `skipInvalid` a track point without a time, a value out of range, or time going backwards within a track.
    package static func read(
        _ data: Data, file: String, elevation: ElevationSource? = nil,
        skipInvalid: Bool = false
    ) throws(InputError) -> TrackFileReading {
        do {
            return try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws(InputError) -> TrackFileReading in
                var parser = Parser(file: file, skipInvalid: skipInvalid)
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
        /// The point's time text, as written (trimmed).
        var timeText: [UInt8] = []
        var value: Value?
        var buffer: [UInt8] = []
        var creatorDepth = 0
        var creator: String?
        /// The bad values of the point being read (`--skip-invalid`), and the last valid point's time in the track.
        var problems: InvalidRowCollector
        var lastTime = -Double.infinity

        init(file: String, skipInvalid: Bool) {
            self.file = file
            problems = InvalidRowCollector(skipInvalid: skipInvalid, suggestsSkipping: true)
            table = InputTable(file: file)
            table.trackNames = []
            table.timeTexts = []
        }

        mutating func parse(_ bytes: UnsafeRawBufferPointer, elevation option: ElevationSource?) throws(InputError)
            -> TrackFileReading
        {
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
                throw InputError(
                    file: file, line: line, message: "malformed TCX (XML error at column \(column): \(failure.message))"
                )
            } catch let error as InputError {
                throw error
            } catch {
                throw InputError(file: file, message: "\(error)", exitCode: .software)
            }
            guard !table.rows.isEmpty else {
                throw InputError(
                    file: file, message: "found no track points (Trackpoint); expected a TCX activity or course")
            }
            let (elevation, reason) = ElevationSource.resolved(option, creator: creator ?? "")
            var lateProblems = false
            for k in table.rows.indices where !altitudes[k].isNaN && table.rows[k].invalidReason == nil {
                switch elevation {
                case .gps: table.rows[k].gpsAltitude = altitudes[k]
                case .barometric:
                    guard let pressure = ElevationSource.pressure(atBarometricAltitude: altitudes[k]) else {
                        try problems.report(
                            InputError(
                                file: file, line: table.rows[k].line, column: ("AltitudeMeters", 0),
                                message: "found \(altitudes[k]), expected a barometric altitude within "
                                    + "the standard atmosphere (-1000 to 11000 m)"))
                        problems.finish(&table.rows[k], skipped: &table.skipped)
                        lateProblems = true
                        continue
                    }
                    table.rows[k].pressure = pressure
                }
            }
            if lateProblems { table.skipped.sort { ($0.line ?? 0) < ($1.line ?? 0) } }
            return TrackFileReading(table: table, elevation: elevation, elevationReason: reason)
        }

        func error(_ scanner: XMLScanner, field: String, _ message: String) -> InputError {
            var counter = lines
            return InputError(
                file: file, line: counter.location(scanner.eventStart, in: scanner.bytes).line,
                column: (field, 0), message: message)
        }

        mutating func start(_ name: Range<Int>, _ scanner: XMLScanner) throws(InputError) {
            if scanner.localName(name, is: "Activity") || scanner.localName(name, is: "Course") {
                table.trackNames.append("track \(table.trackNames.count + 1)")
            } else if scanner.localName(name, is: "Trackpoint") {
                if table.trackNames.isEmpty { table.trackNames = ["track 1"] }
                if table.rows.last?.track != table.trackNames.count - 1 { lastTime = -.infinity }
                let line = lines.location(scanner.eventStart, in: scanner.bytes).line
                row = InputRow(line: line, time: .nan, track: table.trackNames.count - 1)
                altitude = .nan
                timeText.removeAll(keepingCapacity: true)
            } else if scanner.localName(name, is: "Creator") {
                creatorDepth = scanner.depth
            } else if row != nil {
                value =
                    scanner.localName(name, is: "Time")
                    ? .time
                    : scanner.localName(name, is: "LatitudeDegrees")
                        ? .latitude
                        : scanner.localName(name, is: "LongitudeDegrees")
                            ? .longitude
                            : scanner.localName(name, is: "AltitudeMeters") ? .altitude : nil
                if !buffer.isEmpty { buffer.removeAll(keepingCapacity: true) }
            } else if creatorDepth > 0 && creator == nil && scanner.localName(name, is: "Name")
                && scanner.depth == creatorDepth + 1
            {
                value = .creatorName
                if !buffer.isEmpty { buffer.removeAll(keepingCapacity: true) }
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
            let text = { [buffer] in
                String(decoding: buffer, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            }
            switch kind {
            case .creatorName:
                creator = text()
            case .time:
                let trimmed = buffer.withUnsafeBytes { DecimalNumber.trimmed($0) }
                let seconds = buffer.withUnsafeBytes {
                    ISO8601Parser.seconds(UnsafeRawBufferPointer(rebasing: $0[trimmed]))
                }
                guard let seconds else {
                    try problems.report(
                        error(
                            scanner, field: "Time",
                            "found '\(text())', expected an ISO 8601 time such as "
                                + "2024-05-01T12:00:00Z"))
                    return
                }
                row?.time = seconds
                timeText.removeAll(keepingCapacity: true)
                timeText.append(contentsOf: buffer[trimmed])
            case .altitude:
                guard let metres = buffer.withUnsafeBytes(DecimalNumber.parse), abs(metres) < 20_000 else {
                    try problems.report(
                        error(
                            scanner, field: "AltitudeMeters",
                            "found '\(text())', expected an altitude in "
                                + "metres within ±20,000"))
                    return
                }
                altitude = metres
            case .latitude, .longitude:
                let isLatitude = kind == .latitude
                let field = isLatitude ? "LatitudeDegrees" : "LongitudeDegrees"
                guard let degrees = buffer.withUnsafeBytes(DecimalNumber.parse),
                    ValueCheck.problem(isLatitude ? .latitude : .longitude, degrees) == nil
                else {
                    try problems.report(
                        error(
                            scanner, field: field,
                            "found '\(text())', expected "
                                + (isLatitude
                                    ? "a latitude in degrees within ±90" : "a longitude in degrees within ±180")))
                    return
                }
                if isLatitude { row?.latitude = degrees } else { row?.longitude = degrees }
            }
        }

        mutating func finishPoint(_ scanner: XMLScanner) throws(InputError) {
            guard var finished = row else { return }
            row = nil
            if !problems.hasProblem {
                if finished.time.isNaN {
                    try problems.report(
                        error(scanner, field: "Time", "found a Trackpoint without a Time; expected <Time>"))
                } else if (finished.latitude == nil) != (finished.longitude == nil) {
                    try problems.report(
                        error(
                            scanner, field: "Position",
                            "found a Position with only one of LatitudeDegrees "
                                + "and LongitudeDegrees; expected both"))
                } else if finished.time < lastTime {
                    try problems.report(
                        error(
                            scanner, field: "Time",
                            "time went backwards: found \(String(decoding: timeText, as: UTF8.self)) before the "
                                + "previous point; expected times that never decrease"))
                } else {
                    lastTime = finished.time
                }
            }
            if problems.hasProblem {
                // A rejected point keeps no position and no altitude (none of its values is used).
                finished.latitude = nil
                finished.longitude = nil
                altitude = .nan
            }
            problems.finish(&finished, skipped: &table.skipped)
            table.rows.append(finished)
            timeText.withUnsafeBytes { table.timeTexts?.append(utf8: $0) }
            altitudes.append(altitude)
        }
    }
}
