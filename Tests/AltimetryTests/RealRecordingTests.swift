import Altimetry
import Foundation
import Testing

/// The 7.3 h Bergen logger recording (../shared/data/real, no licence: read in place, never copied): 4.6 h static
/// outdoors at the end while the weather lowered pressure by 15 hPa. The truth there is constant; its altitude is
/// taken as the median GPS altitude of that stretch. Skipped when the recording is not beside the checkout.
@Suite("Real recording: 15 hPa of weather in 4.6 h")
struct RealRecordingTests {
    /// The recording's `data.csv` in folder `name` of ../shared/data/real.
    static func path(_ name: String = "ola_m10s_lps28dfw_bergen_indoor_car_outdoor_7h") -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../shared/data/real/\(name)/data.csv").standardized.path
    }

    /// The readings of `path(name)` (time, pressure, GPS altitude); nil where the file is absent.
    static func readings(_ name: String = "ola_m10s_lps28dfw_bergen_indoor_car_outdoor_7h") throws -> [AltitudeReading]?
    {
        guard let text = try? String(contentsOfFile: path(name), encoding: .utf8) else { return nil }
        var rows: [AltitudeReading] = []
        for line in text.split(separator: "\n").dropFirst() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            guard cells.count >= 3, let t = Double(cells[0]) else { continue }
            let p = Double(cells[1]), z = Double(cells[2])
            if p == nil && z == nil { continue }
            rows.append(AltitudeReading(time: t, pressure: p, gpsAltitude: z))
        }
        return rows
    }

    static func score(_ readings: [AltitudeReading], _ parameters: AltitudeModelParameters) throws -> (
        rmse: Double, coverage: Double
    ) {
        var filter = try AltitudeFilter(parameters: parameters)
        let staticStart = 9_600.0  // 13:15 UTC, the start of the outdoor static stretch
        var estimates: [AltitudeEstimate] = []
        var fixes: [Double] = []
        for r in readings {
            let e = try filter.process(r)
            if r.time >= staticStart {
                estimates.append(e)
                if let z = r.gpsAltitude { fixes.append(z) }
            }
        }
        let truth = fixes.sorted()[fixes.count / 2]
        let errors = estimates.map { $0.altitude - truth }
        let rmse = (errors.reduce(0) { $0 + $1 * $1 } / Double(errors.count)).squareRoot()
        let covered = zip(errors, estimates).filter { abs($0.0) <= $0.1.altitudeStandardDeviation }.count
        return (rmse, Double(covered) / Double(errors.count))
    }

    @Test("The tendency state keeps the sigma honest through a 15 hPa fall, where the bare model is overconfident")
    func weatherTendency() throws {
        guard let readings = try Self.readings() else { return }
        var bare = AltitudeModelParameters.plain
        bare.gateStandardDeviations = 5
        let plain = try Self.score(readings, bare)
        let full = try Self.score(readings, AltitudeModelParameters())
        // Measured: bare 6.3 m with 0.28 coverage; default 3.4 m with 0.78 (a reference reported 5.9/0.30 and 3.7/0.80;
        // the default with a random-walk tendency, before the noise switch, gave 4.5 m with 0.73).
        #expect(plain.coverage < 0.4, "bare coverage \(plain.coverage)")
        #expect(full.rmse < 4.0 && full.rmse < 0.7 * plain.rmse, "RMSE \(full.rmse) vs bare \(plain.rmse)")
        #expect(full.coverage > 0.68, "coverage \(full.coverage)")
    }
}
