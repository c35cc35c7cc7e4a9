import Altimetry
import AltimetryIO
import Dispatch
import Foundation

/// `altimetry-bench real [--data DIR] [--params FILE]`: the default model against the fixed one, the best fixed
/// receiver chosen with hindsight and naive averaging, on every real recording that has something to score against.
///
/// For every recording under DIR (default `../shared/data/real`; skipped with a message where it is absent), it
/// fuses the readings with
///
/// - `default`: the command line's default, the receiver learned while fusing (`ReceiverLearner`);
/// - `fixed`: the same model with the parameters' receiver (`--adapt off`);
/// - `best fixed`: each receiver of the grid σ_e ∈ {1, 3, 10, 30} m × τ ∈ {30, 300, 3,600} s (`--adapt off
///   --gps-sigma S --gps-tau T`), the best on that recording's own score chosen with hindsight;
/// - `naive` and `naive 600s`: the seed's GPS average over barometric relative altitude, cumulative and over the
///   last 600 s (`NaiveAveragingBaseline`), with its σ_gps/√N;
///
/// and scores each: on the static stretches (the indoor desk after its first 10 minutes, the 7.3 h logger's outdoor
/// stretch from t = 9,600 s, the 9.8-day logger's continuous piece after its first 10 minutes) the RMSE, coverage and
/// NEES against the stretch's median GPS altitude; against `ref_alt_m` where the file has it (the drones' onboard
/// estimates), after the first 20 s, the RMS difference, the coverage and the median sigma; on the GPS glitch log
/// (its README: the reference followed the fault), the worst deviation from the barometer's trend, anchored to the
/// GPS over its sound first 55 s, and the RMS. Then the default's ratio to the best fixed receiver, its fronts, and
/// the receiver it learned.
enum RealRecordingBenchmark {
    /// The static stretch of a recording, by folder name: its start in seconds.
    static let staticStretches: [String: Double] = [
        "ola_m10s_lps28dfw_bergen_desk_indoor_5h": 600,
        "ola_m10s_lps28dfw_bergen_indoor_car_outdoor_7h": 9_600,
        "ola_m10s_lps28dfw_bergen_static_2weeks": 345_000 + 600,
    ]

    /// Recordings whose `ref_alt_m` followed a GNSS fault, by folder name: the end of the sound stretch, in seconds.
    static let barometricReferences: [String: Double] = ["ardupilot_pxf_erle_2014-11-26_log181_gpsglitch": 55]

    /// The hindsight grid's receivers.
    static let gridSpreads: [Double] = [1, 3, 10, 30]
    static let gridTimes: [Double] = [30, 300, 3_600]

    /// One model's score on one recording.
    struct Score {
        /// The figure the comparison ranks by: RMSE, or the worst deviation on the glitch log, in metres.
        var primary: Double
        var rmse: Double
        var coverage: Double
        var nees: Double
        var medianSigma: Double
        var fronts: Int
    }

    static func run(arguments: [String]) -> Int32 {
        var dir = "../shared/data/real"
        if let i = arguments.firstIndex(of: "--data"), i + 1 < arguments.count { dir = arguments[i + 1] }
        guard let base = ParametersOption.parse(arguments, benchmark: "real") else { return 66 }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir).sorted() else {
            print("altimetry-bench real: no recordings in \(dir) (the shared data folder is absent); nothing scored")
            return 0
        }
        print("real recordings: the default against the fixed model, the best fixed receiver and naive averaging")
        print(
            "recording                     score        |   default          |   fixed            | best fixed (S/T)"
                + "          |   naive            |  naive 600s        | default/best  fronts  learned receiver")
        for name in names {
            guard let (table, readings) = recording(named: name, in: dir) else { continue }
            let barometric = barometricReferences[name].flatMap { barometricReference(table, soundUntil: $0) }
            let hasReference = table.rows.contains { $0.reference != nil }
            guard staticStretches[name] != nil || hasReference || barometric != nil else { continue }
            func score(_ estimates: [Estimate]) -> Score {
                scoreRecording(name: name, table: table, estimates: estimates, barometric: barometric)
            }
            var learning = base
            learning.learnsReceiver = true
            var fixed = base
            fixed.learnsReceiver = false
            let (defaultEstimates, defaultFilter) = fuse(readings, parameters: learning)
            let fixedEstimates = fuse(readings, parameters: fixed).estimates
            let grid = gridSpreads.flatMap { s in gridTimes.map { (s, $0) } }
            let gridScores: [(label: String, score: Score)] = grid.map { s, t in
                var p = fixed
                p.gpsErrorStandardDeviation = s
                p.gpsCorrelationTime = t
                return (String(format: "%.0f/%.0f", s, t), score(fuse(readings, parameters: p).estimates))
            }
            let best = gridScores.min { $0.score.primary < $1.score.primary }!
            let naive = score(naiveEstimates(readings, window: nil))
            let naive600 = score(naiveEstimates(readings, window: 600))
            let d = score(defaultEstimates)
            let f = score(fixedEstimates)
            let isStatic = staticStretches[name] != nil
            let metric = barometric != nil ? "worst dev" : isStatic ? "static" : "vs ref"
            func cell(_ s: Score) -> String {
                isStatic
                    ? String(format: "%6.2f m %4.2f %4.2f", s.primary, s.coverage, s.nees)
                    : String(format: "%6.2f m %4.2f %5.2f", s.primary, s.coverage, s.medianSigma)
            }
            let learned = defaultFilter?.receiver
            let receiver =
                learned.map { String(format: "%.1f m / %.0f s", $0.errorStandardDeviation, $0.correlationTime) } ?? "—"
            var line = String(name.prefix(29)).padding(toLength: 30, withPad: " ", startingAt: 0)
            line += metric.padding(toLength: 12, withPad: " ", startingAt: 0)
            line += " | " + cell(d) + " | " + cell(f) + " | " + cell(best.score) + " "
            line += best.label.padding(toLength: 9, withPad: " ", startingAt: 0)
            line += " | " + cell(naive) + " | " + cell(naive600)
            line += String(format: " | %6.2fx %7d  ", d.primary / best.score.primary, defaultFilter?.fronts.count ?? 0)
            print(line + receiver)
        }
        print(
            "cells: score (RMSE, or the worst deviation on the glitch log), coverage, and NEES on the static stretches "
                + "or the median sigma against a reference")
        return 0
    }

    /// An estimate's time, altitude and sigma.
    struct Estimate {
        var time: Double
        var altitude: Double
        var sigma: Double
    }

    /// The filter's estimates over `readings`, and the filter after them; nil filter (no estimates) if it fails.
    static func fuse(_ readings: [AltitudeReading], parameters: AltitudeModelParameters) -> (
        estimates: [Estimate], filter: AltitudeFilter?
    ) {
        guard var filter = try? AltitudeFilter(parameters: parameters) else { return ([], nil) }
        var estimates: [Estimate] = []
        estimates.reserveCapacity(readings.count)
        for r in readings {
            guard let e = try? filter.process(r) else { return ([], nil) }
            estimates.append(Estimate(time: e.time, altitude: e.altitude, sigma: e.altitudeStandardDeviation))
        }
        return (estimates, filter)
    }

    /// The naive baseline's estimates over `readings` (NaN before it has one).
    static func naiveEstimates(_ readings: [AltitudeReading], window: Double?) -> [Estimate] {
        var baseline = NaiveAveragingBaseline(window: window)
        return readings.map { r in
            let e = baseline.update(time: r.time, pressure: r.pressure, gpsAltitude: r.gpsAltitude)
            return Estimate(
                time: r.time, altitude: e.altitudeMeters ?? .nan, sigma: e.reportedStandardDeviation ?? .nan)
        }
    }

    /// Scores `estimates` (one per reading, in the order of the table's usable rows) as the type's discussion says.
    static func scoreRecording(name: String, table: Table, estimates: [Estimate], barometric: [Int: Double]?)
        -> Score
    {
        var errors: [(error: Double, sigma: Double)] = []
        if let start = staticStretches[name] {
            let truth = median(
                estimates.indices.compactMap { i in
                    estimates[i].time >= start ? table.usable[i].gpsAltitude : nil
                })
            for e in estimates where e.time >= start && e.altitude.isFinite {
                errors.append((e.altitude - (truth ?? .nan), e.sigma))
            }
        } else {
            // The reference of each row, carried to the rows of readings after it.
            var current: Estimate?
            var next = 0
            for row in table.rows {
                if next < table.usable.count, table.usable[next].line == row.line {
                    current = next < estimates.count ? estimates[next] : nil
                    next += 1
                }
                let reference = barometric == nil ? row.reference : barometric?[row.line]
                guard let ref = reference, let e = current, row.time >= 20, e.altitude.isFinite else { continue }
                errors.append((e.altitude - ref, e.sigma))
            }
        }
        guard !errors.isEmpty else {
            return Score(primary: .nan, rmse: .nan, coverage: .nan, nees: .nan, medianSigma: .nan, fronts: 0)
        }
        let n = Double(errors.count)
        let rmse = (errors.reduce(0) { $0 + $1.error * $1.error } / n).squareRoot()
        let coverage = Double(errors.filter { abs($0.error) <= $0.sigma }.count) / n
        let nees = errors.reduce(0) { $0 + ($1.error * $1.error) / ($1.sigma * $1.sigma) } / n
        let worst = errors.map { abs($0.error) }.max() ?? .nan
        return Score(
            primary: barometric != nil ? worst : rmse, rmse: rmse, coverage: coverage, nees: nees,
            medianSigma: median(errors.map(\.sigma)) ?? .nan, fronts: 0)
    }

    /// The barometer's trend as a reference for each row with a pressure: the standard atmosphere's pressure altitude
    /// shifted by the sound stretch's median GPS altitude less its median pressure altitude; nil where the sound
    /// stretch has no fix or no pressure. Over log181's two minutes the weather moves the pressure by hundredths of a
    /// hectopascal and a column 10 K off the standard scales its 40 m of climb by 3.5 %: about 1.5 m, against a fault
    /// of hundreds of metres.
    static func barometricReference(_ table: Table, soundUntil end: Double) -> [Int: Double]? {
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

    /// A recording's table (with its usable rows) and readings; nil where the folder has no readable `data.csv`.
    static func recording(named name: String, in dir: String) -> (table: Table, readings: [AltitudeReading])? {
        let path = dir + "/" + name + "/data.csv"
        guard FileManager.default.fileExists(atPath: path),
            let input = try? InputLoader.table(path, options: ReadOptions())
        else { return nil }
        let usable = input.rows.filter { $0.invalidReason == nil && ($0.pressure != nil || $0.gpsAltitude != nil) }
        let readings = usable.map {
            AltitudeReading(
                time: $0.time, pressure: $0.pressure, gpsAltitude: $0.gpsAltitude,
                gpsVerticalAccuracy: $0.gpsVerticalAccuracy, temperature: $0.temperature)
        }
        return (Table(rows: input.rows, usable: usable), readings)
    }

    /// A recording's rows and the usable ones, those fused.
    struct Table {
        var rows: [InputRow]
        var usable: [InputRow]
    }

    /// The upper median of `values`; nil when empty.
    static func median(_ values: [Double]) -> Double? { values.isEmpty ? nil : values.sorted()[values.count / 2] }
}
