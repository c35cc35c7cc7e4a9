import Altimetry
import AltimetryIO
import Foundation

/// `altimetry calibrate INPUT`: QNH and the barometer's altitude offset, each with its sigma, whether the
/// target accuracy is reached, and how many more minutes of GPS it needs.
///
/// The offset is the fused altitude minus the pressure altitude at standard QNH of the last pressure reading,
/// h − h_pa(p), with the altitude's one sigma. The command reads the recording into the library's
/// `BarometerCalibration` (the fused model with its column state, without the fault monitor), whose forecast of
/// the minutes still needed runs a copy of the filter on synthetic readings at the recording's pressure and GPS
/// intervals whose values equal the filter's own predictions; it stops when the sigma reaches the target or
/// after 6 hours.
public struct CalibrateCommand: Command {
    public static let name = "calibrate"
    public static let overview = "Estimate QNH and the barometer's altitude offset, and how much more GPS is needed."
    public static let synopsis = "INPUT [--target-sigma M] [--json] [input options] [model options]"
    public static let options: [ArgumentScanner.Option] =
        [
            .init(
                "target-sigma", .value, placeholder: "M", help: "The altitude one sigma wanted, in metres (default 5)."),
            .init("json", .flag, help: "Print JSON instead of text."),
        ] + InputOptions.options + ModelOptions.options

    /// The longest extra GPS time predicted, in seconds (6 h).
    static let horizon = 6.0 * 3_600

    let input: String
    let targetSigma: Double
    let json: Bool
    let inputOptions: InputOptions
    let model: ModelOptions

    public init(_ a: ArgumentScanner) throws(UsageError) {
        input = try a.onePositional("INPUT")
        targetSigma = try a.number("target-sigma", default: 5, validRange: 0.01...1_000)
        json = a.flags.contains("json")
        inputOptions = try InputOptions(a)
        model = try ModelOptions(a)
    }

    /// The calibration's figures.
    struct Report: Codable, Equatable, Sendable {
        var qnhHectopascals: Double
        var qnhSigmaHectopascals: Double
        var altitudeMeters: Double
        var altitudeSigmaMeters: Double
        var offsetMeters: Double
        var offsetSigmaMeters: Double
        var targetSigmaMeters: Double
        var targetReached: Bool
        /// Minutes of further GPS needed; 0 when reached, nil when not reachable within 6 h or without GPS.
        var moreGPSMinutes: Double?
        /// The GPS altitudes the calibration used; without any, the offset is the prior's and no forecast is made.
        var gpsFixes: Int

        enum CodingKeys: String, CodingKey {
            case qnhHectopascals = "qnh_hpa", qnhSigmaHectopascals = "qnh_sigma_hpa", altitudeMeters = "altitude_m"
            case altitudeSigmaMeters = "sigma_m", offsetMeters = "offset_m", offsetSigmaMeters = "offset_sigma_m"
            case targetSigmaMeters = "target_sigma_m", targetReached = "target_reached", moreGPSMinutes =
                "more_gps_minutes"
            case gpsFixes = "gps_fixes"
        }

        /// Encodes every key, with `null` for minutes not reachable within 6 h.
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(qnhHectopascals, forKey: .qnhHectopascals)
            try c.encode(qnhSigmaHectopascals, forKey: .qnhSigmaHectopascals)
            try c.encode(altitudeMeters, forKey: .altitudeMeters)
            try c.encode(altitudeSigmaMeters, forKey: .altitudeSigmaMeters)
            try c.encode(offsetMeters, forKey: .offsetMeters)
            try c.encode(offsetSigmaMeters, forKey: .offsetSigmaMeters)
            try c.encode(targetSigmaMeters, forKey: .targetSigmaMeters)
            try c.encode(targetReached, forKey: .targetReached)
            try c.encode(moreGPSMinutes, forKey: .moreGPSMinutes)
            try c.encode(gpsFixes, forKey: .gpsFixes)
        }
    }

    public func run(console: Console) -> ExitCode {
        do {
            let report = try calibrate(console: console)
            if json {
                let data = (try? JSONDocument.encode(report)) ?? Data()
                console.write(String(decoding: data, as: UTF8.self) + "\n")
            } else {
                console.write(Self.text(report))
            }
            return .success
        } catch {
            console.writeError("error: \(error)\n")
            return error.exitCode
        }
    }

    static func text(_ r: Report) -> String {
        var text = "QNH: \(Fixed.text(r.qnhHectopascals, 2)) ± \(Fixed.text(r.qnhSigmaHectopascals, 2)) hPa\n"
        text += "Altitude: \(Fixed.text(r.altitudeMeters, 1)) ± \(Fixed.text(r.altitudeSigmaMeters, 1)) m\n"
        text +=
            "Offset (altitude - pressure altitude at 1013.25 hPa): \(Fixed.text(r.offsetMeters, 1)) ± "
            + "\(Fixed.text(r.offsetSigmaMeters, 1)) m\n"
        text += "Target ± \(Fixed.text(r.targetSigmaMeters, 1)) m: "
        if r.gpsFixes == 0 {
            text +=
                "not reachable: the recording has no GPS altitude (gps_alt_m, or a track file's elevation read as GPS), "
                + "and only GPS tells the barometer's offset\n"
        } else if r.targetReached {
            text += "reached\n"
        } else if let minutes = r.moreGPSMinutes {
            text += "not yet reached; about \(Fixed.text(minutes, 1)) more minutes of GPS needed\n"
        } else {
            text += "not reachable within 6 h of further GPS\n"
        }
        return text
    }

    func calibrate(console: Console) throws(InputError) -> Report {
        let parameters = try model.parameters()
        let table = try CommandInput.oneTrack(
            input, options: inputOptions, command: Self.name, console: console)
        // The library's calibration: the fused model (column state included) without the fault monitor, and its
        // forecast of the minutes needed, which feeds the filter its own predicted readings.
        var calibration: BarometerCalibration
        do {
            calibration = try BarometerCalibration(parameters: parameters, targetStandardDeviation: targetSigma)
            calibration.forecastHorizon = Self.horizon
        } catch {
            throw InputError(file: table.file, message: "\(error)", exitCode: .usage)
        }
        var gpsFixes = 0
        for row in table.rows where row.invalidReason == nil && (row.pressure != nil || row.gpsAltitude != nil) {
            do {
                try calibration.add(
                    AltitudeReading(
                        time: row.time, pressure: row.pressure, gpsAltitude: row.gpsAltitude,
                        gpsVerticalAccuracy: row.gpsVerticalAccuracy, temperature: row.temperature))
                if row.gpsAltitude != nil { gpsFixes += 1 }
            } catch {
                let problem = InputError(
                    file: table.file, line: row.line, message: "the filter refused the row: \(error)")
                guard inputOptions.read.skipInvalid else { throw problem }
                console.writeError("skipped: \(problem)\n")
            }
        }
        guard let status = calibration.status else {
            throw InputError(
                file: table.file, message: "found no usable pressure reading; expected a barometer to calibrate")
        }
        return Report(
            qnhHectopascals: status.seaLevelPressure, qnhSigmaHectopascals: status.seaLevelPressureStandardDeviation,
            altitudeMeters: status.altitude, altitudeSigmaMeters: status.altitudeOffsetStandardDeviation,
            offsetMeters: status.altitudeOffset, offsetSigmaMeters: status.altitudeOffsetStandardDeviation,
            targetSigmaMeters: targetSigma, targetReached: gpsFixes > 0 && status.isTargetReached,
            moreGPSMinutes: gpsFixes > 0 ? status.minutesNeeded : nil, gpsFixes: gpsFixes)
    }
}
