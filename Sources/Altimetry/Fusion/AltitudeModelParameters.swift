/// Every tunable number of the altitude model, with the seed's illustrative values as defaults.
///
/// Noise densities are per second: a random walk with density q gains variance q Δt over a step Δt.
/// `Codable` with snake_case keys, so a JSON parameters file (`altimetry fuse --params FILE`) can set any subset.
public struct AltitudeModelParameters: Sendable, Equatable, Codable {
    /// Process noise density of the altitude random walk, q_h, in m²/s.
    ///
    /// 10 m²/s lets a walker climb or a lift move without the filter booking the change as weather;
    /// with 1 m²/s about 2 % of every climb was absorbed by the weather state in a reference run.
    public var altitudeNoiseDensity: Double = 10
    /// Process noise density of the weather's sea-level-pressure random walk, q_b, in hPa²/s.
    ///
    /// 1/3600 hPa²/s is 1 hPa of spread per hour, the scale of ordinary weather.
    public var weatherNoiseDensity: Double = 1.0 / 3_600
    /// Process noise density of the weather tendency (the rate of change of sea-level pressure) in quiet
    /// weather, in (hPa/h)² per hour.
    ///
    /// With the tendency's correlation time of 30 min, 4 (hPa/h)²/h gives a stationary spread of
    /// √(q τ / 2) = 1 hPa/h: the three-hour tendencies of ordinary days (rarely beyond 3 hPa) are followed, and
    /// a tendency that is not there is forgotten within the hour instead of weighing on the estimate for the
    /// rest of the track. Fronts get `frontTendencyNoiseDensity` while a sensitive detector sees one. Zero (with
    /// `detectsFronts` off or no front noise) turns the tendency state off.
    public var weatherTendencyNoiseDensity: Double = 4
    /// Process noise density of the weather tendency while a front is under way, in (hPa/h)² per hour: 64 lets
    /// the tendency reach the 5 to 7 hPa/h of a passing front within a quarter of an hour. Used only with
    /// `detectsFronts` and a tendency state.
    public var frontTendencyNoiseDensity: Double = 64
    /// Correlation time of the weather tendency, τ in seconds: the tendency returns to zero as exp(−t/τ) (a
    /// first-order Gauss-Markov rate); zero makes it a random walk.
    ///
    /// 30 min: a pressure tendency lasts hours on a stormy day but the filter need not remember it that long, since
    /// the noise switch re-opens it when the QNH estimate moves; a random-walk tendency (the previous default,
    /// 4 (hPa/h)²/h) cost 0.2 to 0.3 m in every six-hour scenario (hike 4.12 m against 3.84 m, 40 runs).
    public var weatherTendencyCorrelationTime: Double = 1_800
    /// Weather random-walk density while a front is under way, q_b in hPa²/s: ten times the quiet value.
    public var frontWeatherNoiseDensity: Double = 10.0 / 3_600
    /// Time constant of the barometric vertical velocity, in seconds; zero turns it off.
    ///
    /// GPS fixes and pressures arrive at different instants, and a random-walk altitude predicts no motion
    /// between them, so while the user climbs every fix looks a little high and part of the climb is booked
    /// as weather. The filter therefore moves the altitude by v dt at each prediction, with v the barometer's
    /// rate of change smoothed over this time constant (a known input: see `AltitudeFilter`).
    public var barometricVelocityTime: Double = 10
    /// Stationary standard deviation of the GPS altitude's correlated error, σ_e, in metres.
    public var gpsErrorStandardDeviation: Double = 10
    /// Correlation time of the GPS altitude's Gauss-Markov error, τ, in seconds.
    public var gpsCorrelationTime: Double = 60
    /// Standard deviation of the GPS altitude's white noise, σ_g, in metres.
    public var gpsWhiteNoiseStandardDeviation: Double = 1
    /// Standard deviation of the barometer's white noise, σ_p, in hPa (0.012 hPa is about 0.1 m).
    public var barometerNoiseStandardDeviation: Double = 0.012
    /// Prior standard deviation of the weather offset b of sea-level pressure, in hPa.
    public var weatherPriorStandardDeviation: Double = 10
    /// Prior standard deviation of the weather tendency, in hPa per hour.
    ///
    /// 1 hPa/h, the tendency's stationary spread: three-hour pressure tendencies rarely exceed 3 hPa, so at the
    /// start the tendency is most likely within ±1 hPa/h; stronger ones are reached through its noise. A wider
    /// prior costs accuracy on short tracks (building visit: 3.88 m with 3 hPa/h, 3.49 m with 1 hPa/h, 40 trials).
    public var weatherTendencyPriorStandardDeviation: Double = 1
    /// Prior standard deviation of the first altitude around the standard-atmosphere altitude of the first
    /// pressure, in metres: 83 m (10 hPa of unknown weather) combined with 10 m.
    public var altitudePriorStandardDeviation: Double = (83.0 * 83 + 10 * 10).squareRoot()
    /// Gate on the GPS innovation, in standard deviations (a chi-square gate with one degree of freedom);
    /// nil disables gating.
    public var gateStandardDeviations: Double? = 5
    /// Number of first fixes never gated, while the prior is still diffuse.
    public var ungatedFirstFixes: Int = 10
    /// Whether to detect weather fronts from a sustained one-sided barometer-versus-GPS disagreement.
    public var detectsFronts: Bool = true
    /// Scale k on the receiver's reported vertical accuracy a: a fix is taken to have an error of spread k a.
    ///
    /// Receivers' own figures are often optimistic or pessimistic by a constant factor; `altimetry identify`
    /// estimates k where the recording has `gps_vacc_m`. 1 trusts the figure as reported.
    public var gpsVerticalAccuracyScale: Double = 1
    /// Whether the filter learns the GPS error model while it fuses (`GPSErrorModelBank`): a bank of GPS error
    /// models weighted by their innovation likelihoods, instead of the single model `gpsErrorStandardDeviation`,
    /// `gpsCorrelationTime` describe.
    ///
    /// Off in the library's defaults, so that a filter is the single model its parameters describe; the command
    /// line turns it on unless told `--adapt off`.
    public var adaptsGPSErrorModel: Bool = false

    /// The defaults.
    public init() {}

    /// The bare three-state model of the issue: no gate, no tendency, no front handling, no barometric velocity.
    ///
    /// It exists so the filter can be compared with independent implementations of the same equations.
    public static var plain: AltitudeModelParameters {
        var parameters = AltitudeModelParameters()
        parameters.weatherTendencyNoiseDensity = 0
        parameters.frontTendencyNoiseDensity = 0
        parameters.barometricVelocityTime = 0
        parameters.gateStandardDeviations = nil
        parameters.detectsFronts = false
        return parameters
    }

    /// Whether the model carries the weather-tendency state: with a quiet tendency noise, or with fronts detected
    /// and a front tendency noise to switch to.
    public var hasTendency: Bool { weatherTendencyNoiseDensity > 0 || (detectsFronts && frontTendencyNoiseDensity > 0) }

    /// The model's state dimension: 4 with the tendency, 3 without (see `AltitudeModel`).
    var stateCount: Int { hasTendency ? 4 : 3 }

    /// Index of the GPS error e, the model's last state.
    var gpsErrorIndex: Int { stateCount - 1 }

    enum CodingKeys: String, CodingKey {
        case altitudeNoiseDensity = "altitude_q"
        case weatherNoiseDensity = "weather_q"
        case weatherTendencyNoiseDensity = "weather_tendency_q"
        case frontTendencyNoiseDensity = "front_tendency_q"
        case frontWeatherNoiseDensity = "front_weather_q"
        case weatherTendencyCorrelationTime = "weather_tendency_tau"
        case barometricVelocityTime = "baro_velocity_time"
        case gpsErrorStandardDeviation = "gps_sigma"
        case gpsCorrelationTime = "gps_tau"
        case gpsWhiteNoiseStandardDeviation = "gps_white"
        case barometerNoiseStandardDeviation = "baro_sigma"
        case weatherPriorStandardDeviation = "weather_prior_sigma"
        case weatherTendencyPriorStandardDeviation = "weather_tendency_prior_sigma"
        case altitudePriorStandardDeviation = "altitude_prior_sigma"
        case gateStandardDeviations = "gate_sigmas"
        case ungatedFirstFixes = "ungated_first_fixes"
        case detectsFronts = "fronts"
        case gpsVerticalAccuracyScale = "gps_vacc_scale"
        case adaptsGPSErrorModel = "gps_adapt"
    }

    /// Decodes any subset of the keys; missing keys keep their defaults.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func value<T: Decodable>(_ key: CodingKeys, _ fallback: T) throws -> T {
            try c.decodeIfPresent(T.self, forKey: key) ?? fallback
        }
        let d = AltitudeModelParameters()
        altitudeNoiseDensity = try value(.altitudeNoiseDensity, d.altitudeNoiseDensity)
        weatherNoiseDensity = try value(.weatherNoiseDensity, d.weatherNoiseDensity)
        weatherTendencyNoiseDensity = try value(.weatherTendencyNoiseDensity, d.weatherTendencyNoiseDensity)
        frontTendencyNoiseDensity = try value(.frontTendencyNoiseDensity, d.frontTendencyNoiseDensity)
        frontWeatherNoiseDensity = try value(.frontWeatherNoiseDensity, d.frontWeatherNoiseDensity)
        weatherTendencyCorrelationTime = try value(.weatherTendencyCorrelationTime, d.weatherTendencyCorrelationTime)
        barometricVelocityTime = try value(.barometricVelocityTime, d.barometricVelocityTime)
        gpsErrorStandardDeviation = try value(.gpsErrorStandardDeviation, d.gpsErrorStandardDeviation)
        gpsCorrelationTime = try value(.gpsCorrelationTime, d.gpsCorrelationTime)
        gpsWhiteNoiseStandardDeviation = try value(.gpsWhiteNoiseStandardDeviation, d.gpsWhiteNoiseStandardDeviation)
        barometerNoiseStandardDeviation = try value(.barometerNoiseStandardDeviation, d.barometerNoiseStandardDeviation)
        weatherPriorStandardDeviation = try value(.weatherPriorStandardDeviation, d.weatherPriorStandardDeviation)
        weatherTendencyPriorStandardDeviation = try value(.weatherTendencyPriorStandardDeviation, d.weatherTendencyPriorStandardDeviation)
        altitudePriorStandardDeviation = try value(.altitudePriorStandardDeviation, d.altitudePriorStandardDeviation)
        gateStandardDeviations = try c.contains(.gateStandardDeviations)
            ? c.decodeIfPresent(Double.self, forKey: .gateStandardDeviations) : d.gateStandardDeviations
        ungatedFirstFixes = try value(.ungatedFirstFixes, d.ungatedFirstFixes)
        detectsFronts = try value(.detectsFronts, d.detectsFronts)
        gpsVerticalAccuracyScale = try value(.gpsVerticalAccuracyScale, d.gpsVerticalAccuracyScale)
        adaptsGPSErrorModel = try value(.adaptsGPSErrorModel, d.adaptsGPSErrorModel)
    }

    /// Checks every parameter is finite and in its physical range.
    ///
    /// - Throws: `AltitudeModelError.invalidParameter` naming the first offending parameter.
    public func validate() throws(AltitudeModelError) {
        let nonNegative: [(String, Double)] = [
            ("altitude_q", altitudeNoiseDensity), ("weather_q", weatherNoiseDensity),
            ("weather_tendency_q", weatherTendencyNoiseDensity), ("front_tendency_q", frontTendencyNoiseDensity),
            ("front_weather_q", frontWeatherNoiseDensity), ("baro_velocity_time", barometricVelocityTime),
            ("weather_tendency_tau", weatherTendencyCorrelationTime),
        ]
        let positive: [(String, Double)] = [
            ("gps_sigma", gpsErrorStandardDeviation), ("gps_tau", gpsCorrelationTime),
            ("gps_white", gpsWhiteNoiseStandardDeviation), ("baro_sigma", barometerNoiseStandardDeviation),
            ("weather_prior_sigma", weatherPriorStandardDeviation),
            ("weather_tendency_prior_sigma", weatherTendencyPriorStandardDeviation),
            ("altitude_prior_sigma", altitudePriorStandardDeviation),
            ("gps_vacc_scale", gpsVerticalAccuracyScale),
        ]
        for (name, v) in nonNegative where !(v.isFinite && v >= 0) {
            throw .invalidParameter(name: name, value: v, expected: "a finite number >= 0")
        }
        for (name, v) in positive where !(v.isFinite && v > 0) {
            throw .invalidParameter(name: name, value: v, expected: "a finite number > 0")
        }
        if let gate = gateStandardDeviations, !(gate.isFinite && gate > 0) {
            throw .invalidParameter(name: "gate_sigmas", value: gate, expected: "a finite number > 0, or null for no gate")
        }
        if ungatedFirstFixes < 0 {
            throw .invalidParameter(name: "ungated_first_fixes", value: Double(ungatedFirstFixes), expected: "a whole number >= 0")
        }
    }
}
