import Altimetry
import AltimetryIO
import Foundation
import Simulation
import StateEstimation

/// `altimetry evaluate INPUT`: fuses a recording and scores it against its truth, beside the naive baselines.
///
/// The truth is a reference column (`true_alt_m`, `ref_alt_m`, or the one `--reference` names), carried to each
/// row's time from the nearest earlier value where the reference sits on rows of its own; or, with `--static`,
/// the median GPS altitude of the scored stretch, with its own standard error. Without either it reports only
/// what needs no truth (fixes gated, the accepted fixes' NIS, fronts, the final estimate). Rows are read by the loader `fuse`
/// uses and fused by the library's `AltitudeFilter`; the scoring is `RecordingEvaluation`'s.
public struct EvaluateCommand: Command {
    public static let name = "evaluate"
    public static let overview =
        "Score the fused altitude of a recording against its reference, beside naive averaging."
    public static let synopsis =
        "INPUT [--reference COLUMN | --static] [--from S] [--json] [input options] [model options]"
    public static let options: [ArgumentScanner.Option] =
        [
            .init(
                "reference", .value, placeholder: "COLUMN",
                help: "The column holding the reference altitude in metres (default true_alt_m or ref_alt_m)."),
            .init("static", .flag, help: "The device stood still: the truth is the median GPS altitude after --from."),
            .init(
                "from", .value, placeholder: "S",
                help: "Seconds after the first row before which nothing is scored (default 600)."),
            .init("json", .flag, help: "Print one JSON object, with one object per estimator."),
        ] + InputOptions.options + ModelOptions.options

    let input: String
    let referenceColumn: String?
    let isStatic: Bool
    let scoringStart: Double
    let json: Bool
    let inputOptions: InputOptions
    let model: ModelOptions

    public init(_ a: ArgumentScanner) throws(UsageError) {
        input = try a.onePositional("INPUT")
        referenceColumn = a.values["reference"]
        isStatic = a.flags.contains("static")
        if isStatic && referenceColumn != nil { throw UsageError("give either --reference or --static, not both") }
        if let column = referenceColumn?.lowercased(), let field = InputField(rawValue: column),
            field != .trueAltitude, field != .referenceAltitude
        {
            throw UsageError("'\(column)' is read by the filter; expected a reference column the filter does not read")
        }
        scoringStart = try a.number("from", default: 600, validRange: 0...1e9)
        json = a.flags.contains("json")
        inputOptions = try InputOptions(a, referenceColumn: isStatic ? nil : referenceColumn)
        model = try ModelOptions(a)
    }

    public func run(console: Console) -> ExitCode {
        do throws(InputError) {
            let report = try evaluate(console: console)
            if json {
                guard let data = try? JSONDocument.encode(report) else {
                    console.writeError("error: could not encode the result as JSON\n")
                    return .software
                }
                console.write(String(decoding: data, as: UTF8.self) + "\n")
            } else {
                console.write(report.text)
            }
            return .success
        } catch {
            console.writeError("error: \(error)\n")
            return error.exitCode
        }
    }

    func evaluate(console: Console) throws(InputError) -> EvaluationReport {
        let parameters = try model.parameters()
        let table = try CommandInput.oneTrack(
            input, options: inputOptions, command: Self.name, console: console)
        let truth: RecordingEvaluation.Truth?
        let hasReferenceValues = table.rows.contains { $0.reference != nil }
        if isStatic {
            truth = .staticMedian
        } else if hasReferenceValues {
            truth = .reference
        } else if let referenceColumn {
            throw InputError(
                file: table.file,
                message: table.referenceColumn == nil
                    ? "found no column '\(referenceColumn)'; expected the reference altitude named by --reference"
                    : "found no value in the column '\(referenceColumn)'; expected reference altitudes in metres")
        } else {
            truth = nil
            let why =
                table.referenceColumn.map { "the column \($0) is empty" }
                ?? "no reference column (true_alt_m, ref_alt_m)"
            console.writeError(
                "notice: \(table.file): \(why) and no --static: nothing is scored; only the figures "
                    + "that need no truth are reported\n")
        }
        var rows: [RecordingEvaluation.Row] = []
        var lines: [Int] = []
        rows.reserveCapacity(table.rows.count)
        for row in table.rows where row.invalidReason == nil {
            let hasReading = row.pressure != nil || row.gpsAltitude != nil
            let reading =
                hasReading
                ? AltitudeReading(
                    time: row.time, pressure: row.pressure, gpsAltitude: row.gpsAltitude,
                    gpsVerticalAccuracy: row.gpsVerticalAccuracy,
                    temperature: row.temperature) : nil
            rows.append(RecordingEvaluation.Row(time: row.time, reading: reading, reference: row.reference))
            lines.append(row.line)
        }
        let evaluation: RecordingEvaluation
        do {
            evaluation = try RecordingEvaluation(rows, parameters: parameters, truth: truth, scoringStart: scoringStart)
        } catch {
            if case .refused(let index, _) = error {
                throw InputError(file: table.file, line: index < lines.count ? lines[index] : nil, message: "\(error)")
            }
            let code: ExitCode = if case .invalidParameters = error { .usage } else { .dataError }
            throw InputError(file: table.file, message: "\(error)", exitCode: code)
        }
        return EvaluationReport(
            input: table.file, model: model.summary, rows: table.rows.count,
            referenceColumn: truth == .reference ? table.referenceColumn : nil,
            scoringStart: scoringStart, evaluation: evaluation)
    }
}
