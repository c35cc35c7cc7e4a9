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

extension AdaptiveTrace {
    /// `altimetry-bench adaptive --trace-scenario NAME [--seeds N]`: the bank beside the fixed model on a catalogue
    /// scenario (trial k is seed 1 + k, as the catalogue's benchmark), a line every 5 minutes per seed.
    ///
    /// Each line gives the fixed model's and the bank's errors against the truth with their sigmas, the bank's own
    /// member (the fixed model's hypothesis) and its error, the members in front noise, and the three largest
    /// weights with each member's error. Each seed ends with the RMSE (after 600 s) of the fixed model, the bank,
    /// the bank's own member and the leading member: whether the bank loses in its mixture or in its members.
    static func runScenario(_ name: ScenarioName, seeds: Int, parameters: AltitudeModelParameters) {
        var fixedParameters = parameters
        fixedParameters.adaptsGPSErrorModel = false
        var totals = [0.0, 0.0, 0.0, 0.0], count = 0.0
        for trial in 0..<seeds {
            let seed = 1 + UInt64(trial)
            guard let recording = try? Scenario.named(name, seed: seed).simulate(),
                var bank = try? AltitudeFilter(parameters: parameters),
                var fixed = try? AltitudeFilter(parameters: fixedParameters)
            else {
                AdaptiveBenchmark.emit("seed \(seed): the filter failed")
                continue
            }
            var squares = [0.0, 0.0, 0.0, 0.0], n = 0.0
            var next = 0.0
            let start = recording.readings.first?.time ?? 0
            for r in recording.readings {
                let reading = AltitudeReading(
                    time: r.time, pressure: r.pressure, gpsAltitude: r.gpsAltitude,
                    gpsVerticalAccuracy: r.gpsVerticalAccuracy, temperature: r.temperatureCelsius.map { $0 + 273.15 })
                guard let e = try? bank.process(reading), let f = try? fixed.process(reading),
                    let b = bank.gpsErrorModelBank
                else { continue }
                let own =
                    b.hypotheses.lastIndex {
                        $0.correlatedStandardDeviation == parameters.gpsErrorStandardDeviation
                            && $0.correlationTime == parameters.gpsCorrelationTime
                    } ?? 0
                let memberError = { (j: Int) in (b.members[j].currentEstimate?.altitude ?? .nan) - r.trueAltitude }
                if r.time - start >= 600 {
                    let errors = [
                        f.altitude - r.trueAltitude, e.altitude - r.trueAltitude, memberError(own),
                        memberError(b.leadingIndex),
                    ]
                    for k in errors.indices { squares[k] += errors[k] * errors[k] }
                    n += 1
                }
                guard r.time - start >= next else { continue }
                next += 300
                let w = b.weights
                let inFront = b.members.indices.filter {
                    (b.members[$0].engine?.model.weatherNoiseDensity ?? 0) != parameters.weatherNoiseDensity
                }
                let top = w.indices.sorted { w[$0] > w[$1] }.prefix(3).map {
                    String(
                        format: "%4.1f/%4.0f %.2f %+6.1f", b.hypotheses[$0].correlatedStandardDeviation,
                        b.hypotheses[$0].correlationTime, w[$0], memberError($0))
                }
                let frontFlags = inFront.map { b.hypotheses[$0] }.map {
                    "\(Int($0.correlatedStandardDeviation))/\(Int($0.correlationTime))"
                }
                AdaptiveBenchmark.emit(
                    String(
                        format: "seed %2d t %5.0f  fixed %+6.2f ± %5.2f%@  bank %+6.2f ± %5.2f  own %+6.2f  ",
                        seed, r.time - start, f.altitude - r.trueAltitude, f.altitudeStandardDeviation,
                        (fixed.engine?.model.weatherNoiseDensity ?? 0) != parameters.weatherNoiseDensity ? "F" : " ",
                        e.altitude - r.trueAltitude, e.altitudeStandardDeviation, memberError(own))
                        + top.joined(separator: " | ") + "  front noise: " + frontFlags.joined(separator: ","))
            }
            let rmse = squares.map { ($0 / max(n, 1)).squareRoot() }
            AdaptiveBenchmark.emit(
                String(
                    format: "seed %2d RMSE fixed %.2f  bank %.2f  own member %.2f  leader %.2f", seed, rmse[0], rmse[1],
                    rmse[2], rmse[3]))
            for k in totals.indices { totals[k] += squares[k] }
            count += n
        }
        let rmse = totals.map { ($0 / max(count, 1)).squareRoot() }
        AdaptiveBenchmark.emit(
            String(
                format: "pooled RMSE fixed %.2f  bank %.2f  own member %.2f  leader %.2f", rmse[0], rmse[1], rmse[2],
                rmse[3]))
    }
}
