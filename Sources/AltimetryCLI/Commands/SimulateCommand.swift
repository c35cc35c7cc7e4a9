import Altimetry
import AltimetryIO
import Foundation
import Simulation

/// `altimetry simulate SCENARIO`: a scenario of the simulator, written in the CSV input format with `true_alt_m`.
///
/// SCENARIO is one of the benchmark's scenarios (`ScenarioName`) or one of the stress benchmark's
/// (`StressScenarioName`), so that a trial of either benchmark can be fused and looked at row by row.
public struct SimulateCommand: Command {
    public static let name = "simulate"
    public static let overview = "Write a simulated recording (barometer, GPS and the true altitude) as input CSV."
    public static let synopsis = "SCENARIO [--seed N] [--duration S] [--out FILE]"
    public static let options: [ArgumentScanner.Option] = [
        .init("seed", .value, placeholder: "N", help: "Seed of the random draws, a whole number >= 0 (default 1)."),
        .init("duration", .value, placeholder: "S", help: "Length in seconds (default: the scenario's own)."),
        .init("out", .value, placeholder: "FILE", help: "Write to FILE, atomically (default standard output)."),
    ]

    /// A scenario of either benchmark.
    enum Choice: Sendable {
        case benchmark(ScenarioName)
        case stress(StressScenarioName)

        var rawValue: String {
            switch self {
            case .benchmark(let name): return name.rawValue
            case .stress(let name): return name.rawValue
            }
        }
    }

    let scenario: Choice
    let seed: UInt64
    let duration: Double?
    let out: String?

    public init(_ a: ArgumentScanner) throws(UsageError) {
        let text = try a.onePositional("SCENARIO")
        if let name = ScenarioName(rawValue: text) {
            scenario = .benchmark(name)
        } else if let name = StressScenarioName(rawValue: text) {
            scenario = .stress(name)
        } else {
            throw UsageError(
                "unknown scenario '\(text)'; expected one of "
                    + (ScenarioName.allCases.map(\.rawValue) + StressScenarioName.allCases.map(\.rawValue)).joined(
                        separator: ", "))
        }
        seed = UInt64(try a.integer("seed", default: 1, minimum: 0))
        duration = a.values["duration"] == nil ? nil : try a.number("duration", default: 0, validRange: 1...604_800)
        out = a.values["out"]
    }

    public func run(console: Console) -> ExitCode {
        let recording: SimulatedRecording
        do {
            switch scenario {
            case .benchmark(let name): recording = try Scenario.named(name, seed: seed, duration: duration).simulate()
            case .stress(let name):
                var stress = Scenario.stress(name, seed: seed)
                if let duration { stress.duration = duration }
                recording = try stress.simulate()
            }
        } catch {
            console.writeError("error: the scenario could not be simulated: \(error)\n")
            return .software
        }
        let bytes = Self.csv(recording.readings)
        if let out {
            do { try AtomicFile.write(bytes, to: out) } catch {
                console.writeError("error: \(error)\n")
                return error.exitCode
            }
        } else {
            console.write(String(decoding: bytes, as: UTF8.self))
        }
        console.writeError(
            "simulated '\(scenario.rawValue)' (seed \(seed)): \(recording.readings.count) rows, "
                + "\(Fixed.text(recording.readings.last?.time ?? 0, 0)) s\n")
        return .success
    }

    /// The readings as input CSV: `t,pressure_hpa,gps_alt_m,gps_vacc_m[,temperature_c],true_alt_m`.
    ///
    /// Pressure carries 4 decimals (0.0001 hPa, 1 mm of altitude, far below the barometer's noise), metres 3.
    static func csv(_ readings: [SimulatedReading]) -> [UInt8] {
        let hasTemperature = readings.contains { $0.temperatureCelsius != nil }
        var out = Array(
            ("t,pressure_hpa,gps_alt_m,gps_vacc_m" + (hasTemperature ? ",temperature_c" : "") + ",true_alt_m\n").utf8)
        out.reserveCapacity(readings.count * 48)
        let comma = UInt8(ascii: ",")
        for r in readings {
            Fixed.append(r.time, 3, to: &out)
            out.append(comma)
            if let p = r.pressure { Fixed.append(p, 4, to: &out) }
            out.append(comma)
            if let g = r.gpsAltitude { Fixed.append(g, 3, to: &out) }
            out.append(comma)
            if let a = r.gpsVerticalAccuracy { Fixed.append(a, 3, to: &out) }
            if hasTemperature {
                out.append(comma)
                if let c = r.temperatureCelsius { Fixed.append(c, 2, to: &out) }
            }
            out.append(comma)
            Fixed.append(r.trueAltitude, 3, to: &out)
            out.append(10)
        }
        return out
    }
}
