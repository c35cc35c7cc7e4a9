import Altimetry
import Randomness
import Simulation
import StateEstimation

/// Every table and figure of the seed article, recomputed by the library: what `altimetry tables` prints.
///
/// The seed (the article this project grew from) states its physics through five tables and one scenario:
/// the standard atmosphere at three altitudes, the scale height, a 9 m climb read at the wrong temperature,
/// wind on the pressure port, GPS averaging under a Gauss-Markov error, and a building visit in which weather
/// drift puts a naive floor reading on the wrong floor. This value holds them all; its `Codable` form uses
/// the snake_case keys of issue 2 and nothing else, so the JSON is one object that scripts can check.
///
/// The physics lives in `Altimetry` and `Simulation`; this type only chooses the seed's inputs and gathers the
/// results, which is why it sits with the command line.
public struct SeedTables: Sendable, Equatable, Codable {
    /// One row of the ISA table.
    public struct AtmosphereRow: Sendable, Equatable, Codable {
        /// Altitude above mean sea level, in metres.
        public var altitude: Meters
        /// Standard pressure there, in hPa.
        public var pressure: Hectopascals
        /// Height worth one hectopascal there, in m/hPa.
        public var metersPerHectopascal: Double

        enum CodingKeys: String, CodingKey {
            case altitude = "altitude_m", pressure = "pressure_hpa", metersPerHectopascal = "meters_per_hpa"
        }
    }

    /// One row of the temperature table: the seed's 9 m climb converted at an assumed temperature.
    public struct TemperatureRow: Sendable, Equatable, Codable {
        /// The assumed mean air temperature, in °C.
        public var celsius: Double
        /// The height the climb reads as, in metres.
        public var apparentClimb: Meters

        enum CodingKeys: String, CodingKey {
            case celsius, apparentClimb = "apparent_climb_m"
        }
    }

    /// One row of the wind table.
    public struct WindRow: Sendable, Equatable, Codable {
        /// Wind speed straight into the pressure port, in m/s.
        public var speed: Double
        /// Its dynamic pressure ½ρv², in hPa.
        public var pressure: Hectopascals
        /// The apparent height change it causes at sea level, in metres.
        public var apparentHeight: Meters

        enum CodingKeys: String, CodingKey {
            case speed = "speed_mps", pressure = "pressure_hpa", apparentHeight = "apparent_height_m"
        }
    }

    /// One row of the GPS averaging table: the standard deviation of a window's estimate, five ways, in metres.
    public struct AveragingRow: Sendable, Equatable, Codable {
        /// The averaging window T, in seconds.
        public var window: Seconds
        /// RMS of the mean over simulated trials.
        public var simulated: Meters
        /// The exact SD of the mean of N correlated samples.
        public var exact: Meters
        /// The large-window approximation σ√(2τ/T).
        public var approximation: Meters
        /// The textbook σ/√N, which assumes independent samples.
        public var independent: Meters
        /// The generalised-least-squares bound, the best any linear unbiased estimator can do.
        public var generalizedLeastSquaresBound: Meters

        enum CodingKeys: String, CodingKey {
            case window = "window_s", simulated = "simulated_m", exact = "exact_m", approximation = "approximation_m"
            case independent = "independent_m", generalizedLeastSquaresBound = "gls_bound_m"
        }
    }

    /// The seed's building visit, summarised at its last second.
    public struct BuildingVisitSummary: Sendable, Equatable, Codable {
        /// Length of the visit, in seconds.
        public var duration: Int
        /// Relative altitude minus true height at the end, in metres: the weather's apparent climb plus noise.
        public var drift: Meters
        /// The floor the person is really on (0 is the lobby).
        public var trueFloor: Int
        /// The floor read naively from the barometer's relative altitude.
        public var naiveFloor: Int

        enum CodingKeys: String, CodingKey {
            case duration = "duration_s", drift = "drift_m", trueFloor = "true_floor", naiveFloor = "naive_floor"
        }
    }

    /// The ISA table.
    public var isa: [AtmosphereRow]
    /// The scale height at 15 °C, in metres.
    public var scaleHeight: Meters
    /// The 9 m climb at three assumed temperatures.
    public var temperature: [TemperatureRow]
    /// Wind on the pressure port.
    public var wind: [WindRow]
    /// GPS averaging over 1 minute, 10 minutes and 1 hour.
    public var gpsAveraging: [AveragingRow]
    /// The building visit.
    public var buildingVisit: BuildingVisitSummary

    enum CodingKeys: String, CodingKey {
        case isa, scaleHeight = "scale_height_m", temperature, wind, gpsAveraging = "gps_averaging"
        case buildingVisit = "building_visit"
    }
}

// MARK: - The seed's inputs

extension SeedTables {
    /// Altitudes of the ISA table, in metres.
    public static let atmosphereAltitudes: [Meters] = [0, 1_500, 3_000]
    /// The climb read at the wrong temperature, in metres (three floors).
    public static let climbHeight: Meters = 9
    /// Temperatures assumed for the climb, in °C.
    public static let assumedTemperatures: [Double] = [-10, 15, 35]
    /// Wind speeds of the wind table, in m/s.
    public static let windSpeeds: [Double] = [5, 10, 20]
    /// The seed's GPS altitude error: σ in metres.
    public static let gpsStandardDeviation: Meters = 10
    /// The seed's GPS altitude error: τ in seconds (illustrative).
    public static let gpsCorrelationTime: Seconds = 60
    /// GPS sample interval, in seconds (1 Hz).
    public static let gpsSampleInterval: Seconds = 1
    /// The averaging windows, in seconds: 1 minute, 10 minutes, 1 hour.
    public static let averagingWindows: [Seconds] = [60, 600, 3_600]
    /// Simulated trials per averaging window, as in the seed.
    public static let monteCarloTrials = 2_000
    /// Seed of the one generator that draws every averaging trial, window after window (the seed's choice, 10).
    public static let monteCarloSeed: UInt64 = 10
    /// Seed of the building visit's barometer noise (the seed's choice, 9).
    public static let buildingVisitSeed: UInt64 = 9
    /// Height between floors, in metres, as Core Motion's floor counting assumes.
    public static let floorHeight: Meters = 3

    /// Computes every table from the seed's inputs.
    ///
    /// - Parameters:
    ///   - monteCarloTrials: trials per averaging window; the seed's 2,000 by default.
    ///   - monteCarloSeed: seed of the generator shared by the averaging windows, in order.
    /// - Throws: `AtmosphereError` or `GaussMarkovAveragingError`; neither can happen with the seed's inputs.
    /// - Complexity: dominated by the Monte Carlo, 4,260 × `monteCarloTrials` Gauss-Markov steps.
    public static func compute(
        monteCarloTrials: Int = monteCarloTrials,
        monteCarloSeed: UInt64 = monteCarloSeed
    ) throws -> SeedTables {
        let isa = try atmosphereAltitudes.map { h in
            AtmosphereRow(
                altitude: h, pressure: try StandardAtmosphere.pressure(atAltitude: h),
                metersPerHectopascal: try StandardAtmosphere.metersPerHectopascal(atAltitude: h))
        }

        let ground = try StandardAtmosphere.pressure(atAltitude: 0)
        let top = try StandardAtmosphere.pressure(atAltitude: climbHeight)
        let zeroCelsius: Kelvin = 273.15
        let temperature = try assumedTemperatures.map { celsius in
            TemperatureRow(
                celsius: celsius,
                apparentClimb: try StandardAtmosphere.heightDifference(
                    from: ground, to: top,
                    meanTemperature: zeroCelsius + celsius))
        }

        let wind = try windSpeeds.map { v in
            WindRow(
                speed: v, pressure: StandardAtmosphere.dynamicPressure(windSpeed: v),
                apparentHeight: try StandardAtmosphere.apparentHeight(windSpeed: v))
        }

        let gps = try GaussMarkovAveraging(
            standardDeviation: gpsStandardDeviation, correlationTime: gpsCorrelationTime,
            sampleInterval: gpsSampleInterval)
        var generator = SeededGenerator(seed: monteCarloSeed)
        var averaging: [AveragingRow] = []
        for window in averagingWindows {
            let n = gps.sampleCount(window: window)
            averaging.append(
                AveragingRow(
                    window: window,
                    simulated: try gps.monteCarloMeanStandardDeviation(
                        sampleCount: n, trials: monteCarloTrials,
                        using: &generator),
                    exact: gps.meanStandardDeviation(sampleCount: n),
                    approximation: gps.largeWindowApproximation(window: window),
                    independent: gps.independentSamplesStandardDeviation(sampleCount: n),
                    generalizedLeastSquaresBound: gps.generalizedLeastSquaresStandardDeviation(sampleCount: n)))
        }

        let visit = BuildingVisit.simulate(seed: buildingVisitSeed, floorHeight: floorHeight)
        let summary = BuildingVisitSummary(
            duration: visit.duration, drift: visit.finalDrift,
            trueFloor: Int(((visit.trueHeight.last ?? 0) / floorHeight).rounded()),
            naiveFloor: Int(((visit.relativeAltitude.last ?? 0) / floorHeight).rounded()))

        return SeedTables(
            isa: isa, scaleHeight: try StandardAtmosphere.scaleHeight(), temperature: temperature,
            wind: wind, gpsAveraging: averaging, buildingVisit: summary)
    }
}
