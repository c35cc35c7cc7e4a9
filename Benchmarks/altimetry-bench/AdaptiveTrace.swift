import Altimetry
import Foundation
import Simulation

/// `altimetry-bench adaptive --trace SIGMA,TAU [--seeds N] [--hours H] [--reports R]`: the adaptive bank on the
/// static log of one simulated receiver, a line every 15 minutes per seed.
///
/// Each line gives the bank's error against the truth, its sigma, its GPS error state beside the true one, the
/// column with its sigma and the three largest weights. Beside the bank, single filters with the receiver's own
/// hypothesis and with the slow competitors (σ_e, 3,600 s) and (30 m, 3,600 s) run on the same readings, and the line
/// ends with their summed log-likelihoods relative to the receiver's own, split into the barometer's updates and the
/// GPS fixes' (capped as the bank caps them): a positive figure is a wrong model the data favour.
enum AdaptiveTrace {
    static func run(receiver: SimulatedReceiver, seeds: Int, hours: Double, parameters: AltitudeModelParameters) {
        let own = (receiver.correlatedErrorStandardDeviation, receiver.correlationTime)
        var rivals = [own]
        for h in [(own.0, 3_600.0), (30.0, 3_600.0)] where !rivals.contains(where: { $0 == h }) { rivals.append(h) }
        AdaptiveBenchmark.emit(
            "log-likelihoods relative to \(Int(own.0)) m / \(Int(own.1)) s (barometer | GPS) of "
                + rivals.dropFirst().map { "\(Int($0.0)) m / \(Int($0.1)) s" }.joined(separator: ", "))
        for seed in 1...seeds {
            let scenario = Scenario.staticLog(receiver: receiver, duration: hours * 3_600, seed: UInt64(seed))
            guard let recording = try? scenario.simulate(), var bank = try? AltitudeFilter(parameters: parameters)
            else {
                AdaptiveBenchmark.emit("seed \(seed): the filter failed")
                continue
            }
            let white = parameters.gpsWhiteNoiseStandardDeviation
            let members = rivals.map { h in
                GPSErrorModelBank.memberParameters(
                    parameters,
                    for: .init(
                        correlatedStandardDeviation: h.0, correlationTime: h.1, whiteStandardDeviation: min(white, h.0))
                )
            }
            guard var singles = try? members.map({ try AltitudeFilter(parameters: $0) }) else {
                AdaptiveBenchmark.emit("seed \(seed): a single filter failed")
                continue
            }
            var barometer = rivals.map { _ in 0.0 }
            var gps = rivals.map { _ in 0.0 }
            var next = 0.0
            for r in recording.readings {
                let reading = AltitudeReading(
                    time: r.time, pressure: r.pressure, gpsAltitude: r.gpsAltitude,
                    gpsVerticalAccuracy: r.gpsVerticalAccuracy)
                guard let e = try? bank.process(reading) else { continue }
                for j in singles.indices {
                    guard let s = try? singles[j].process(reading) else { continue }
                    barometer[j] += GPSErrorModelBank.cappedLogLikelihood(s.barometerUpdate)
                    gps[j] += GPSErrorModelBank.cappedLogLikelihood(s.gpsUpdate)
                }
                guard r.time >= next, let b = bank.gpsErrorModelBank else { continue }
                next += 900
                let w = b.weights
                let top = w.indices.sorted { w[$0] > w[$1] }.prefix(3).map {
                    String(
                        format: "%4.1f/%4.0f %.2f", b.hypotheses[$0].correlatedStandardDeviation,
                        b.hypotheses[$0].correlationTime, w[$0])
                }
                let relative = rivals.indices.dropFirst().map {
                    String(format: "%8.1f | %7.1f", barometer[$0] - barometer[0], gps[$0] - gps[0])
                }
                AdaptiveBenchmark.emit(
                    String(
                        format: "seed %2d t %6.0f  error %7.2f  sigma %5.2f  gps error %6.2f (true %6.2f)  "
                            + "column %5.1f ± %4.1f K  ",
                        seed, r.time, e.altitude - r.trueAltitude, e.altitudeStandardDeviation, e.gpsError,
                        (r.gpsAltitude ?? .nan) - r.trueAltitude, e.columnTemperature,
                        e.columnTemperatureStandardDeviation)
                        + top.joined(separator: " | ") + "  LL " + relative.joined(separator: ", "))
            }
        }
    }
}
