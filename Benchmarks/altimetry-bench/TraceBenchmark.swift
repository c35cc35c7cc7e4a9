import Altimetry
import Foundation
import Simulation

/// `altimetry-bench trace FILE [--every S] [--adapt on|off] [--gps-sigma M --gps-tau S] [--params FILE]`: the
/// filter's inner state through a recording, a line every S seconds (default 60): the estimate, the motion state,
/// the barometer's learned noise, the receiver in use, the column and the reading's status. For studying a
/// recording, not a figure of merit.
enum TraceBenchmark {
    static func run(arguments: [String]) -> Int32 {
        guard let path = arguments.first else {
            print("usage: altimetry-bench trace FILE [--every S] [--adapt on|off] [--gps-sigma M --gps-tau S]")
            return 64
        }
        func value(_ name: String) -> Double? {
            guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
            return Double(arguments[i + 1])
        }
        guard var parameters = ParametersOption.parse(arguments, benchmark: "trace") else { return 66 }
        parameters.learnsReceiver = !(arguments.contains("off") && arguments.contains("--adapt"))
        if let s = value("--gps-sigma") { parameters.gpsErrorStandardDeviation = s }
        if let t = value("--gps-tau") { parameters.gpsCorrelationTime = t }
        let every = value("--every") ?? 60
        var truth: [Double]? = nil
        let readings: [AltitudeReading]
        if path.hasPrefix("sim:") {
            // sim:static|hike,SIGMA,TAU[,HOURS][,SEED]: a simulated recording with that receiver.
            let parts = path.dropFirst(4).split(separator: ",").map(String.init)
            guard parts.count >= 3, let sigma = Double(parts[1]), let tau = Double(parts[2]) else { return 64 }
            let hours = parts.count > 3 ? Double(parts[3]) ?? 4 : 4
            let seed = parts.count > 4 ? UInt64(parts[4]) ?? 1 : 1
            let receiver = SimulatedReceiver(correlatedErrorStandardDeviation: sigma, correlationTime: tau)
            var scenario =
                parts[0] == "hike"
                ? Scenario.named(.hike, receiver: receiver, seed: seed)
                : Scenario.staticLog(receiver: receiver, duration: hours * 3_600, seed: seed)
            if parts[0] == "stillfront" {
                scenario = Scenario.named(.front, seed: seed)
                scenario.profile = AltitudeProfile(startAltitude: 400)
            }
            guard let recording = try? scenario.simulate() else { return 65 }
            readings = recording.readings.map {
                AltitudeReading(
                    time: $0.time, pressure: $0.pressure, gpsAltitude: $0.gpsAltitude,
                    gpsVerticalAccuracy: $0.gpsVerticalAccuracy)
            }
            truth = recording.readings.map(\.trueAltitude)
        } else {
            let dir = (path as NSString).deletingLastPathComponent
            let name = (dir as NSString).lastPathComponent
            guard
                let (_, real) = RealRecordingBenchmark.recording(
                    named: name, in: (dir as NSString).deletingLastPathComponent)
            else {
                print("cannot read \(path)")
                return 66
            }
            readings = real
        }
        guard var filter = try? AltitudeFilter(parameters: parameters) else { return 65 }
        var next = -Double.infinity
        print(
            "     t   altitude  sigma   qnh     rest  v_baro  rest_rate  baro_sd  receiver        column  moved  status"
        )
        for (index, r) in readings.enumerated() {
            guard let e = try? filter.process(r) else {
                print("refused at \(r.time)")
                return 65
            }
            guard r.time >= next else { continue }
            next = r.time + every
            let m = filter.motion
            print(
                String(
                    format: "%8.0f %9.2f %6.2f %8.2f %5@ %7.3f %9.4f %8.3f %5.1f/%5.0f %7.1f %6.1f  %@", r.time,
                    e.altitude,
                    e.altitudeStandardDeviation, e.seaLevelPressure, m.isAtRest ? "rest" : "move", m.velocity,
                    m.restRate, filter.barometerNoise.measurementVariance.squareRoot(),
                    filter.receiver.errorStandardDeviation, filter.receiver.correlationTime,
                    e.columnTemperature - 273.15, filter.heightMoved,
                    e.status.description) + String(format: " tend %5.2f", e.weatherTendency)
                    + (truth.map { String(format: "  err %6.2f", e.altitude - $0[index]) } ?? ""))
            if arguments.contains("--weights"), let learner = filter.learner {
                let w = learner.weights
                let top = w.indices.sorted { w[$0] > w[$1] }.prefix(3)
                print(
                    "         weights: "
                        + top.map {
                            String(
                                format: "%.0f/%.0f %.2f [%.1f %.3f %.1f]",
                                ReceiverLearner.spreads[$0 / ReceiverLearner.correlationTimes.count],
                                ReceiverLearner.correlationTimes[$0 % ReceiverLearner.correlationTimes.count], w[$0],
                                learner.hypotheses[$0].mean[0], learner.hypotheses[$0].mean[1],
                                learner.hypotheses[$0].mean[2])
                        }.joined(separator: "  "))
            }
        }
        return 0
    }
}
