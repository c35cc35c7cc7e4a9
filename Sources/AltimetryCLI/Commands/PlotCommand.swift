import Altimetry
import AltimetryIO
import Foundation

/// `altimetry plot INPUT`: fuses the input and draws it as an SVG (see `AltitudePlot`).
public struct PlotCommand: Command {
    public static let name = "plot"
    public static let overview = "Draw a recording and its fused altitude and QNH as an SVG."
    public static let synopsis =
        "INPUT [--out FILE.svg] [--reference COLUMN] [input options] [model options]"
    public static let options: [ArgumentScanner.Option] =
        [
            .init(
                "out", .value, placeholder: "FILE.svg",
                help: "Write the SVG to FILE, atomically (default standard output)."),
            .init(
                "reference", .value, placeholder: "COLUMN",
                help: "The column holding the reference altitude in metres (default true_alt_m or ref_alt_m)."),
        ] + InputOptions.options + ModelOptions.options

    let input: String
    let out: String?
    let inputOptions: InputOptions
    let model: ModelOptions

    public init(_ a: ArgumentScanner) throws(UsageError) {
        input = try a.onePositional("INPUT")
        out = a.values["out"]
        inputOptions = try InputOptions(a, referenceColumn: a.values["reference"])
        model = try ModelOptions(a)
    }

    public func run(console: Console) -> ExitCode {
        do throws(InputError) {
            let parameters = try model.parameters()
            let table = try CommandInput.oneTrack(
                input, options: inputOptions, command: Self.name, console: console)
            var fusion = try TrackFusion(
                name: table.trackNames[0], file: table.file, parameters: parameters,
                resume: nil, skipInvalid: inputOptions.read.skipInvalid, smooth: false)
            var naive = NaiveAveragingBaseline()
            var plot = AltitudePlot(
                times: [], truth: [], gps: [], gated: [], naive: [], fused: [], sigma: [], qnh: [],
                qnhSigma: [], referenceName: table.referenceColumn,
                title: Self.title(input, model: model.summary), fronts: [])
            // The reference, where it sits on rows of its own (a drone's onboard estimate), is carried to each drawn
            // row from the nearest earlier value, as `evaluate` scores it.
            var reference: Double?
            try table.rows.withUnsafeBufferPointer { (rows) throws(InputError) in
                for i in rows.indices {
                    reference = rows[i].reference ?? reference
                    let (estimate, status) = try fusion.fuse(rows, i)
                    guard let f = estimate, status != .predicted else { continue }
                    let row = rows[i]
                    plot.times.append(row.time)
                    plot.truth.append(reference)
                    plot.gps.append(row.gpsAltitude)
                    if case .gated = status { plot.gated.append(true) } else { plot.gated.append(false) }
                    plot.naive.append(
                        naive.update(time: row.time, pressure: row.pressure, gpsAltitude: row.gpsAltitude)
                            .altitudeMeters)
                    plot.fused.append(f.altitude)
                    plot.sigma.append(f.altitudeStandardDeviation)
                    plot.qnh.append(f.seaLevelPressure)
                    plot.qnhSigma.append(f.seaLevelPressureStandardDeviation)
                }
            }
            plot.fronts = fusion.filter.fronts
            guard !plot.times.isEmpty else {
                throw InputError(file: table.file, message: "found no usable rows to draw")
            }
            let bytes = Array(plot.svg().utf8)
            if let out {
                try AtomicFile.write(bytes, to: out)
            } else {
                console.write(String(decoding: bytes, as: UTF8.self))
            }
            return .success
        } catch {
            console.writeError("error: \(error)\n")
            return error.exitCode
        }
    }

    /// The plot's title: the input's folder and file (recordings are often all `data.csv`), and the model.
    static func title(_ input: String, model: String) -> String {
        let parts = input.split(separator: "/").suffix(2).joined(separator: "/")
        return (input == "-" ? "<stdin>" : parts) + " — " + model
    }
}
