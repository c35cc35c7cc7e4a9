import Altimetry
import AltimetryIO
import Foundation
import StateEstimation

/// `altimetry floors INPUT [--floor-height M] [--json]`: counts floor changes in a recording.
///
/// INPUT is any file `fuse` reads (CSV, NDJSON, GPX, TCX, FIT, or `-` for standard input), read by the same
/// readers; its barometer readings (a pressure column, `baro_alt_m` or `relative_alt_m`, or a track file's
/// barometric elevation) are counted, and rows without one (GPS-only rows) are skipped and counted on stderr.
/// Prints each transition (start time, floors), the final floor and whether it is uncertain.
public struct FloorsCommand: Command {
    public static let name = "floors"
    public static let overview = "Count floor changes in a barometer recording and say whether the final floor is sure."
    public static let synopsis = "INPUT [--floor-height M] [--json] [--ele gps|barometric]"
    public static let options: [ArgumentScanner.Option] = [
        .init("floor-height", .value, placeholder: "M", help: "Height of one floor, in metres, 0.5 to 20 (default 3)."),
        .init("json", .flag, help: "Print JSON: transitions (time_s, floors), floor, uncertain."),
        ElevationSource.option,
    ]

    /// The input path, or `-` for standard input.
    let input: String
    /// Metres per floor.
    let floorHeight: Meters
    /// Whether to print JSON.
    let json: Bool
    /// What a track file's elevation is (nil: the format's default).
    let elevation: ElevationSource?

    public init(_ arguments: ArgumentScanner) throws(UsageError) {
        input = try arguments.onePositional("INPUT")
        floorHeight = try arguments.number("floor-height", default: 3, validRange: 0.5...20)
        json = arguments.flags.contains("json")
        elevation = try ElevationSource(optionValue: arguments.values["ele"])
    }

    /// The barometer readings of `table` as floor samples, and how many rows had none.
    ///
    /// - Throws: `InputError` for a file with several tracks, or without any barometer reading.
    static func samples(_ table: InputTable) throws(InputError) -> ([FloorSample], skipped: Int) {
        guard table.trackNames.count <= 1 else {
            throw InputError(
                file: table.file, message: "found \(table.trackNames.count) tracks; expected one recording")
        }
        let samples = table.rows.compactMap { row in row.pressure.map { FloorSample(time: row.time, pressure: $0) } }
        guard !samples.isEmpty else {
            throw InputError(
                file: table.file,
                message: "found no barometer reading in \(table.rows.count) rows; expected "
                    + "pressure_hpa, pressure_kpa, pressure_pa, baro_alt_m or relative_alt_m")
        }
        return (samples, table.rows.count - samples.count)
    }

    public func run(console: Console) -> ExitCode {
        let count: FloorCount
        do {
            let table = try InputLoader.table(input, options: ReadOptions(elevation: elevation))
            // The readers' notices, but those about columns passed to fuse's output: floors writes no rows.
            for notice in table.notices where !notice.contains("through to the output") {
                console.writeError(notice + "\n")
            }
            let (samples, skipped) = try Self.samples(table)
            if skipped > 0 {
                console.writeError(
                    "notice: \(table.file): skipped \(skipped) of \(table.rows.count) rows without a barometer reading\n"
                )
            }
            count = try FloorCounter(configuration: FloorCounterConfiguration(floorHeight: floorHeight)).count(samples)
        } catch let error as InputError {
            console.writeError("error: \(error)\n")
            return error.exitCode
        } catch {
            console.writeError("error: \(InputLoader.displayName(input)): \(error)\n")
            return .dataError
        }
        if json {
            let report = Report(count)
            guard let encoded = try? JSONDocument.encode(report), let text = String(data: encoded, encoding: .utf8) else {
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
