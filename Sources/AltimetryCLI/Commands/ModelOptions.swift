import Altimetry
import AltimetryIO
import Foundation

/// The model options shared by `fuse` and `calibrate`, turned into `AltitudeModelParameters`.
///
/// `--params FILE` is read first (a JSON object with any of the parameters' snake_case keys); single options
/// override it; `--gate off` switches the GPS gate off, and `--fronts off` the model's weather extensions: the
/// tendency state, front detection with its noise switch, and the barometric velocity (together they give the plain
/// three-state model of `AltitudeModelParameters.plain`).
///
/// The receiver is learned while fusing (`ReceiverLearner`) unless it is known: `--adapt` decides when given;
/// otherwise a parameter file's `gps_adapt` key; otherwise the model is fixed where a receiver parameter is given
/// (`--gps-sigma`, `--gps-tau`, `--gps-white`, `--gps-vacc-scale` or their keys in the file) or the extensions are
/// off (`--fronts off`, so that the plain model stays the plain model), and adapts everywhere else. A command whose
/// job is the fixed filter (`bench`) passes `adaptsByDefault: false` (Docs/model.md, "The receiver").
struct ModelOptions: Sendable {
    static let options: [ArgumentScanner.Option] = {
        let d = AltitudeModelParameters()
        return [
            .init(
                "gps-sigma", .value, placeholder: "M",
                help: "Spread of the correlated GPS error, in metres (default \(d.gpsErrorStandardDeviation))."),
            .init(
                "gps-tau", .value, placeholder: "S",
                help: "Correlation time of the GPS error, in seconds (default \(d.gpsCorrelationTime))."),
            .init(
                "gps-white", .value, placeholder: "M",
                help: "White GPS noise, one sigma in metres (default \(d.gpsWhiteNoiseStandardDeviation))."),
            .init(
                "baro-sigma", .value, placeholder: "HPA",
                help: "Barometer noise, one sigma in hPa (default \(d.barometerNoiseStandardDeviation))."),
            .init(
                "weather-q", .value, placeholder: "HPA2_PER_S", help: "Weather random walk, in hPa²/s (default 1/3600)."
            ),
            .init(
                "altitude-q", .value, placeholder: "M2_PER_S",
                help: "Altitude random walk of a device moving at 1 m/s or faster, in m²/s (default "
                    + "\(d.altitudeNoiseDensity))."),
            .init(
                "params", .value, placeholder: "FILE",
                help: "A JSON file of model parameters (snake_case keys, e.g. gps_sigma)."),
            .init(
                "gate", .value, placeholder: "on|off",
                help: "Innovation gate on GPS fixes (default on, \(d.gateStandardDeviations ?? 5) sigma)."),
            .init(
                "adapt", .value, placeholder: "on|off",
                help:
                    "Learn the GPS error model while fusing (default on, unless a receiver parameter or --fronts off is given)."
            ),
            .init(
                "gps-vacc-scale", .value, placeholder: "K",
                help: "Scale on the reported vertical accuracy (default \(d.gpsVerticalAccuracyScale))."),
            .init(
                "fronts", .value, placeholder: "on|off",
                help:
                    "The model's extensions: weather tendency, fronts, barometric velocity, column state, faults (default on; off with --gate off is the plain model)."
            ),
        ]
    }()

    let paramsFile: String?
    /// Single options given, by option name, in the order of `keys`.
    let overrides: [(String, Double)]
    let gate: Bool?
    let fronts: Bool?
    let adapt: Bool?
    /// Whether the GPS error model adapts where nothing says otherwise.
    let adaptsByDefault: Bool

    init(_ a: ArgumentScanner, adaptsByDefault: Bool = true) throws(UsageError) {
        self.adaptsByDefault = adaptsByDefault
        paramsFile = a.values["params"]
        var list: [(String, Double)] = []
        for (name, _) in Self.keys where a.values[name] != nil {
            list.append((name, try a.number(name, default: 0)))
        }
        overrides = list
        gate = try Self.onOff(a, "gate")
        fronts = try Self.onOff(a, "fronts")
        adapt = try Self.onOff(a, "adapt")
    }

    // Immutable; key paths are not yet Sendable.
    nonisolated(unsafe) private static let keys: [(String, WritableKeyPath<AltitudeModelParameters, Double>)] = [
        ("gps-sigma", \.gpsErrorStandardDeviation), ("gps-tau", \.gpsCorrelationTime),
        ("gps-white", \.gpsWhiteNoiseStandardDeviation), ("baro-sigma", \.barometerNoiseStandardDeviation),
        ("weather-q", \.weatherNoiseDensity), ("altitude-q", \.altitudeNoiseDensity),
        ("gps-vacc-scale", \.gpsVerticalAccuracyScale),
    ]

    /// The options that describe the receiver, and their parameter-file keys (the option's name with underscores):
    /// given any, the receiver is known.
    private static let receiverOptions: Set<String> = ["gps-sigma", "gps-tau", "gps-white", "gps-vacc-scale"]
    private static let receiverKeys = Set(receiverOptions.map { $0.replacingOccurrences(of: "-", with: "_") })

    /// The model in words for titles and reports: `default model`, or `model: ` and the options given.
    var summary: String {
        var parts: [String] = []
        if let paramsFile { parts.append("--params \((paramsFile as NSString).lastPathComponent)") }
        for (name, value) in overrides {
            parts.append("--\(name) " + (value == value.rounded() && abs(value) < 1e15 ? "\(Int(value))" : "\(value)"))
        }
        if let gate { parts.append("--gate \(gate ? "on" : "off")") }
        if let fronts { parts.append("--fronts \(fronts ? "on" : "off")") }
        if let adapt { parts.append("--adapt \(adapt ? "on" : "off")") }
        return parts.isEmpty ? "default model" : "model: " + parts.joined(separator: " ")
    }

    /// Whether any model option was given.
    var isEmpty: Bool { paramsFile == nil && overrides.isEmpty && gate == nil && fronts == nil && adapt == nil }

    private static func onOff(_ a: ArgumentScanner, _ name: String) throws(UsageError) -> Bool? {
        guard let text = a.values[name] else { return nil }
        switch text {
        case "on": return true
        case "off": return false
        default: throw UsageError("option '--\(name)' expects 'on' or 'off', got '\(text)'")
        }
    }

    /// The parameters: defaults, then the file, then the options.
    ///
    /// - Throws: `InputError` for an unreadable or invalid parameter file or an out-of-range parameter.
    func parameters() throws(InputError) -> AltitudeModelParameters {
        var p = AltitudeModelParameters()
        var fileKeys: Set<String> = []
        if let paramsFile {
            let data = try InputLoader.data(paramsFile)
            do {
                p = try JSONDecoder().decode(AltitudeModelParameters.self, from: data)
                let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
                fileKeys = Set(object?.keys.map { $0 } ?? [])
            } catch {
                throw InputError(
                    file: paramsFile,
                    message: "found invalid model parameters (\(error)); expected a JSON "
                        + "object with keys such as gps_sigma, gps_tau, gps_white, baro_sigma, weather_q, altitude_q")
            }
        }
        for (name, value) in overrides {
            if let key = Self.keys.first(where: { $0.0 == name })?.1 { p[keyPath: key] = value }
        }
        if gate == false { p.gateStandardDeviations = nil }
        if gate == true && p.gateStandardDeviations == nil {
            p.gateStandardDeviations = AltitudeModelParameters().gateStandardDeviations
        }
        if let fronts {
            p.detectsFronts = fronts
            if !fronts {
                p.weatherTendencyNoiseDensity = 0
                p.barometricVelocityTime = 0
                p.estimatesColumnTemperature = false
                p.detectsFaults = false
                p.learnsBarometerNoise = false
                p.scalesNoiseAtCurrentState = false
            }
        }
        if let adapt {
            p.learnsReceiver = adapt
        } else if !fileKeys.contains("gps_adapt") {
            let receiverGiven =
                !fileKeys.isDisjoint(with: Self.receiverKeys)
                || overrides.contains { Self.receiverOptions.contains($0.0) }
            p.learnsReceiver = adaptsByDefault && !receiverGiven && fronts != false
        }
        do { try p.validate() } catch {
            throw InputError(file: paramsFile ?? "<options>", message: "\(error)", exitCode: .usage)
        }
        return p
    }
}
