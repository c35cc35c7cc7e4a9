import Foundation

/// Reads a GPX 1.0 or 1.1 file's track points as rows, and keeps the document for GPX output.
///
/// A track point (`trk`/`trkseg`/`trkpt`) needs `lat` and `lon` attributes (degrees, WGS 84; within ±90 and
/// ±180) and a `time` (RFC 3339); its `ele` (metres) is a GPS fix or, with `ElevationSource.barometric`, a
/// barometric altitude (see `ElevationSource`); an air temperature in `<extensions>` (`atemp` of Garmin's
/// TrackPointExtension, any prefix; °C) is read as the station's temperature. Points without `ele` are rows
/// without a reading. Each `trk` is one track. The XML is read by `XMLScanner`, in one linear pass.
///
/// A bad point (a position, time, `ele` or `atemp` that is not what is expected, or a time before the previous
/// point's) stops the read, naming the line and field; with `skipInvalid` (`--skip-invalid`) it is reported and
/// kept as a rejected row instead (`InvalidRowCollector`), and every other point and track goes on. Such a point
/// is a GPX output point only when its position is valid.
package enum GPXReader {
    /// Parses `data` as the GPX file named `file` in messages, with the elevation given by `elevation` (nil: the
    /// default for the file's creator, see `ElevationSource.resolved`).
    ///
    /// - Throws: `InputError` for XML that is not well formed (with line and column), a file with no track point,
    ///   and without `skipInvalid` a point without a position or time, a value out of range, or time going
    ///   backwards within a track.
    package static func read(
        _ data: Data, file: String, elevation: ElevationSource? = nil,
        skipInvalid: Bool = false
    ) throws(InputError) -> TrackFileReading {
        do {
            return try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws(InputError) -> TrackFileReading in
                var parser = Parser(file: file, elevation: elevation, skipInvalid: skipInvalid)
                var reading = try parser.parse(bytes)
                reading.gpx?.source = data
                return reading
            }
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError(file: file, message: "\(error)", exitCode: .software)
        }
    }

    /// The rows alone, as `read(_:file:elevation:)` reads them.
    package static func table(
        _ data: Data, file: String, elevation: ElevationSource? = nil,
        skipInvalid: Bool = false
    ) throws(InputError) -> InputTable {
        try read(data, file: file, elevation: elevation, skipInvalid: skipInvalid).table
    }

    /// The elements whose text is a reading.
    enum Value { case ele, time, atemp }

    /// Where a value's text is: a range of the document, or of the parser's `buffer` where it had to be decoded.
    struct Text {
        var range: Range<Int>
        var decoded: Bool
    }

    struct Parser {
        let file: String
        let elevationOption: ElevationSource?
        var elevation = ElevationSource.gps
        var document = GPXDocument()
        var table: InputTable
        var lines = LineCounter()
        /// The value element being read, its text and the number of text pieces read for it.
        var value: Value?
        var valueText = Text(range: 0..<0, decoded: false)
        var valuePieces = 0
        /// The decoded text of the point's values that are not one piece of the document without references, one
        /// after the other (emptied at each point, not at each value).
        var buffer: [UInt8] = []
        /// Where the raw copy of the element being kept started, and its level.
        var captureStart = 0
        var captureLevel = 0
        var elevationStart = 0, extensionsStart = 0, extensionsContentStart = 0
        /// The point being read, while `inPoint`.
        var row = InputRow(line: 0, time: .nan)
        var point = GPXDocument.Point(latitude: 0..<0, longitude: 0..<0, content: 0..<0)
        var inPoint = false
        /// The point's time text, as written (trimmed).
        var timeText = Text(range: 0..<0, decoded: false)
        var inTrack = false, inSegment = false
        /// The bad values of the point being read (`--skip-invalid`), and the last valid point's time in the track.
        var problems: InvalidRowCollector
        var lastTime = -Double.infinity
        /// Times written without a zone, read as UTC: how many, and the first one's line.
        var zonelessTimes = 0
        var firstZonelessLine = 0

        init(file: String, elevation: ElevationSource?, skipInvalid: Bool) {
            self.file = file
            self.elevationOption = elevation
            problems = InvalidRowCollector(skipInvalid: skipInvalid, suggestsSkipping: true)
            table = InputTable(file: file)
            table.trackNames = []
            table.timeTexts = []
        }

        mutating func parse(_ bytes: UnsafeRawBufferPointer) throws(InputError) -> TrackFileReading {
            guard !bytes.isEmpty else {
                throw InputError(file: file, message: "the file is empty; expected a GPX document with track points")
            }
            var scanner: XMLScanner
            do { scanner = try XMLScanner(bytes) } catch { throw malformed(error, bytes) }
            table.rows.reserveCapacity(bytes.count / 200)
            document.points.reserveCapacity(bytes.count / 200)
            do {
                while let event = try scanner.next() {
                    switch event {
                    case .start(let name, let selfClosing):
                        try start(name, level: scanner.depth + (selfClosing ? 1 : 0), scanner)
                    case .text(let range, let references):
                        if value != nil { appendValueText(range, hasReferences: references, scanner) }
                    case .end(let name):
                        try end(name, level: scanner.depth + 1, scanner)
                    }
                }
            } catch let error as XMLScanner.Failure {
                throw malformed(error, bytes)
            } catch let error as InputError {
                throw error
            } catch {
                throw InputError(file: file, message: "\(error)", exitCode: .software)
            }
            guard !table.rows.isEmpty else {
                throw InputError(file: file, message: "found no track points (trkpt); expected a GPX track")
            }
            if zonelessTimes > 0 {
                table.notices.append(
                    "notice: \(file): \(zonelessTimes) times without a time zone (the first on line "
                        + "\(firstZonelessLine)) read as UTC, as GPX 1.1 prescribes and gpxpy reads them")
            }
            let (_, reason) = ElevationSource.resolved(elevationOption, creator: document.creator)
            return TrackFileReading(table: table, elevation: elevation, elevationReason: reason, gpx: document)
        }

        func malformed(_ failure: XMLScanner.Failure, _ bytes: UnsafeRawBufferPointer) -> InputError {
            var counter = LineCounter()
            let (line, column) = counter.location(failure.offset, in: bytes)
            return InputError(
                file: file, line: line, message: "malformed GPX (XML error at column \(column): \(failure.message))")
        }

        func error(_ scanner: XMLScanner, field: String, _ message: String) -> InputError {
            var counter = lines
            let line = counter.location(scanner.eventStart, in: scanner.bytes).line
            return InputError(file: file, line: line, column: (field, 0), message: message)
        }

        @inline(__always)
        mutating func start(_ name: Range<Int>, level: Int, _ scanner: XMLScanner) throws(InputError) {
            switch level {
            case 1:
                guard scanner.localName(name, is: "gpx") else {
                    throw error(
                        scanner, field: scanner.string(name),
                        "found <\(scanner.string(name))> as the root; expected <gpx>")
                }
                for (key, text) in scanner.attributes {
                    let keyText = scanner.string(key)
                    if keyText.hasPrefix("xmlns:") {
                        document.namespaceDeclarations.append("\(keyText)=\"\(scanner.string(text))\"")
                    } else if keyText == "creator" {
                        var decoded: [UInt8] = []
                        scanner.appendDecoded(text, to: &decoded)
                        document.creator = String(decoding: decoded, as: UTF8.self)
                    }
                }
                elevation = ElevationSource.resolved(elevationOption, creator: document.creator).0
            case 2:
                inTrack = scanner.name(name, is: "trk")
                if inTrack {
                    document.tracks.append(GPXDocument.Track())
                    lastTime = -.infinity
                    table.trackNames.append("track \(document.tracks.count)")
                } else if scanner.name(name, is: "metadata") {
                    capture(scanner, level: level)
                }
            case 3 where inTrack:
                inSegment = scanner.name(name, is: "trkseg")
                if inSegment {
                    let count = document.points.count
                    document.tracks[document.tracks.count - 1].segments.append(count..<count)
                } else {
                    capture(scanner, level: level)
                }
            case 4 where inSegment && scanner.name(name, is: "trkpt"):
                try startPoint(scanner)
            case 5 where inPoint:
                if scanner.name(name, is: "ele") {
                    startValue(.ele)
                    elevationStart = scanner.eventStart
                } else if scanner.name(name, is: "extensions") {
                    extensionsStart = scanner.eventStart
                    extensionsContentStart = scanner.position
                } else if scanner.name(name, is: "time") {
                    startValue(.time)
                }
            case 6... where inPoint && scanner.localName(name, is: "atemp"):
                startValue(.atemp)
            default:
                break
            }
        }

        mutating func capture(_ scanner: XMLScanner, level: Int) {
            captureStart = scanner.eventStart
            captureLevel = level
        }

        mutating func startValue(_ name: Value) {
            value = name
            valueText = Text(range: 0..<0, decoded: false)
            valuePieces = 0
        }

        /// Adds a piece of text to the value being read: a value of one piece without references is that piece
        /// of the document, read where it is; any other (`1&#48;0`, text around a comment or CDATA) is decoded
        /// into `buffer`, with the pieces before it.
        mutating func appendValueText(_ range: Range<Int>, hasReferences: Bool, _ scanner: XMLScanner) {
            defer { valuePieces += 1 }
            if valuePieces == 0 && !hasReferences {
                valueText = Text(range: range, decoded: false)
                return
            }
            if !valueText.decoded {
                let start = buffer.count
                scanner.appendDecoded(valueText.range, hasReferences: false, to: &buffer)
                valueText = Text(range: start..<buffer.count, decoded: true)
            }
            scanner.appendDecoded(range, hasReferences: hasReferences, to: &buffer)
            valueText.range = valueText.range.lowerBound..<buffer.count
        }

        /// Calls `body` with the bytes of `text`, in the document of `scanner` or in `buffer`.
        static func withBytes<T>(
            _ text: Text, _ scanner: XMLScanner, _ buffer: [UInt8], _ body: (UnsafeRawBufferPointer) -> T
        ) -> T {
            guard text.decoded else { return body(UnsafeRawBufferPointer(rebasing: scanner.bytes[text.range])) }
            return buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[text.range])) }
        }

        mutating func startPoint(_ scanner: XMLScanner) throws(InputError) {
            var latitude: (Double, Range<Int>)?, longitude: (Double, Range<Int>)?
            for (key, text) in scanner.attributes {
                let isLatitude = scanner.name(key, is: "lat")
                guard isLatitude || scanner.name(key, is: "lon") else { continue }
                let field = isLatitude ? "lat" : "lon"
                guard (isLatitude ? latitude : longitude) == nil else {
                    try problems.report(
                        error(scanner, field: field, "found the attribute '\(field)' twice; expected it once"))
                    continue
                }
                guard let number = DecimalNumber.parse(UnsafeRawBufferPointer(rebasing: scanner.bytes[text])),
                    ValueCheck.problem(isLatitude ? .latitude : .longitude, number) == nil
                else {
                    try problems.report(
                        error(
                            scanner, field: field,
                            "found \(field)=\"\(scanner.string(text))\", expected "
                                + (isLatitude
                                    ? "a latitude in degrees within ±90" : "a longitude in degrees within ±180")))
                    continue
                }
                if isLatitude { latitude = (number, text) } else { longitude = (number, text) }
            }
            if latitude == nil || longitude == nil, !problems.hasProblem {
                try problems.report(
                    error(
                        scanner, field: latitude == nil ? "lat" : "lon",
                        "found a track point without "
                            + "'\(latitude == nil ? "lat" : "lon")'; expected lat and lon attributes"))
            }
            let line = lines.location(scanner.eventStart, in: scanner.bytes).line
            // A point with a bad attribute has no position (under --skip-invalid): a row, but no output point.
            let valid = problems.hasProblem ? nil : latitude.flatMap { a in longitude.map { (a, $0) } }
            row = InputRow(
                line: line, time: .nan, track: table.trackNames.count - 1,
                latitude: valid?.0.0, longitude: valid?.1.0)
            if !buffer.isEmpty { buffer.removeAll(keepingCapacity: true) }
            point = GPXDocument.Point(
                latitude: valid?.0.1 ?? 0..<0, longitude: valid?.1.1 ?? 0..<0,
                content: scanner.position..<scanner.position)
            inPoint = true
            timeText = Text(range: 0..<0, decoded: false)
        }

        @inline(__always)
        mutating func end(_ name: Range<Int>, level: Int, _ scanner: XMLScanner) throws(InputError) {
            if let kind = value, level >= 5 {
                value = nil
                try finishValue(kind, scanner)
            }
            if level == captureLevel && captureLevel > 0 {
                let raw = scanner.string(captureStart..<scanner.position)
                captureLevel = 0
                switch level {
                case 2: document.metadata = raw
                case 3: document.tracks[document.tracks.count - 1].header += raw
                default: break
                }
                return
            }
            switch level {
            case 5 where inPoint && scanner.name(name, is: "ele"):
                point.elevation = elevationStart..<scanner.position
            case 5 where inPoint && scanner.name(name, is: "extensions"):
                point.extensions = extensionsStart..<scanner.position
                // A self-closing `<extensions/>` ends at its own start tag, before its content would begin.
                point.extensionsContent = extensionsContentStart..<max(extensionsContentStart, scanner.eventStart)
            case 4 where inPoint:
                // A self-closing point has no content (its end comes at its start tag).
                point.content = point.content.lowerBound..<max(point.content.lowerBound, scanner.eventStart)
                try finishPoint(scanner)
            case 3 where inSegment:
                inSegment = false
            case 2:
                inTrack = false
            default:
                break
            }
        }

        mutating func finishValue(_ kind: Value, _ scanner: XMLScanner) throws(InputError) {
            // Numbers and times are read from the bytes; a string is made only for messages.
            let text = valueText
            func found() -> String {
                Self.withBytes(text, scanner, buffer) { String(decoding: $0, as: UTF8.self) }
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            switch kind {
            case .time:
                let trimmed = Self.withBytes(text, scanner, buffer) { DecimalNumber.trimmed($0) }
                let time = Text(
                    range: (text.range.lowerBound + trimmed.lowerBound)..<(text.range.lowerBound + trimmed.upperBound),
                    decoded: text.decoded)
                var seconds = Self.withBytes(time, scanner, buffer) { ISO8601Parser.seconds($0) }
                if seconds == nil, let utc = Self.withBytes(time, scanner, buffer, ISO8601Parser.secondsAssumingUTC) {
                    seconds = utc
                    if zonelessTimes == 0 { firstZonelessLine = row.line }
                    zonelessTimes += 1
                }
                guard let seconds else {
                    try problems.report(
                        error(
                            scanner, field: "time",
                            "found time '\(found())', expected an ISO 8601 "
                                + "time such as 2024-05-01T12:00:00Z"))
                    return
                }
                row.time = seconds
                timeText = time
            case .atemp:
                guard let celsius = Self.withBytes(text, scanner, buffer, DecimalNumber.parse),
                    ValueCheck.problem(.temperatureCelsius, celsius) == nil
                else {
                    try problems.report(
                        error(
                            scanner, field: "atemp",
                            "found atemp '\(found())', expected an air "
                                + "temperature between -120 and 75 °C"))
                    return
                }
                row.temperature = celsius + 273.15
            case .ele:
                guard let altitude = Self.withBytes(text, scanner, buffer, DecimalNumber.parse), abs(altitude) < 20_000
                else {
                    try problems.report(
                        error(
                            scanner, field: "ele",
                            "found ele '\(found())', expected a finite "
                                + "elevation in metres"))
                    return
                }
                switch elevation {
                case .gps: row.gpsAltitude = altitude
                case .barometric:
                    guard let pressure = ElevationSource.pressure(atBarometricAltitude: altitude) else {
                        try problems.report(
                            error(
                                scanner, field: "ele",
                                "found ele '\(found())', expected a barometric "
                                    + "altitude within the standard atmosphere (-1000 to 11000 m)"))
                        return
                    }
                    row.pressure = pressure
                }
            }
        }

        mutating func finishPoint(_ scanner: XMLScanner) throws(InputError) {
            guard inPoint else { return }
            inPoint = false
            if !problems.hasProblem {
                if row.time.isNaN {
                    try problems.report(
                        error(scanner, field: "time", "found a track point without a time; expected <time>"))
                } else if row.time < lastTime {
                    try problems.report(
                        error(
                            scanner, field: "time",
                            "time went backwards: found \(Self.withBytes(timeText, scanner, buffer) { String(decoding: $0, as: UTF8.self) }) before "
                                + "the previous point; expected times that never decrease"))
                } else {
                    lastTime = row.time
                }
            }
            problems.finish(&row, skipped: &table.skipped)
            table.rows.append(row)
            Self.withBytes(timeText, scanner, buffer) { table.timeTexts?.append(utf8: $0) }
            guard row.latitude != nil else { return }
            document.points.append(point)
            let track = document.tracks.count - 1
            let segment = document.tracks[track].segments.count - 1
            document.tracks[track].segments[segment] =
                document.tracks[track].segments[segment].lowerBound..<document.points.count
        }
    }
}

/// Counts lines up to increasing byte offsets, so a reader numbers its rows in one pass over the file.
struct LineCounter {
    private var offset = 0
    private var line = 1
    private var lineStart = 0

    /// The 1-based line and column (in bytes) of `target`; linear in the bytes since the last call when the
    /// offsets increase (from the start otherwise).
    mutating func location(_ target: Int, in bytes: UnsafeRawBufferPointer) -> (line: Int, column: Int) {
        if target < offset { self = LineCounter() }
        let end = min(target, bytes.count)
        // memchr jumps from line break to line break at memory speed.
        while offset < end, let base = bytes.baseAddress,
            let found = memchr(base + offset, 10, end - offset).map({ UnsafeRawPointer($0) - base })
        {
            line += 1
            lineStart = found + 1
            offset = found + 1
        }
        offset = max(offset, end)
        return (line, target - lineStart + 1)
    }
}
