import Altimetry
import AltimetryIO
import Foundation
import StateEstimation

/// `altimetry floors INPUT [--floor-height M] [--json]`: counts floor changes in a recording.
///
/// INPUT is any file `fuse` reads, with the same input options (`InputOptions`), one track; its barometer
/// readings (a pressure column, `baro_alt_m` or `relative_alt_m`, or a track file's barometric elevation) are
/// counted, and rows without one (GPS-only rows) and rows kept as invalid (`--skip-invalid`) are skipped and
/// counted on stderr. Readings at one time, which `fuse` takes one after the other, are counted as one sample at
/// their mean pressure. Prints each transition (start time, floors), the final floor and whether it is uncertain.
public struct FloorsCommand: Command {
    public static let name = "floors"
    public static let overview = "Count floor changes in a barometer recording and say whether the final floor is sure."
    public static let synopsis = "INPUT [--floor-height M] [--json] [input options]"
    public static let options: [ArgumentScanner.Option] =
        [
            .init(
                "floor-height", .value, placeholder: "M", help: "Height of one floor, in metres, 0.5 to 20 (default 3)."
            ),
            .init("json", .flag, help: "Print JSON: transitions (time_s, floors), floor, uncertain."),
        ] + InputOptions.options

    /// The input path, or `-` for standard input.
    let input: String
    /// Metres per floor.
    let floorHeight: Meters
    /// Whether to print JSON.
    let json: Bool
    /// How the input is read.
    let inputOptions: InputOptions

    public init(_ arguments: ArgumentScanner) throws(UsageError) {
        input = try arguments.onePositional("INPUT")
        floorHeight = try arguments.number("floor-height", default: 3, validRange: 0.5...20)
        json = arguments.flags.contains("json")
        inputOptions = try InputOptions(arguments)
    }

    /// The barometer readings of `table`'s valid rows as floor samples, readings at one time merged into one
    /// at their mean pressure, with the line (or record) of each sample's first row, and how many valid rows had
    /// no reading (rows kept as invalid are reported as skipped by the reader already).
    ///
    /// - Throws: `InputError` for a file without any barometer reading.
    static func samples(_ table: InputTable) throws(InputError) -> (samples: [FloorSample], lines: [Int], skipped: Int)
    {
        var samples: [FloorSample] = []
        var lines: [Int] = []
        var merged = 1.0
        var withoutReading = 0
        for row in table.rows where row.invalidReason == nil {
            guard let pressure = row.pressure else {
                withoutReading += 1
                continue
            }
            if let last = samples.last, last.time == row.time, case .pressure(let mean) = last.reading {
                merged += 1
                samples[samples.count - 1] = FloorSample(time: row.time, pressure: mean + (pressure - mean) / merged)
                continue
            }
            merged = 1
            samples.append(FloorSample(time: row.time, pressure: pressure))
            lines.append(row.line)
        }
        guard !samples.isEmpty else {
            throw InputError(
                file: table.file,
                message: "found no barometer reading in \(table.rows.count) rows; expected "
                    + "pressure_hpa, pressure_kpa, pressure_pa, baro_alt_m or relative_alt_m")
        }
        return (samples, lines, withoutReading)
    }

    /// The counter's refusal of the sample at `time` as an error naming the file and the sample's line (or record).
    static func error(_ error: FloorCountingError, table: InputTable, samples: [FloorSample], lines: [Int])
        -> InputError
    {
        let time: Seconds? =
            switch error {
            case .timeNotFinite(let t), .timeNotIncreasing(_, let t), .altitudeNotFinite(_, let t),
                .pressureNotPositive(_, let t), .mixedReadings(let t):
                t
            case .invalidConfiguration: nil
            }
        let line = time.flatMap { t in samples.firstIndex { $0.time == t }.map { lines[$0] } }
        return InputError(file: table.file, line: line, message: "\(error)")
    }

    public func run(console: Console) -> ExitCode {
        let count: FloorCount
        do throws(InputError) {
            // The readers' notices, but those about columns passed to fuse's output: floors writes no rows.
            let table = try CommandInput.oneTrack(
                input, options: inputOptions, command: Self.name, console: console,
                showsNotice: { !$0.contains("through to the output") })
            let (samples, lines, skipped) = try Self.samples(table)
            if skipped > 0 {
                console.writeError(
                    "notice: \(table.file): skipped \(skipped) of \(table.rows.count) rows without a barometer reading\n"
                )
            }
            do {
                count = try FloorCounter(configuration: FloorCounterConfiguration(floorHeight: floorHeight))
                    .count(samples)
            } catch {
                throw Self.error(error, table: table, samples: samples, lines: lines)
            }
        } catch {
            console.writeError("error: \(error)\n")
            return error.exitCode
        }
        if json {
            let report = Report(count)
            guard let encoded = try? JSONDocument.encode(report), let text = String(data: encoded, encoding: .utf8)
            else {
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
            text +=
                "Uncertain: yes, since \(seconds(uncertainty.time)) s (\(why); the altitude suggests floor \(uncertainty.suggestedFloor))\n"
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
                Uncertainty(
                    time_s: $0.time, reason: $0.reason.rawValue, residual_m: $0.residual,
                    suggested_floor: $0.suggestedFloor)
            }
        }
    }
}
