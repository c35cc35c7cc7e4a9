import Altimetry
import AltimetryIO
import Foundation

/// `altimetry-bench hypotheses [--data DIR] [--params FILE]`: every GPS error hypothesis of the adaptive bank as a
/// fixed model of its own, on every real recording.
///
/// The bank is only as good as its members, and a member whose weight is nil shows nothing in the bank's output: a
/// rule that locks one member out, or a receiver model that runs one off, stays hidden until the weights move to
/// it. So each hypothesis (σ_e, τ) of `GPSErrorModelBank.hypotheses(for:)` runs here alone, with the parameters'
/// fault rules (a twin at another scale of the reported accuracy, labelled k×, only on a recording whose reports
/// tell it from its base member), on each recording under DIR (default `../shared/data/real`), and the line says where it ends: the
/// final altitude and its sigma; against the static stretch's median GPS altitude (the stretches of
/// `RealRecordingBenchmark`) or the last `ref_alt_m`, the final error in sigmas; and the fault episodes by kind.
/// A final error of many sigmas, or an episode no other hypothesis raises, is a lead to follow.
enum HypothesesBenchmark {
    static func run(arguments: [String]) -> Int32 {
        var dir = "../shared/data/real"
        if let i = arguments.firstIndex(of: "--data"), i + 1 < arguments.count { dir = arguments[i + 1] }
        guard let base = ParametersOption.parse(arguments, benchmark: "hypotheses") else { return 66 }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir).sorted() else {
            print("no recordings in \(dir)")
            return 66
        }
        print(
            "recording                                          | σ_e m / τ s | final altitude ± sigma "
                + "| error / sigma | episodes")
        for name in names {
            guard let (table, _, readings) = RealRecordingBenchmark.recording(named: name, in: dir) else { continue }
            let truth = finalTruth(name: name, rows: table.rows, readings: readings)
            for hypothesis in GPSErrorModelBank.hypotheses(for: base) {
                let parameters = GPSErrorModelBank.memberParameters(base, for: hypothesis)
                // A twin at another scale of the report runs where a report tells it from its base, as in the bank.
                if hypothesis.verticalAccuracyScale != 1 {
                    var own = parameters
                    own.gpsVerticalAccuracyScale = base.gpsVerticalAccuracyScale
                    let told = readings.contains {
                        $0.gpsVerticalAccuracy.map { GPSErrorModelBank.scaleMatters(reportedAccuracy: $0, to: own) }
                            ?? false
                    }
                    guard told else { continue }
                }
                guard var filter = try? AltitudeFilter(parameters: parameters) else { continue }
                var last: AltitudeEstimate?
                var refused = 0
                for r in readings {
                    if let e = try? filter.process(r) { last = e } else { refused += 1 }
                }
                guard let end = last else { continue }
                var kinds: [String: Int] = [:]
                for episode in filter.episodes { kinds[episode.kind.rawValue, default: 0] += 1 }
                let episodes = kinds.keys.sorted().map { "\($0) \(kinds[$0] ?? 0)" }.joined(separator: ", ")
                let error = truth.map { (end.altitude - $0) / end.altitudeStandardDeviation }
                print(
                    name.padding(toLength: 51, withPad: " ", startingAt: 0)
                        + String(
                            format: "| %5.1f / %4.0f%@ | %9.1f ± %5.1f m   | %@ | %@",
                            hypothesis.correlatedStandardDeviation, hypothesis.correlationTime,
                            hypothesis.verticalAccuracyScale == 1
                                ? "" : String(format: " k×%.1f", hypothesis.verticalAccuracyScale),
                            end.altitude,
                            end.altitudeStandardDeviation,
                            error.map { String(format: "%13.1f", $0) } ?? "            —",
                            episodes.isEmpty ? "none" : episodes)
                        + (refused > 0 ? " (\(refused) readings refused)" : ""))
            }
        }
        return 0
    }

    /// The truth at the end of a recording: the median GPS altitude of its static stretch, or its last
    /// `ref_alt_m`; nil without either.
    static func finalTruth(name: String, rows: [InputRow], readings: [AltitudeReading]) -> Double? {
        if let start = RealRecordingBenchmark.staticStretches[name] {
            return RealRecordingBenchmark.medianGPSAltitude(of: readings, from: start)
        }
        return rows.last { $0.reference != nil }?.reference
    }
}
