import Altimetry
import AltimetryIO
import Foundation

/// `altimetry ascent INPUT [--json]`: total ascent and descent of a track with their one sigma, its climbs and
/// descents, its highest and lowest points, and the same totals from GPS alone and from the raw barometer.
///
/// INPUT is anything `fuse` reads, with the same input options (`InputOptions`), one track. The whole track is
/// fused and smoothed, and `AscentAnalysis` does the rest (see Docs/ascent.md).
public struct AscentCommand: Command {
    public static let name = "ascent"
    public static let overview = "Total ascent and descent of a track, with their one sigma, segments and comparisons."
    public static let synopsis = "INPUT [--json] [input options] [model options]"
    public static let options: [ArgumentScanner.Option] =
        [
            .init("json", .flag, help: "Print JSON instead of text.")
        ] + InputOptions.options + ModelOptions.options

    let input: String
    let json: Bool
    let inputOptions: InputOptions
    let model: ModelOptions

    public init(_ a: ArgumentScanner) throws(UsageError) {
        input = try a.onePositional("INPUT")
        json = a.flags.contains("json")
        inputOptions = try InputOptions(a)
        model = try ModelOptions(a)
    }

    public func run(console: Console) -> ExitCode {
        let report: AscentReport
        do {
            report = try measure(console: console)
        } catch {
            console.writeError("error: \(error)\n")
            return error.exitCode
        }
        if json {
            guard let data = try? JSONDocument.encode(AscentJSON(report)) else {
                console.writeError("error: could not encode the result as JSON\n")
                return .software
            }
            console.write(String(decoding: data, as: UTF8.self) + "\n")
        } else {
            console.write(Self.text(report))
        }
        return .success
    }

    /// Reads the input (as `fuse` does) and measures its one track.
    func measure(console: Console) throws(InputError) -> AscentReport {
        let parameters = try model.parameters()
        let table = try CommandInput.oneTrack(
            input, options: inputOptions, command: Self.name, console: console)
        do {
            return try AscentAnalysis.measure(CommandInput.readings(table), parameters: parameters)
        } catch {
            throw InputError(file: table.file, message: "\(error)")
        }
    }

    /// The plain-text result; segment times are RFC 3339 date-times for a track with dates, else seconds
    /// (`InstantText`).
    static func text(_ r: AscentReport) -> String {
        func m(_ x: Double) -> String { Fixed.text(x, 1) }
        // A sigma below 5 cm is shown to the centimetre, so that a sigma that is not 0 never reads as 0.0.
        func pm(_ u: AscentReport.Uncertain) -> String {
            "\(m(u.value)) ± \(Fixed.text(u.standardDeviation, u.standardDeviation < 0.05 ? 2 : 1)) m"
        }
        var text = "Ascent: \(pm(r.ascent))\nDescent: \(pm(r.descent))\n"
        if r.impossibleValues > 0 {
            text +=
                "Outliers: \(r.impossibleValues) GPS altitudes or pressures no device reaches (more than "
                + "\(Fixed.text(ImpossibleAltitudes.maximumVerticalSpeed, 0)) m/s from the last kept) left out of every count\n"
        }
        text += "Highest: \(pm(r.highest))\nLowest: \(pm(r.lowest))\n"
        let lags = zip(r.hysteresisByLag.lags, r.hysteresisByLag.values).map {
            "\(Fixed.text($1, 1)) m at \(Fixed.text($0, 0)) s"
        }
        text +=
            "Hysteresis: \(Fixed.text(r.hysteresis, 2)) m (3 x the \(Fixed.text(r.differenceStandardDeviation, 2)) m sigma "
            + "of a 10-s altitude difference), growing with the reversal's duration: \(lags.joined(separator: ", "))\n"
        let source =
            r.temperatureAssumed
            ? "none in the track, the model's prior as far as GPS has not learned it" : "from the track"
        text +=
            "Air column: temperature \(source); ± \(m(r.columnTemperatureStandardDeviation)) K "
            + "(ascent: ± \(m(r.ascent.columnStandardDeviation)) m of its sigma)\n"
        text += "Segments: \(r.segments.count)\n"
        for s in r.segments {
            text +=
                "  \(InstantText.text(s.startTime)) to \(InstantText.text(s.endTime)): \(s.isClimb ? "+" : "")\(m(s.gain)) ± \(m(s.gainStandardDeviation)) m, "
                + "\(m(s.startAltitude)) to \(m(s.endAltitude)) m, \(Fixed.text(s.meanVerticalSpeed, 3)) m/s\n"
        }
        for g in r.gpsOnly {
            let rule = g.hysteresis == 0 ? "gpxpy" : "gpxpy smoothing, \(m(g.hysteresis)) m hysteresis"
            text += "GPS only (\(rule)): ascent \(m(g.ascent)) m, descent \(m(g.descent)) m\n"
        }
        if let b = r.barometerOnly {
            text +=
                "Barometer only (\(Fixed.text(b.hysteresis, 2)) m hysteresis): ascent \(m(b.ascent)) m, descent \(m(b.descent)) m\n"
        }
        return text
    }
}
