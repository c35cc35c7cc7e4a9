import Altimetry
import Foundation

/// `altimetry floors INPUT [--floor-height M] [--json]`: counts floor changes in a recording.
///
/// INPUT is a CSV file (or `-` for standard input) whose header names a time column `t`, in seconds, and one
/// reading column: `relative_alt_m` (metres), `pressure_hpa`, `pressure_kpa` or `pressure_pa`. Other columns
/// are ignored. Prints each transition (start time, floors), the final floor and whether it is uncertain.
///
/// The CSV reader here is deliberately small and strict, and private to this command; it is to be replaced
/// by the shared file readers when they exist.
public struct FloorsCommand: Command {
    public static let name = "floors"
    public static let overview = "Count floor changes in a barometer recording and say whether the final floor is sure."
    public static let synopsis = "INPUT [--floor-height M] [--json]"
    public static let options: [ArgumentScanner.Option] = [
        .init("floor-height", .value, placeholder: "M", help: "Height of one floor, in metres, 0.5 to 20 (default 3)."),
        .init("json", .flag, help: "Print JSON: transitions (time_s, floors), floor, uncertain."),
    ]

    /// The input path, or `-` for standard input.
    let input: String
    /// Metres per floor.
    let floorHeight: Meters
    /// Whether to print JSON.
    let json: Bool

    public init(_ arguments: ArgumentScanner) throws(UsageError) {
        input = try arguments.onePositional("INPUT")
        floorHeight = try arguments.number("floor-height", default: 3, validRange: 0.5...20)
        json = arguments.flags.contains("json")
    }

    public func run(console: Console) -> ExitCode {
        let fileName = input == "-" ? "<stdin>" : input
        let data: Data
        do { data = try InputLoader.data(input) } catch {
            console.writeError("error: \(error)\n")
            return error.exitCode
        }
        let count: FloorCount
        do {
            let samples = try FloorsCSV.samples(from: data, file: fileName)
            count = try FloorCounter(configuration: FloorCounterConfiguration(floorHeight: floorHeight)).count(samples)
        } catch let error as FloorsCSV.InputError {
            console.writeError("error: \(error)\n")
            return .dataError
        } catch {
            console.writeError("error: \(fileName): \(error)\n")
            return .dataError
        }
        if json {
            let report = Report(count)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            guard let encoded = try? encoder.encode(report), let text = String(data: encoded, encoding: .utf8) else {
                console.writeError("error: could not encode the result as JSON\n")
                return .software
            }
            console.write(text + "\n")
        } else {
            console.write(Self.text(count))
        }
        return .success
    }

    /// The plain-text result: transitions, final floor, certainty.
    static func text(_ count: FloorCount) -> String {
        var text = count.transitions.isEmpty ? "Transitions: none\n" : "Transitions:\n"
        for transition in count.transitions {
            let size = abs(transition.floors) == 1 ? "floor" : "floors"
            text += "  \(seconds(transition.time)) s  \(signed(transition.floors)) \(size)\n"
        }
        text += "Final floor: \(count.floor)\n"
        if let uncertainty = count.confidence.uncertainty {
            let residual = String(format: "%+.1f", uncertainty.residual)
            let why: String
            switch uncertainty.reason {
            case .unexplainedAltitudeChange: why = "unexplained altitude change of \(residual) m while still"
            case .ambiguousTransition: why = "a transition \(residual) m from whole floors"
            }
            text += "Uncertain: yes, since \(seconds(uncertainty.time)) s (\(why); the altitude suggests floor \(uncertainty.suggestedFloor))\n"
        } else {
            text += "Uncertain: no\n"
        }
        return text
    }

    private static func seconds(_ time: Seconds) -> String {
        time == time.rounded() && abs(time) < 1e15 ? String(Int(time)) : String(format: "%.1f", time)
    }

    private static func signed(_ floors: Int) -> String { floors > 0 ? "+\(floors)" : "\(floors)" }

    /// The `--json` result.
    struct Report: Encodable {
        struct Transition: Encodable {
            var time_s: Seconds
            var floors: Int
        }

        struct Uncertainty: Encodable {
            var time_s: Seconds
            var reason: String
            var residual_m: Meters
            var suggested_floor: Int
        }

        var transitions: [Transition]
        var floor: Int
        var uncertain: Bool
        /// Present only when `uncertain` is true.
        var uncertainty: Uncertainty?

        init(_ count: FloorCount) {
            transitions = count.transitions.map { Transition(time_s: $0.time, floors: $0.floors) }
            floor = count.floor
            uncertain = count.confidence.isUncertain
            uncertainty = count.confidence.uncertainty.map {
                Uncertainty(time_s: $0.time, reason: $0.reason.rawValue, residual_m: $0.residual, suggested_floor: $0.suggestedFloor)
            }
        }
    }
}

/// The floors command's own strict CSV reader: a header with `t` and one reading column, then numbers.
enum FloorsCSV {
    /// A problem in the input, located by file, line and column.
    struct InputError: Error, Equatable, CustomStringConvertible {
        var file: String
        var line: Int
        /// 1-based field number and the header's name for it, when the problem is in one field.
        var column: (number: Int, name: String)?
        var message: String

        var description: String {
            if let column { return "\(file):\(line): column \(column.number) (\(column.name)): \(message)" }
            return "\(file):\(line): \(message)"
        }

        static func == (lhs: InputError, rhs: InputError) -> Bool { lhs.description == rhs.description }
    }

    /// The reading columns the reader understands, named as in the header.
    enum ReadingColumn: String, CaseIterable {
        case relativeAltitudeMeters = "relative_alt_m"
        case pressureHectopascals = "pressure_hpa"
        case pressureKilopascals = "pressure_kpa"
        case pressurePascals = "pressure_pa"

        /// The sample for a time (s) and a value in this column's unit.
        func sample(time: Seconds, value: Double) -> FloorSample {
            switch self {
            case .relativeAltitudeMeters: return FloorSample(time: time, relativeAltitude: value)
            case .pressureHectopascals: return FloorSample(time: time, pressure: value)
            case .pressureKilopascals: return FloorSample(time: time, pressure: Measurement(value: value, unit: .kilopascals))
            case .pressurePascals: return FloorSample(time: time, pressure: Measurement(value: value, unit: .newtonsPerMetersSquared))
            }
        }
    }

    /// Parses the whole input.
    ///
    /// Lines end in LF or CRLF; blank lines are skipped; fields are trimmed of spaces. Every row
    /// has as many fields as the header; times are finite and increasing; pressures are positive.
    ///
    /// - Throws: `InputError` at the first problem.
    static func samples(from data: Data, file: String) throws(InputError) -> [FloorSample] {
        guard let text = String(data: data, encoding: .utf8) else {
            throw InputError(file: file, line: 1, message: "not UTF-8 text")
        }
        var header: [String]?
        var timeIndex = 0
        var readingIndex = 0
        var column = ReadingColumn.relativeAltitudeMeters
        var samples: [FloorSample] = []
        var previousTime: Seconds?
        var headerLine = 1
        // "\r\n" is one Character in Swift, a newline like "\n".
        for (offset, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let lineNumber = offset + 1
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard let names = header else {
                (timeIndex, readingIndex, column) = try parseHeader(fields, file: file, line: lineNumber)
                header = fields
                headerLine = lineNumber
                continue
            }
            guard fields.count == names.count else {
                throw InputError(file: file, line: lineNumber,
                                 message: "expected \(names.count) fields as in the header, found \(fields.count)")
            }
            func number(_ index: Int) throws(InputError) -> Double {
                guard let value = Double(fields[index]), value.isFinite else {
                    throw InputError(file: file, line: lineNumber, column: (index + 1, names[index]),
                                     message: "expected a finite number, found '\(fields[index])'")
                }
                return value
            }
            let time = try number(timeIndex)
            if let previousTime, !(time > previousTime) {
                throw InputError(file: file, line: lineNumber, column: (timeIndex + 1, names[timeIndex]),
                                 message: "expected a time after the previous row's \(previousTime) s, found \(fields[timeIndex])")
            }
            let value = try number(readingIndex)
            if column != .relativeAltitudeMeters, !(value > 0) {
                throw InputError(file: file, line: lineNumber, column: (readingIndex + 1, names[readingIndex]),
                                 message: "expected a positive pressure, found \(fields[readingIndex])")
            }
            previousTime = time
            samples.append(column.sample(time: time, value: value))
        }
        guard header != nil else {
            throw InputError(file: file, line: 1, message: "expected a header naming 't' and one of \(columnList)")
        }
        guard !samples.isEmpty else {
            throw InputError(file: file, line: headerLine, message: "expected rows of samples after the header, found none")
        }
        return samples
    }

    private static var columnList: String { ReadingColumn.allCases.map(\.rawValue).joined(separator: ", ") }

    /// Finds the time and reading columns.
    private static func parseHeader(_ fields: [String], file: String, line: Int) throws(InputError)
        -> (time: Int, reading: Int, column: ReadingColumn)
    {
        var seen: Set<String> = []
        for (index, name) in fields.enumerated() {
            if name.isEmpty {
                throw InputError(file: file, line: line, column: (index + 1, "unnamed"), message: "expected a column name, found an empty one")
            }
            if !seen.insert(name).inserted {
                throw InputError(file: file, line: line, column: (index + 1, name), message: "expected unique column names, found '\(name)' twice")
            }
        }
        guard let time = fields.firstIndex(of: "t") else {
            throw InputError(file: file, line: line, message: "expected a time column named 't' in the header, found \(fields.joined(separator: ","))")
        }
        let readings = fields.indices.filter { ReadingColumn(rawValue: fields[$0]) != nil }
        guard let reading = readings.first, let column = ReadingColumn(rawValue: fields[reading]) else {
            throw InputError(file: file, line: line, message: "expected one reading column, one of \(columnList); found none")
        }
        guard readings.count == 1 else {
            throw InputError(file: file, line: line, column: (readings[1] + 1, fields[readings[1]]),
                             message: "expected one reading column, found both '\(fields[reading])' and '\(fields[readings[1]])'")
        }
        return (time, reading, column)
    }
}
