import Altimetry
import AltimetryIO
import Foundation

/// `altimetry identify INPUT`: the GPS receiver's error model and the barometer's noise, learned from a recording.
///
/// Prints the overlapping Allan deviation of the GPS error with its confidence intervals, the Gauss-Markov-plus-
/// white fit to it, and the maximum-likelihood parameters through the filter with their standard errors and the
/// log-likelihood against the defaults' (`ReceiverIdentification`). A parameter the recording does not determine
/// is reported as such, never as a number. `--out` writes the identified parameters as a `--params` file for
/// `fuse` and `calibrate`, with `gps_adapt` off where σ_e and τ are identified (a receiver that has been identified
/// needs no learning on the fly) and on where they are not (`ReceiverIdentification.identifiedParameters`).
public struct IdentifyCommand: Command {
    public static let name = "identify"
    public static let overview =
        "Identify the GPS error model and barometer noise from a recording (Allan deviation, maximum likelihood)."
    public static let synopsis = "INPUT [--json] [--out FILE] [input options] [model options]"
    public static let options: [ArgumentScanner.Option] =
        [
            .init("json", .flag, help: "Print one JSON object instead of text."),
            .init(
                "out", .value, placeholder: "FILE",
                help: "Write the identified parameters as a --params file (JSON), atomically."),
        ] + InputOptions.options + ModelOptions.options

    let input: String
    let json: Bool
    let out: String?
    let inputOptions: InputOptions
    let model: ModelOptions

    public init(_ a: ArgumentScanner) throws(UsageError) {
        input = try a.onePositional("INPUT")
        json = a.flags.contains("json")
        out = a.values["out"]
        inputOptions = try InputOptions(a)
        model = try ModelOptions(a)
    }

    public func run(console: Console) -> ExitCode {
        do {
            let identification = try identify(console: console)
            console.write(json ? Self.json(identification) : Self.text(identification, file: input))
            if let out { try AtomicFile.write(Array(Self.parametersFile(identification)), to: out) }
            return .success
        } catch {
            console.writeError("error: \(error)\n")
            return error.exitCode
        }
    }

    func identify(console: Console) throws(InputError) -> ReceiverIdentification {
        var base = try model.parameters()
        base.learnsReceiver = false
        let table = try CommandInput.oneTrack(
            input, options: inputOptions, command: Self.name, console: console)
        let readings = CommandInput.readings(table)
        if console.errorIsTerminal { console.writeError("identifying from \(readings.count) readings...\r") }
        do {
            return try ReceiverIdentification(readings: readings, base: base)
        } catch {
            throw InputError(file: table.file, message: "cannot identify the model: \(error)", exitCode: .dataError)
        }
    }

    static func text(_ r: ReceiverIdentification, file: String) -> String {
        var text =
            "\(file): \(Fixed.text(r.duration, 0)) s, \(r.fixCount) GPS fixes; Allan deviation of the "
            + "\(r.series.rawValue), tau0 = \(Fixed.text(r.allan.samplingInterval, 2)) s\n\n"
        text += "Allan deviation (68 % intervals, white-frequency degrees of freedom):\n"
        text += "  tau_s".padding(toLength: 12, withPad: " ", startingAt: 0) + "adev_m     lower_m    upper_m    edf\n"
        for p in r.allan.points {
            text +=
                "  "
                + [
                    Fixed.text(p.averagingTime, 1), Fixed.text(p.deviation, 3), Fixed.text(p.lower, 3),
                    Fixed.text(p.upper, 3),
                ].map { $0.padding(toLength: 10, withPad: " ", startingAt: 0) }.joined(separator: " ")
                + " " + Fixed.text(p.degreesOfFreedom, 1) + "\n"
        }
        let f = r.allanFit
        if let reason = r.allanFitNotIdentifiableReason {
            text +=
                "\nGauss-Markov + white fit to it: gps_white \(Fixed.text(f.whiteStandardDeviation, 2)) m; "
                + "gps_sigma and gps_tau not identifiable (fit at \(significant(f.correlatedStandardDeviation)) m, "
                + "\(significant(f.correlationTime)) s): \(reason)"
        } else {
            text +=
                "\nGauss-Markov + white fit to it: gps_sigma \(Fixed.text(f.correlatedStandardDeviation, 2)) m, "
                + "gps_tau \(Fixed.text(f.correlationTime, 1)) s, gps_white \(Fixed.text(f.whiteStandardDeviation, 2)) m"
            if let k = r.allanVerticalAccuracyScale { text += ", gps_vacc_scale \(Fixed.text(k, 2))" }
        }
        text +=
            "\n\nMaximum likelihood through the filter (\(r.maximumLikelihood.evaluations) evaluations"
            + (r.maximumLikelihood.converged ? "" : ", not converged") + "):\n"
        for parameter in IdentifiableParameter.allCases {
            let label = "  " + parameter.key.padding(toLength: 16, withPad: " ", startingAt: 0)
            guard let e = r.maximumLikelihood.estimate(of: parameter) else {
                text += label + "not estimated (\(r.notEstimated[parameter] ?? "not freed"))\n"
                continue
            }
            if e.isIdentifiable {
                text += label + "\(significant(e.value)) ± \(e.standardError.map(significant) ?? "?")\n"
            } else {
                text += label + "not identifiable (maximum at \(significant(e.value))): \(e.reason ?? "")\n"
            }
        }
        let l = r.maximumLikelihood.logLikelihood
        text +=
            "\nlog-likelihood: \(Fixed.text(l, 1)) (defaults: \(Fixed.text(r.defaultLogLikelihood, 1)), "
            + "gain \(Fixed.text(l - r.defaultLogLikelihood, 1)))\n"
        text +=
            r.identifiedParameters.learnsReceiver
            ? "--out writes gps_adapt true: gps_sigma and gps_tau are not identified, so fuse learns them\n"
            : "--out writes gps_adapt false: the receiver is identified\n"
        return text
    }

    /// Four significant digits, in plain or scientific notation; "unbounded" or "undefined" for an infinity or NaN.
    static func significant(_ x: Double) -> String {
        if x.isNaN { return "undefined" }
        if x.isInfinite { return "unbounded" }
        return String(format: abs(x) >= 1e-3 && abs(x) < 1e6 ? "%.4g" : "%.3e", x)
    }

    static func json(_ r: ReceiverIdentification) -> String {
        var object: [String: Any] = [
            "log_likelihood": r.maximumLikelihood.logLikelihood,
            "default_log_likelihood": r.defaultLogLikelihood,
            "series": r.series.rawValue,
            "duration_s": r.duration,
            "gps_fixes": r.fixCount,
            "converged": r.maximumLikelihood.converged,
            "gps_adapt": r.identifiedParameters.learnsReceiver,
        ]
        var reasons: [String: String] = [:]
        for parameter in IdentifiableParameter.allCases {
            let e = r.maximumLikelihood.estimate(of: parameter)
            if let e, e.isIdentifiable {
                object[parameter.key] = e.value
                object[parameter.key + "_se"] = e.standardError ?? NSNull()
            } else {
                object[parameter.key] = NSNull()
                object[parameter.key + "_se"] = NSNull()
                reasons[parameter.key] =
                    e?.reason
                    ?? "not estimated: \(r.notEstimated[parameter] ?? "not freed")"
            }
        }
        object["not_identifiable"] = reasons
        object["allan"] = r.allan.points.map {
            [
                "tau_s": $0.averagingTime, "adev_m": $0.deviation, "lower_m": $0.lower, "upper_m": $0.upper,
                "edf": $0.degreesOfFreedom,
            ]
        }
        let f = r.allanFit
        var fit: [String: Any] = ["gps_white": f.whiteStandardDeviation]
        if let reason = r.allanFitNotIdentifiableReason {
            // The same shape as the likelihood's verdict: null values and the reason under `not_identifiable`.
            var reasons = ["gps_sigma": reason, "gps_tau": reason]
            fit["gps_sigma"] = NSNull()
            fit["gps_tau"] = NSNull()
            if r.allanVerticalAccuracyScale != nil {
                fit["gps_vacc_scale"] = NSNull()
                reasons["gps_vacc_scale"] = "computed from gps_sigma, which is not identifiable"
            }
            fit["not_identifiable"] = reasons
        } else {
            fit["gps_sigma"] = f.correlatedStandardDeviation
            fit["gps_tau"] = f.correlationTime
            if let k = r.allanVerticalAccuracyScale { fit["gps_vacc_scale"] = k }
        }
        object["allan_fit"] = fit
        let data =
            (try? JSONDocument.serialize(object)) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The `--params` file: every identifiable estimate under its key, and `gps_adapt` off unless σ_e and τ are
    /// not identified.
    static func parametersFile(_ r: ReceiverIdentification) -> Data {
        var object: [String: Any] = ["gps_adapt": r.identifiedParameters.learnsReceiver]
        for e in r.maximumLikelihood.estimates where e.isIdentifiable { object[e.parameter.key] = e.value }
        let data =
            (try? JSONDocument.serialize(object)) ?? Data()
        return data + Data("\n".utf8)
    }
}
