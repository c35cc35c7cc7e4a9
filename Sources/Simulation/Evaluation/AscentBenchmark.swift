import Altimetry
import Foundation

/// The Monte Carlo of total ascent against the simulated truth: fused (with its sigma), GPS alone and the raw
/// barometer, over many seeds of one scenario.
///
/// The truth is the true profile's ascent and descent with no threshold (the profile has no noise). Coverage is the
/// fraction of seeds whose fused ascent error lies within the reported one sigma; it is also given for the pressure
/// part of the sigma alone (the sigma were the column known), beside which the column adds its part.
public struct AscentBenchmark: Sendable, Codable {
    /// One seed's figures.
    public struct Trial: Sendable, Equatable, Codable {
        /// The seed of the trial's simulation.
        public var seed: UInt64
        /// The true profile's ascent, in metres.
        public var true_ascent_m: Double
        /// The fused ascent, in metres.
        public var ascent_m: Double
        /// The fused ascent's one sigma, in metres.
        public var ascent_sigma_m: Double
        /// The pressure's part of that sigma (the sigma were the column's temperature known), in metres.
        public var ascent_pressure_sigma_m: Double
        /// The true profile's descent, in metres (positive).
        public var true_descent_m: Double
        /// The fused descent, in metres (positive).
        public var descent_m: Double
        /// The fused descent's one sigma, in metres.
        public var descent_sigma_m: Double
        /// The hysteresis used, in metres.
        public var hysteresis_m: Double
        /// The GPS-only ascents, in metres: gpxpy's rule, then each hysteresis.
        public var gps_only_ascent_m: [Double]
        /// The raw barometer's ascent, in metres.
        public var barometer_only_ascent_m: Double
    }

    /// One scenario's pooled figures.
    public struct Summary: Sendable, Equatable, Codable {
        /// The scenario's name.
        public var scenario: String
        /// Whether the track carried a temperature.
        public var temperature: Bool
        /// The number of seeds pooled.
        public var seeds: Int
        /// The true ascent, in metres (the same for every seed).
        public var true_ascent_m: Double
        /// Mean of the fused ascent's relative error (a fraction of the true ascent; 0 for a seed whose truth is 0).
        public var mean_relative_error: Double
        /// Root mean square of the fused ascent's relative error (a fraction).
        public var rms_relative_error: Double
        /// The largest absolute error of the fused ascent, in metres.
        public var max_abs_error_m: Double
        /// The median of the fused ascent's one sigma, in metres.
        public var median_sigma_m: Double
        /// The fraction of seeds with |error| ≤ sigma (the whole sigma).
        public var coverage: Double
        /// The fraction of seeds with |error| within the pressure part of the sigma alone.
        public var coverage_pressure_sigma: Double
        /// The fraction of seeds with |error| ≤ 2 sigma.
        public var coverage_two_sigma: Double
        /// The median hysteresis, in metres.
        public var median_hysteresis_m: Double
        /// Median ascent of the GPS-only rules (gpxpy, then each hysteresis), in metres.
        public var gps_only_median_ascent_m: [Double]
        /// The median ascent of the raw barometer, in metres.
        public var barometer_only_median_ascent_m: Double
        /// The median of the fused ascent, in metres (for the flat walk, where the truth is 0).
        public var median_ascent_m: Double
        /// The 95th percentile of the fused ascent, in metres.
        public var p95_ascent_m: Double
    }

    /// Runs `seeds` seeds (1...seeds) of a named scenario, with or without the recording's temperature column.
    ///
    /// - Parameters:
    ///   - name: the scenario, simulated once per seed.
    ///   - seeds: the number of seeds, run as seeds 1 through `seeds`.
    ///   - useTemperature: pass the recording's temperature readings (converted from °C to kelvin) to the
    ///     filter; false fuses pressure and GPS alone.
    ///   - addTemperatureSensor: give the barometer a temperature sensor (standard noise) where the
    ///     scenario has none; false leaves the scenario as it is.
    ///   - parameters: the model every seed's track is fused with (the defaults unless given).
    ///   - configuration: the choices behind each seed's ascent count: the averaging time (s), the hysteresis
    ///     (in sigmas) and the GPS-only thresholds (m).
    /// - Throws: `ScenarioError` from a scenario that does not simulate, or the `AscentError` of a seed that cannot be
    ///   measured; the first failing seed's error.
    public static func run(
        _ name: ScenarioName, seeds: Int, useTemperature: Bool, addTemperatureSensor: Bool = false,
        parameters: AltitudeModelParameters = AltitudeModelParameters(),
        configuration: AscentConfiguration = AscentConfiguration()
    ) throws -> (Summary, [Trial]) {
        try run(
            name.rawValue, seeds: seeds, useTemperature: useTemperature, parameters: parameters,
            configuration: configuration
        ) { seed in
            var scenario = Scenario.named(name, seed: seed)
            if addTemperatureSensor, scenario.barometer.temperatureSensor == nil {
                scenario.barometer.temperatureSensor = TemperatureSensor()
            }
            return scenario
        }
    }

    /// Runs seeds 1...seeds of the scenarios `scenario(seed)` makes.
    ///
    /// - Parameters:
    ///   - name: the name the summary reports.
    ///   - seeds: the number of seeds, run as seeds 1 through `seeds` (in parallel).
    ///   - useTemperature: pass the recording's temperature readings (converted from °C to kelvin) to the filter; false
    ///     fuses pressure and GPS alone.
    ///   - parameters: the model every seed's track is fused with (the defaults unless given).
    ///   - configuration: the choices behind each seed's ascent count: the averaging time (s), the hysteresis (in
    ///     sigmas) and the GPS-only thresholds (m).
    ///   - make: the scenario of a seed.
    /// - Throws: `ScenarioError` from a scenario that does not simulate, or the `AscentError` of a seed that cannot be
    ///   measured; the first failing seed's error.
    public static func run(
        _ name: String, seeds: Int, useTemperature: Bool,
        parameters: AltitudeModelParameters = AltitudeModelParameters(),
        configuration: AscentConfiguration = AscentConfiguration(),
        scenario make: @escaping @Sendable (UInt64) -> Scenario
    ) throws -> (Summary, [Trial]) {
        let trials = try parallelMap(0..<seeds) { offset -> Trial in
            let scenario = make(UInt64(offset + 1))
            let recording = try scenario.simulate()
            let readings = recording.readings.map { r in
                AltitudeReading(
                    time: r.time, pressure: r.pressure, gpsAltitude: r.gpsAltitude,
                    gpsVerticalAccuracy: r.gpsVerticalAccuracy,
                    temperature: useTemperature ? r.temperatureCelsius.map { $0 + 273.15 } : nil)
            }
            let report = try AscentAnalysis.measure(readings, parameters: parameters, configuration: configuration)
            let truth = AscentCounter.count(
                times: recording.readings.map(\.time),
                altitudes: recording.truth.map(\.altitude), hysteresis: 0)
            return Trial(
                seed: scenario.seed, true_ascent_m: truth.ascent, ascent_m: report.ascent.value,
                ascent_sigma_m: report.ascent.standardDeviation,
                ascent_pressure_sigma_m: report.ascent.pressureStandardDeviation,
                true_descent_m: truth.descent, descent_m: report.descent.value,
                descent_sigma_m: report.descent.standardDeviation, hysteresis_m: report.hysteresis,
                gps_only_ascent_m: report.gpsOnly.map(\.ascent),
                barometer_only_ascent_m: report.barometerOnly?.ascent ?? .nan)
        }
        return (summary(name, temperature: useTemperature, trials), trials)
    }

    static func summary(_ name: String, temperature: Bool, _ trials: [Trial]) -> Summary {
        let n = Double(max(trials.count, 1))
        let truth = trials.first?.true_ascent_m ?? 0
        let errors = trials.map { $0.ascent_m - $0.true_ascent_m }
        let relative = trials.map { $0.true_ascent_m > 0 ? ($0.ascent_m - $0.true_ascent_m) / $0.true_ascent_m : 0 }
        let gpsCount = trials.first?.gps_only_ascent_m.count ?? 0
        return Summary(
            scenario: name, temperature: temperature, seeds: trials.count, true_ascent_m: truth,
            mean_relative_error: relative.reduce(0, +) / n,
            rms_relative_error: (relative.map { $0 * $0 }.reduce(0, +) / n).squareRoot(),
            max_abs_error_m: errors.map(abs).max() ?? 0,
            median_sigma_m: quantile(trials.map(\.ascent_sigma_m), 0.5),
            coverage: Double(trials.filter { abs($0.ascent_m - $0.true_ascent_m) <= $0.ascent_sigma_m }.count) / n,
            coverage_pressure_sigma: Double(
                trials.filter { abs($0.ascent_m - $0.true_ascent_m) <= $0.ascent_pressure_sigma_m }.count) / n,
            coverage_two_sigma: Double(
                trials.filter { abs($0.ascent_m - $0.true_ascent_m) <= 2 * $0.ascent_sigma_m }.count) / n,
            median_hysteresis_m: quantile(trials.map(\.hysteresis_m), 0.5),
            gps_only_median_ascent_m: (0..<gpsCount).map { k in quantile(trials.map { $0.gps_only_ascent_m[k] }, 0.5) },
            barometer_only_median_ascent_m: quantile(trials.map(\.barometer_only_ascent_m), 0.5),
            median_ascent_m: quantile(trials.map(\.ascent_m), 0.5), p95_ascent_m: quantile(trials.map(\.ascent_m), 0.95)
        )
    }

    /// The q-quantile by the nearest rank (NaN for none).
    static func quantile(_ values: [Double], _ q: Double) -> Double {
        let s = values.filter(\.isFinite).sorted()
        guard !s.isEmpty else { return .nan }
        return s[min(s.count - 1, max(0, Int((q * Double(s.count)).rounded(.up)) - 1))]
    }
}
