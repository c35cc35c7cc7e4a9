import Altimetry
import Foundation

/// Reads newline-delimited JSON: one object per line with the CSV's field names (see Docs/formats.md).
///
/// A field that is absent or `null` is no reading; numbers are JSON numbers, `time` and `track_id` strings
/// (a numeric `track_id` is accepted too). Unknown fields are ignored with one notice. Blank lines and lines
/// starting with `#` are skipped.
public enum NDJSONReader {
    /// Parses `data` as the file named `file` in messages.
    ///
    /// - Throws: `InputError` for an empty file, a line that is not a complete JSON object (as a truncated last
    ///   line is), and, unless `options.skipInvalid`, unusable values or time going backwards within a track.
    public static func read(_ data: Data, file: String, options: ReadOptions = ReadOptions()) throws(InputError) -> InputTable {
        var table = InputTable(file: file)
        var trackIndex: [String: Int] = [:]
        var lastTimes: [Int: Double] = [:]
        var unknown: [String] = []
        var unknownSeen: Set<String> = []
        var sawAnything = false
        var sawPressureOrGPS = false
        var usesISOTime: Bool?
        let iso = ISO8601Parser()
        let lines = data.split(separator: 10, omittingEmptySubsequences: false)
        for (index, rawLine) in lines.enumerated() {
            let lineNumber = index + 1
            var line = rawLine
            if line.last == 13 { line = line.dropLast() }
            guard let firstNonBlank = line.first(where: { $0 != 32 && $0 != 9 }), firstNonBlank != UInt8(ascii: "#") else { continue }
            sawAnything = true
            let isLast = index == lines.count - 1
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any] else {
                let shown = String(decoding: line.prefix(60), as: UTF8.self)
                throw InputError(file: file, line: lineNumber, message: "found '\(shown)', which is not a complete JSON "
                                 + "object; expected one object per line" + (isLast ? " (the last line looks truncated)" : ""))
            }
            var row = InputRow(line: lineNumber, time: .nan)
            var problem: InputError?
            func fail(_ name: String, _ message: String) throws(InputError) {
                let error = InputError(file: file, line: lineNumber, column: (name, 0), message: message)
                if !options.skipInvalid { throw error }
                if problem == nil { problem = error }
            }
            var ellipsoid: Double?
            var separation: Double?
            var timeText = ""
            for key in object.keys.sorted() {
                let value = object[key]
                guard let field = options.field(named: key) else {
                    if unknownSeen.insert(key).inserted { unknown.append(key) }
                    continue
                }
                if value is NSNull { continue }
                switch field {
                case .trackID:
                    let name: String
                    if let text = value as? String { name = text } else if let number = value as? NSNumber { name = number.stringValue } else {
                        try fail(key, "found \(String(describing: value ?? "")), expected a string"); continue
                    }
                    if let known = trackIndex[name] { row.track = known } else {
                        if trackIndex.isEmpty { table.trackNames = [] }
                        row.track = table.trackNames.count
                        trackIndex[name] = row.track
                        table.trackNames.append(name)
                    }
                    table.hasTrackColumn = true
                    continue
                case .time:
                    guard let text = value as? String, let seconds = iso.seconds(text) else {
                        try fail(key, "found \(String(describing: value ?? "")), expected an ISO 8601 time such as 2024-05-01T12:00:00Z")
                        continue
                    }
                    timeText = text
                    row.time = seconds
                    if usesISOTime == false {
                        throw InputError(file: file, line: lineNumber, message: "found 'time' after lines with 't'; expected one time field throughout")
                    }
                    usesISOTime = true
                    continue
                default:
                    break
                }
                guard let number = value as? NSNumber, !(value.map { type(of: $0) == Bool.self } ?? false), number.doubleValue.isFinite else {
                    try fail(key, "found \(String(describing: value ?? "")), expected a finite number")
                    continue
                }
                let v = number.doubleValue
                if let message = ValueCheck.problem(field, v) { try fail(key, message); continue }
                switch field {
                case .t:
                    row.time = v
                    if usesISOTime == true {
                        throw InputError(file: file, line: lineNumber, message: "found 't' after lines with 'time'; expected one time field throughout")
                    }
                    usesISOTime = false
                case .pressureHectopascals, .pressureKilopascals, .pressurePascals:
                    row.pressure = v * field.hectopascalsPerUnit
                case .gpsAltitude: row.gpsAltitude = v
                case .gpsEllipsoidAltitude: ellipsoid = v
                case .geoidSeparation: separation = v
                case .gpsVerticalAccuracy: row.gpsVerticalAccuracy = options.verticalAccuracy.standardDeviation(ofReported: v)
                case .temperatureCelsius: row.temperature = v + 273.15
                case .trueAltitude, .referenceAltitude:
                    row.reference = v
                    table.referenceColumn = table.referenceColumn ?? key
                case .latitude: row.latitude = v
                case .longitude: row.longitude = v
                case .time, .trackID: break
                }
            }
            if let ellipsoid {
                if let separation { row.gpsAltitude = ellipsoid - separation } else {
                    try fail("gps_alt_ellipsoid_m", "found gps_alt_ellipsoid_m without geoid_sep_m; expected both")
                }
            }
            if row.pressure != nil || row.gpsAltitude != nil { sawPressureOrGPS = true }
            if problem == nil && row.time.isNaN {
                try fail("t", "found no time; expected 't' (seconds) or 'time' (ISO 8601)")
            }
            if problem == nil {
                let previous = lastTimes[row.track] ?? -.infinity
                if row.time < previous {
                    try fail(usesISOTime == true ? "time" : "t", "time went backwards: found \(row.time) s after \(previous) s; "
                             + "expected times that never decrease")
                } else {
                    lastTimes[row.track] = row.time
                }
            }
            if let problem {
                row.invalidReason = problem.message
                table.skipped.append(problem)
            }
            table.rows.append(row)
            if usesISOTime == true {
                if table.timeTexts == nil { table.timeTexts = Array(repeating: "", count: table.rows.count - 1) }
                table.timeTexts?.append(timeText)
            } else {
                table.timeTexts?.append(timeText)
            }
        }
        if !sawAnything {
            throw InputError(file: file, message: "the file is empty; expected one JSON object per line")
        }
        if !sawPressureOrGPS {
            throw InputError(file: file, message: "found no pressure and no GPS field in any line; expected pressure_hpa, "
                             + "pressure_kpa or pressure_pa, and/or gps_alt_m (or gps_alt_ellipsoid_m with geoid_sep_m)")
        }
        if !unknown.isEmpty {
            table.notices.append("notice: \(file): ignoring unknown field\(unknown.count == 1 ? "" : "s") "
                                 + unknown.map { "'\($0)'" }.joined(separator: ", "))
        }
        return table
    }
}
