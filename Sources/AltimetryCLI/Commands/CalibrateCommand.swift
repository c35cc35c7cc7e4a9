import Altimetry
import AltimetryIO
import Foundation

/// `altimetry calibrate INPUT`: QNH and the barometer's altitude offset, each with its sigma, whether the
/// target accuracy is reached, and how many more minutes of GPS it needs.
///
/// The offset is the fused altitude minus the pressure altitude at standard QNH of the last pressure reading,
/// h − h_pa(p), with the altitude's one sigma. The minutes still needed are predicted by running a copy of the
/// filter on: synthetic readings at the recording's observed pressure and GPS intervals whose values equal the
/// filter's own predictions (pressure from the estimated altitude and QNH, GPS = altitude + estimated GPS error).
/// A Kalman filter's covariance does not depend on the measured values, so under the model this sigma
/// trajectory is exact; it stops when the sigma reaches the target or after 6 hours.
public struct CalibrateCommand: Command {
    public static let name = "calibrate"
    public static let overview = "Estimate QNH and the barometer's altitude offset, and how much more GPS is needed."
    public static let synopsis = "INPUT [--target-sigma M] [--json] [--skip-invalid] [model options]"
    public static let options: [ArgumentScanner.Option] = [
        .init("target-sigma", .value, placeholder: "M", help: "The altitude one sigma wanted, in metres (default 5)."),
        .init("json", .flag, help: "Print JSON instead of text."),
        .init("skip-invalid", .flag, help: "Skip invalid rows (each reported) instead of stopping."),
        VerticalAccuracyConvention.option,
    ] + ModelOptions.options

    /// The longest extra GPS time predicted, in seconds (6 h).
    static let horizon = 6.0 * 3_600

    let input: String
    let targetSigma: Double
    let json: Bool
    let readOptions: ReadOptions
    let model: ModelOptions

    public init(_ a: ArgumentScanner) throws(UsageError) {
        input = try a.onePositional("INPUT")
        targetSigma = try a.number("target-sigma", default: 5, validRange: 0.01...1_000)
        json = a.flags.contains("json")
        let convention = try VerticalAccuracyConvention(optionValue: a.values["vacc-confidence"])
        readOptions = ReadOptions(skipInvalid: a.flags.contains("skip-invalid"), verticalAccuracy: convention)
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
        /// Minutes of further GPS needed; 0 when reached, nil when not reachable within 6 h.
        var moreGPSMinutes: Double?

        enum CodingKeys: String, CodingKey {
            case qnhHectopascals = "qnh_hpa", qnhSigmaHectopascals = "qnh_sigma_hpa", altitudeMeters = "altitude_m"
            case altitudeSigmaMeters = "sigma_m", offsetMeters = "offset_m", offsetSigmaMeters = "offset_sigma_m"
            case targetSigmaMeters = "target_sigma_m", targetReached = "target_reached", moreGPSMinutes = "more_gps_minutes"
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
        }
    }

    public func run(console: Console) -> ExitCode {
        do {
            let report = try calibrate(console: console)
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                let data = (try? encoder.encode(report)) ?? Data()
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
        text += "Offset (altitude - pressure altitude at 1013.25 hPa): \(Fixed.text(r.offsetMeters, 1)) ± "
            + "\(Fixed.text(r.offsetSigmaMeters, 1)) m\n"
        text += "Target ± \(Fixed.text(r.targetSigmaMeters, 1)) m: "
        if r.targetReached {
            text += "reached\n"
        } else if let minutes = r.moreGPSMinutes {
            text += "not yet reached; about \(Fixed.text(minutes, 1)) more minutes of GPS needed\n"
        } else {
            text += "not reachable within 6 h of further GPS\n"
        }
        return text
    }

    func calibrate(console: Console) throws(InputError) -> Report {
        var parameters = try model.parameters()
        // As `BarometerCalibration`: no fault monitor, whose resets the forecast of the minutes needed cannot foresee.
        parameters.detectsFaults = false
        // And the standard column: QNH is by definition the altimeter setting of the standard atmosphere, a still
        // barometer cannot observe the column, and the forecast below feeds standard-atmosphere pressures, which
        // with a column state would move its linearisation point (measured: 3.2 minutes forecast, 5.4 m reached
        // against the 5 m target, where without the column 4.85 minutes reach 4.99 m).
        parameters.estimatesColumnTemperature = false
        let table = try InputLoader.table(input, options: readOptions)
        for notice in table.notices { console.writeError(notice + "\n") }
        for skipped in table.skipped { console.writeError("skipped: \(skipped)\n") }
        guard table.trackNames.count == 1 else {
            throw InputError(file: table.file, message: "found \(table.trackNames.count) tracks; calibrate expects one")
        }
        var filter: AltitudeFilter
        do { filter = try AltitudeFilter(parameters: parameters) } catch {
            throw InputError(file: table.file, message: "\(error)", exitCode: .usage)
        }
        var lastPressure: Double?
        var pressureTimes: [Double] = []
        var gpsTimes: [Double] = []
        var final: AltitudeEstimate?
        for row in table.rows where row.invalidReason == nil && (row.pressure != nil || row.gpsAltitude != nil) {
            do {
                final = try filter.process(AltitudeReading(time: row.time, pressure: row.pressure, gpsAltitude: row.gpsAltitude,
                                                           gpsVerticalAccuracy: row.gpsVerticalAccuracy, temperature: row.temperature))
            } catch {
                let problem = InputError(file: table.file, line: row.line, message: "the filter refused the row: \(error)")
                guard readOptions.skipInvalid else { throw problem }
                console.writeError("skipped: \(problem)\n")
                continue
            }
            if let p = row.pressure { lastPressure = p; pressureTimes.append(row.time) }
            if row.gpsAltitude != nil { gpsTimes.append(row.time) }
        }
        guard let e = final, let p = lastPressure else {
            throw InputError(file: table.file, message: "found no usable pressure reading; expected a barometer to calibrate")
        }
        let offset = e.altitude - NaiveAveragingBaseline.pressureAltitude(p)
        let reached = e.altitudeStandardDeviation <= targetSigma
        let minutes = reached ? 0 : Self.minutesNeeded(filter, from: e, pressureInterval: Self.interval(pressureTimes),
                                                       gpsInterval: Self.interval(gpsTimes) ?? 1, target: targetSigma)
        return Report(qnhHectopascals: e.seaLevelPressure, qnhSigmaHectopascals: e.seaLevelPressureStandardDeviation,
                      altitudeMeters: e.altitude, altitudeSigmaMeters: e.altitudeStandardDeviation, offsetMeters: offset,
                      offsetSigmaMeters: e.altitudeStandardDeviation, targetSigmaMeters: targetSigma,
                      targetReached: reached, moreGPSMinutes: minutes)
    }

    /// The median interval between successive times, in seconds; nil with fewer than two.
    static func interval(_ times: [Double]) -> Double? {
        guard times.count >= 2 else { return nil }
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }.filter { $0 > 0 }.sorted()
        guard !gaps.isEmpty else { return nil }
        return gaps[gaps.count / 2]
    }

    /// Minutes of further GPS until the altitude sigma reaches `target`, or nil if not within `horizon`.
    ///
    /// Feeds a copy of the filter readings equal to its own predictions (see the type's discussion).
    static func minutesNeeded(_ original: AltitudeFilter, from start: AltitudeEstimate, pressureInterval: Double?,
                              gpsInterval: Double, target: Double) -> Double? {
        var filter = original
        var estimate = start
        let t0 = start.time
        var nextGPS = t0 + gpsInterval
        var nextPressure = pressureInterval.map { t0 + $0 } ?? .infinity
        while min(nextGPS, nextPressure) - t0 <= horizon {
            let t = min(nextGPS, nextPressure)
            var reading = AltitudeReading(time: t)
            if nextPressure <= t {
                reading.pressure = try? StandardAtmosphere.pressure(atAltitude: estimate.altitude,
                                                                    seaLevelPressure: estimate.seaLevelPressure)
                nextPressure += pressureInterval ?? .infinity
            }
            if nextGPS <= t {
                reading.gpsAltitude = estimate.altitude + estimate.gpsError
                nextGPS += gpsInterval
            }
            guard let next = try? filter.process(reading) else { return nil }
            estimate = next
            if estimate.altitudeStandardDeviation <= target { return (t - t0) / 60 }
        }
        return nil
    }
}
