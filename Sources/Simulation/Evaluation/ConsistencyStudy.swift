import Altimetry
import StateEstimation

/// Monte Carlo consistency of the default filter (`AltitudeModelParameters()`, every extension on) told the true
/// receiver and weather rate: recordings generated from the model's own assumptions, scored by coverage and NEES.
///
/// A case is a receiver (a Gauss-Markov error of spread σ_e and correlation time τ plus 1 m of white noise, no
/// reported accuracy), a weather rate q_b (a random walk of the sea-level pressure, hPa²/s), a profile and an
/// effect. Without an effect the recording holds to the model's assumptions: standard air, the weather a random walk
/// at q_b, the receiver the filter is told, so an honest filter covers its error about 68 % of the time with a mean
/// (error/σ)² near 1. The effects put in what the model's extensions exist for (a column 20 K hot or cold, a 4 hPa
/// front over an hour, a 30 hPa barometer step with a 50 m GPS jump); there the coverage should stay near 68 %.
///
/// Each recording lasts ten correlation times and at least two hours, so that the receiver's error is sampled, and
/// is scored from 600 s on, after the prior's first fixes.
public enum ConsistencyStudy {
    /// How the true altitude moves.
    public enum Profile: String, Sendable, CaseIterable {
        /// A station at 300 m.
        case still
        /// A walk up and down 300 m at 0.10 and 0.15 m/s, between rests.
        case walk
        /// A climb of 1,500 m at 0.3 m/s and back at 0.5 m/s, with rests.
        case climb
        /// A drive up and down 2,000 m at 3 m/s, with stops.
        case drive

        var segments: [ProfileSegment] {
            switch self {
            case .still: return []
            case .walk:
                return [
                    .stand(seconds: 600), .move(meters: 300, verticalSpeed: 0.1), .stand(seconds: 600),
                    .move(meters: -300, verticalSpeed: 0.15),
                ]
            case .climb:
                return [
                    .stand(seconds: 600), .move(meters: 1_500, verticalSpeed: 0.3), .stand(seconds: 900),
                    .move(meters: -1_500, verticalSpeed: 0.5),
                ]
            case .drive:
                return [
                    .stand(seconds: 600), .move(meters: 2_000, verticalSpeed: 3), .stand(seconds: 1_200),
                    .move(meters: -2_000, verticalSpeed: 3),
                ]
            }
        }
    }

    /// What the recording adds to the model's assumptions.
    public enum Effect: String, Sendable, CaseIterable {
        /// Nothing: the model's own assumptions.
        case none
        /// A column 20 K warmer or colder than standard, its lapse the standard one.
        case hot, cold
        /// A front: the pressure falls 4 hPa over an hour, from a third of the way in.
        case front
        /// A 30 hPa barometer step at a third of the way in, and a 50 m GPS jump for 2 minutes at two thirds.
        case faults
    }

    /// One case of the grid.
    public struct Case: Sendable, Equatable {
        /// σ_e, the receiver's correlated spread, in metres.
        public var spread: Meters
        /// τ, its correlation time, in seconds.
        public var correlationTime: Seconds
        /// q_b, the weather's random-walk rate, in hPa²/s.
        public var weatherRate: Double
        /// How the true altitude moves.
        public var profile: Profile
        /// What the recording adds to the model's assumptions.
        public var effect: Effect

        /// A case of the receiver σ_e (m) and τ (s), the weather rate q_b (hPa²/s), the profile and the effect.
        public init(spread: Meters, correlationTime: Seconds, weatherRate: Double, profile: Profile, effect: Effect) {
            self.spread = spread
            self.correlationTime = correlationTime
            self.weatherRate = weatherRate
            self.profile = profile
            self.effect = effect
        }

        /// The recording's length: ten correlation times, at least 2 h.
        public var duration: Seconds { max(7_200, 10 * correlationTime) }
    }

    /// The grid's receivers: spreads 2 to 30 m, correlation times 30 s to an hour.
    public static let receivers: [(spread: Meters, correlationTime: Seconds)] = [
        (2, 30), (10, 30), (10, 300), (30, 300), (10, 3_600), (30, 3_600),
    ]
    /// The grid's weather rates: the model's default (1 hPa²/h) and a quarter of it.
    public static let weatherRates: [Double] = [1.0 / 3_600, 0.25 / 3_600]

    /// Every case of the grid with `effect`.
    public static func grid(effect: Effect) -> [Case] {
        receivers.flatMap { r in
            weatherRates.flatMap { q in
                Profile.allCases.map {
                    Case(
                        spread: r.spread, correlationTime: r.correlationTime, weatherRate: q, profile: $0,
                        effect: effect)
                }
            }
        }
    }

    /// The recording of `c` drawn from `seed`.
    public static func scenario(_ c: Case, seed: UInt64) -> Scenario {
        let third = c.duration / 3
        var weather = WeatherModel(initialOffset: 0, randomWalkVariance: c.weatherRate)
        var air = AirColumn.standard
        var barometer = BarometerModel()
        var gps = GPSModel(
            correlatedErrorStandardDeviation: c.spread, correlationTime: c.correlationTime,
            whiteNoiseStandardDeviation: 1)
        switch c.effect {
        case .none: break
        case .hot: air = AirColumn(temperatureOffset: 20)
        case .cold: air = AirColumn(temperatureOffset: -20)
        case .front: weather.fronts = [PressureFront(start: third, duration: 3_600, change: -4)]
        case .faults:
            barometer.faults = [.step(start: third, change: 30)]
            gps.faults = [.jump(start: 2 * third, duration: 120, change: 50)]
        }
        return Scenario(
            name: "consistency", seed: seed, duration: c.duration,
            profile: AltitudeProfile(startAltitude: 300, segments: c.profile.segments), weather: weather, air: air,
            barometer: barometer, gps: gps)
    }

    /// The default parameters told the case's true receiver and weather rate.
    public static func parameters(for c: Case) -> AltitudeModelParameters {
        var p = AltitudeModelParameters()
        p.gpsErrorStandardDeviation = c.spread
        p.gpsCorrelationTime = c.correlationTime
        p.gpsWhiteNoiseStandardDeviation = 1
        p.weatherNoiseDensity = c.weatherRate
        return p
    }

    /// The altitude's score over `seeds` of `c`, from 600 s on.
    ///
    /// - Throws: `AltitudeModelError` when the filter refuses a reading.
    public static func score(_ c: Case, seeds: ClosedRange<UInt64>) throws(AltitudeModelError) -> EstimatorScore {
        var score = EstimatorScore()
        for seed in seeds {
            let recording: SimulatedRecording
            do { recording = try scenario(c, seed: seed).simulate() } catch {
                throw .invalidParameter(name: "scenario", value: Double(seed), expected: "\(error)")
            }
            var filter = try AltitudeFilter(parameters: parameters(for: c))
            for r in recording.readings {
                let e = try filter.process(
                    AltitudeReading(time: r.time, pressure: r.pressure, gpsAltitude: r.gpsAltitude))
                if r.time >= 600 { score.add(error: e.altitude - r.trueAltitude, sigma: e.altitudeStandardDeviation) }
            }
        }
        return score
    }
}
