import Altimetry
import AltimetryIO
import Foundation

/// `altimetry-bench real [--data DIR] [--params FILE] [--trace]`: the fixed and the adaptive GPS error model on the real
/// recordings.
///
/// For every recording under DIR (default `../shared/data/real`), fuses it with the default model (or FILE's, a
/// `--params` file) with the
/// adaptive bank off and on, and prints: against `ref_alt_m` where the file has it (the drones' onboard
/// estimates), after the first 20 s (the start from the standard atmosphere), the RMS difference and the median
/// sigma and their ratio (where the README says that reference followed a GNSS fault, against the barometer's trend
/// instead: `barometricReferences`); on the static stretches (the indoor desk
/// after its first 10 minutes, the 7.3 h logger's outdoor stretch from t = 9,600 s, the 9.8-day logger's continuous
/// piece after its first 10 minutes), the coverage and NEES against the stretch's median GPS altitude; and the
/// fronts reported; then `altimetry calibrate` on each ten-minute window of those stretches
/// (`printCalibrationWindows`). `--trace` adds, for the adaptive model on each static stretch, a line an hour (a day on the
/// 9.8-day logger): the estimate, the GPS error state, the leading hypothesis and its weight, and the column.
enum RealRecordingBenchmark {
    /// The static stretch of a recording, by folder name: its start in seconds, or nil for none.
    static let staticStretches: [String: Double] = [
        "ola_m10s_lps28dfw_bergen_desk_indoor_5h": 600,
        "ola_m10s_lps28dfw_bergen_indoor_car_outdoor_7h": 9_600,
        "ola_m10s_lps28dfw_bergen_static_2weeks": 345_000 + 600,
    ]

    /// Recordings whose `ref_alt_m` followed a GNSS fault (their README says so: compare against the barometer's
    /// trend instead), by folder name: the end, in seconds, of the stretch over which the GNSS is sound. Their
    /// reference is the standard atmosphere's pressure altitude, shifted by the sound stretch's median GPS altitude
    /// less its median pressure altitude. Over log181's two minutes the weather moves the pressure by hundredths of
    /// a hectopascal and a column 10 K off the standard scales its 40 m of climb by 3.5 %: about 1.5 m, against a
    /// fault of hundreds of metres.
    static let barometricReferences: [String: Double] = ["ardupilot_pxf_erle_2014-11-26_log181_gpsglitch": 55]

    /// The barometer's trend as a reference for each row with a pressure (see `barometricReferences`); nil where the
    /// sound stretch has no fix or no pressure.
    static func barometricReference(_ table: InputTable, soundUntil end: Double) -> [Int: Double]? {
        var altitudes: [Int: Double] = [:]
        var soundPressure: [Double] = [], soundGPS: [Double] = []
        for row in table.rows where row.invalidReason == nil {
            if let p = row.pressure, let h = try? StandardAtmosphere.altitude(atPressure: p) {
                altitudes[row.line] = h
                if row.time < end { soundPressure.append(h) }
            }
            if let g = row.gpsAltitude, row.time < end { soundGPS.append(g) }
        }
        guard let gps = median(soundGPS), let pressure = median(soundPressure) else { return nil }
        return altitudes.mapValues { $0 + gps - pressure }
    }

    static func run(arguments: [String]) -> Int32 {
        var dir = "../shared/data/real"
        if let i = arguments.firstIndex(of: "--data"), i + 1 < arguments.count { dir = arguments[i + 1] }
        guard let base = ParametersOption.parse(arguments, benchmark: "real") else { return 66 }
        let trace = arguments.contains("--trace")
        var traceLines: [String] = []
        // A line an hour on the short stretches, a day on the 9.8-day logger.
        func traceInterval(for name: String) -> Double { name.contains("2weeks") ? 86_400 : 3_600 }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir).sorted() else {
            print("no recordings in \(dir)")
            return 66
        }
        print(
            "recording                                          | model    | RMS vs ref  median sigma  ratio | static: coverage  NEES  RMS | fronts"
        )
        var stretchReadings: [String: [AltitudeReading]] = [:]
        for name in names {
            guard let (table, rows, readings) = recording(named: name, in: dir) else { continue }
            if staticStretches[name] != nil { stretchReadings[name] = readings }
            let barometric = barometricReferences[name].flatMap { barometricReference(table, soundUntil: $0) }
            for adapt in [false, true] {
                var parameters = base
                parameters.adaptsGPSErrorModel = adapt
                guard var filter = try? AltitudeFilter(parameters: parameters) else { continue }
                var estimates: [AltitudeEstimate] = []
                let traceStart = trace && adapt ? staticStretches[name] : nil
                var nextTrace = traceStart ?? .infinity
                for r in readings {
                    if let e = try? filter.process(r) { estimates.append(e) }
                    if r.time >= nextTrace, let bank = filter.gpsErrorModelBank, let e = estimates.last {
                        let j = bank.leadingIndex
                        let h = bank.hypotheses[j]
                        traceLines.append(
                            String(
                                format: "  t %8.0f s  altitude %7.2f m  sigma %5.2f m  gps error %6.2f m  "
                                    + "leading %4.1f m / %4.0f s (w %.2f)  column %5.1f K",
                                r.time, e.altitude, e.altitudeStandardDeviation, e.gpsError,
                                h.correlatedStandardDeviation, h.correlationTime, bank.weights[j], e.columnTemperature))
                        nextTrace += traceStart.map { _ in traceInterval(for: name) } ?? .infinity
                    }
                }
                guard estimates.count == readings.count else {
                    print("\(name): the filter refused a reading")
                    continue
                }
                var line =
                    name.padding(toLength: 51, withPad: " ", startingAt: 0) + "| " + (adapt ? "adaptive" : "fixed   ")
                    + " | "
                // Against the reference.
                var squares = 0.0, count = 0
                var sigmas: [Double] = []
                var current: AltitudeEstimate?
                var next = 0
                for row in table.rows {
                    if next < rows.count, rows[next].line == row.line {
                        current = estimates[next]
                        next += 1
                    }
                    let reference = barometricReferences[name] == nil ? row.reference : barometric?[row.line]
                    guard let ref = reference, let e = current, row.time >= 20 else { continue }
                    squares += (e.altitude - ref) * (e.altitude - ref)
                    count += 1
                    sigmas.append(e.altitudeStandardDeviation)
                }
                if count > 0 {
                    sigmas.sort()
                    let rms = (squares / Double(count)).squareRoot()
                    let sigma = sigmas[sigmas.count / 2]
                    line += String(format: "%8.2f m %10.2f m %7.2f", rms, sigma, sigma / rms)
                } else {
                    line += "      —            —         —  "
                }
                line += " | "
                if let start = staticStretches[name] {
                    let truth = medianGPSAltitude(of: readings, from: start) ?? .nan
                    var covered = 0, n = 0
                    var nees = 0.0, sq = 0.0
                    for e in estimates where e.time >= start {
                        let d = e.altitude - truth
                        if abs(d) <= e.altitudeStandardDeviation { covered += 1 }
                        nees += d * d / (e.altitudeStandardDeviation * e.altitudeStandardDeviation)
                        sq += d * d
                        n += 1
                    }
                    line +=
                        n == 0
                        ? "   —"
                        : String(
                            format: "%14.2f %6.2f %6.2f m", Double(covered) / Double(n), nees / Double(n),
                            (sq / Double(n)).squareRoot())
                } else {
                    line += "        —      —      —  "
                }
                line += " | \(filter.fronts.count)"
                print(line)
                for t in traceLines { print(t) }
                traceLines = []
            }
        }
        if names.contains(where: { barometricReferences[$0] != nil }) {
            print("(log181: RMS against the barometer's trend, anchored to the GPS over its first 55 s; its README)")
        }
        printCalibrationWindows(stretchReadings, parameters: base)
        return 0
    }

    /// The length of a calibration window, in seconds: `altimetry calibrate` over ten minutes of a static stretch.
    static let calibrationWindow = 600.0

    /// `altimetry calibrate` (`BarometerCalibration`) on each consecutive ten-minute window of every static stretch,
    /// fixed and adaptive: the share of windows whose calibrated altitude is within its sigma of the stretch's median
    /// GPS altitude, the median sigma, the RMS error and the largest error in sigmas.
    ///
    /// - Parameter recordings: each recording with a static stretch, by folder name: its readings as `run` read them.
    static func printCalibrationWindows(
        _ recordings: [String: [AltitudeReading]], parameters base: AltitudeModelParameters
    ) {
        guard !recordings.isEmpty else { return }
        print(
            "\ncalibration over 10-minute windows of the static stretches, against the stretch's median GPS altitude\n"
                + "recording                                          | model    | windows  covered  median sigma    RMS  largest |z|"
        )
        for (name, readings) in recordings.sorted(by: { $0.key < $1.key }) {
            guard let start = staticStretches[name], let truth = medianGPSAltitude(of: readings, from: start)
            else { continue }
            let stretch = readings.filter { $0.time >= start }
            guard let first = stretch.first?.time else { continue }
            let windows = Dictionary(grouping: stretch) { Int(($0.time - first) / calibrationWindow) }
            for adapt in [false, true] {
                var parameters = base
                parameters.adaptsGPSErrorModel = adapt
                var errors: [(error: Double, sigma: Double)] = []
                for key in windows.keys.sorted() {
                    guard let window = windows[key], window.contains(where: { $0.gpsAltitude != nil }),
                        let last = window.last, last.time - first >= Double(key + 1) * calibrationWindow - 60,
                        var calibration = try? BarometerCalibration(
                            parameters: parameters, targetStandardDeviation: .greatestFiniteMagnitude)
                    else { continue }
                    for r in window { try? calibration.add(r) }
                    guard let status = calibration.status else { continue }
                    errors.append((status.altitude - truth, status.altitudeOffsetStandardDeviation))
                }
                guard !errors.isEmpty else { continue }
                let covered = errors.filter { abs($0.error) <= $0.sigma }.count
                let rms = (errors.map { $0.error * $0.error }.reduce(0, +) / Double(errors.count)).squareRoot()
                let largest = errors.map { abs($0.error) / $0.sigma }.max() ?? .nan
                print(
                    name.padding(toLength: 51, withPad: " ", startingAt: 0) + "| " + (adapt ? "adaptive" : "fixed   ")
                        + String(
                            format: " | %7d %8.2f %10.2f m %6.2f m %8.1f", errors.count,
                            Double(covered) / Double(errors.count), median(errors.map(\.sigma)) ?? .nan, rms, largest))
            }
        }
    }

    /// The recording in folder `name` under `dir`: its table, the rows with a pressure or a fix and no invalid
    /// field, and those rows as readings; nil where the folder has no readable `data.csv`.
    static func recording(named name: String, in dir: String) -> (
        table: InputTable, rows: [InputRow], readings: [AltitudeReading]
    )? {
        let path = dir + "/" + name + "/data.csv"
        guard FileManager.default.fileExists(atPath: path),
            let table = try? InputLoader.table(path, options: ReadOptions())
        else { return nil }
        let rows = table.rows.filter { $0.invalidReason == nil && ($0.pressure != nil || $0.gpsAltitude != nil) }
        let readings = rows.map {
            AltitudeReading(
                time: $0.time, pressure: $0.pressure, gpsAltitude: $0.gpsAltitude,
                gpsVerticalAccuracy: $0.gpsVerticalAccuracy, temperature: $0.temperature)
        }
        return (table, rows, readings)
    }

    /// The median GPS altitude of the readings from `start` on (a static stretch's truth); nil without a fix there.
    static func medianGPSAltitude(of readings: [AltitudeReading], from start: Double) -> Double? {
        median(readings.filter { $0.time >= start }.compactMap(\.gpsAltitude))
    }

    /// The upper median of `values` (the middle one of an odd count, the higher of the middle two of an even one);
    /// nil when empty.
    static func median(_ values: [Double]) -> Double? { values.isEmpty ? nil : values.sorted()[values.count / 2] }
}
