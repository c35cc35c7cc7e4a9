/// Every tunable number of the altitude model, each with its unit and where its value comes from.
///
/// Noise densities are per second: a random walk with density q gains variance q Δt over a step Δt.
/// `Codable` with snake_case keys, so a JSON parameters file (`altimetry fuse --params FILE`) can set any subset.
///
/// The receiver's numbers (`gpsErrorStandardDeviation`, `gpsCorrelationTime`, `gpsWhiteNoiseStandardDeviation`,
/// `gpsVerticalAccuracyScale`) are the receiver the filter assumes when `learnsReceiver` is off, and the receiver it
/// starts from when it is on (`ReceiverLearner`). The fault thresholds are in `FaultThresholds`.
public struct AltitudeModelParameters: Sendable, Equatable, Codable {
    /// Process noise density of the altitude random walk of a moving device, q_h, in m²/s: the density at and
    /// above the vertical speed `altitudeNoiseSpeed`, and the whole density without the barometric velocity (the
    /// plain model).
    ///
    /// 10 m²/s lets a walker climb or a lift move without the filter booking the change as weather: a change of
    /// pace of 1 m/s² over the velocity's 10 s time constant leaves √(q Δt) ≈ 3 m a second unexplained.
    public var altitudeNoiseDensity: Double = 10
    /// v_m, the vertical speed at and above which the altitude walk has its full density q_h, in m/s: a lift's or
    /// a paraglider's, not a hiker's. Below it the density follows the barometer's smoothed vertical speed v,
    ///
    ///     q(v) = q_r + (q_h − q_r) min(1, (v / v_m)²),
    ///
    /// from the rest density q_r of what the barometer cannot see (`MotionState`): the walk stands for the motion
    /// the velocity input misses, which grows with the motion (a walker at 0.3 m/s: 0.9 m²/s, a pace change of
    /// 0.3 m/s a second).
    public var altitudeNoiseSpeed: Double = 1
    /// Process noise density of the weather's sea-level-pressure random walk, q_b, in hPa²/s.
    ///
    /// 1/3600 hPa²/s is 1 hPa of spread per hour, the scale of ordinary weather (the seed's 1 hPa/h drift).
    public var weatherNoiseDensity: Double = 1.0 / 3_600
    /// Process noise density of the weather tendency (the rate of change of sea-level pressure), in (hPa/h)² per
    /// hour; zero turns the tendency state off.
    ///
    /// With the tendency's correlation time of 3 h, 2/3 (hPa/h)²/h gives a stationary spread of √(q τ / 2) =
    /// 1 hPa/h: the three-hour tendencies of synoptic reports, rarely beyond 3 hPa in 3 h on ordinary days.
    public var weatherTendencyNoiseDensity: Double = 2.0 / 3
    /// Correlation time of the weather tendency, τ in seconds: the tendency returns to zero as exp(−t/τ) (a
    /// first-order Gauss-Markov rate); zero makes it a random walk. 3 h, the synoptic scale over which a pressure
    /// tendency persists (the synoptic code reports it over three hours): a front's or a day's steady fall lasts
    /// hours, and a tendency forgotten within the half hour would leave its hours to the GPS and the column.
    public var weatherTendencyCorrelationTime: Double = 3 * 3_600
    /// Time constant of the barometric vertical velocity, in seconds; zero turns it off.
    ///
    /// While a device moves, the filter moves the altitude by v dt at each prediction, with v the barometer's rate
    /// of change smoothed over this time constant (a known input: see `MotionState`), so that the GPS fixes and the
    /// pressures, which arrive at different instants, see the same climb.
    public var barometricVelocityTime: Double = 10
    /// Stationary standard deviation of the GPS altitude's correlated error, σ_e, in metres (the seed's 10 m).
    public var gpsErrorStandardDeviation: Double = 10
    /// Correlation time of the GPS altitude's Gauss-Markov error, τ, in seconds.
    public var gpsCorrelationTime: Double = 60
    /// Standard deviation of the GPS altitude's white noise, σ_g, in metres.
    public var gpsWhiteNoiseStandardDeviation: Double = 1
    /// Standard deviation of the barometer's white noise, σ_p, in hPa (0.012 hPa is about 0.1 m, the seed's
    /// figure): the prior of the online estimate (`BarometerNoise`), which the readings' own scatter replaces, or
    /// the noise itself with `learnsBarometerNoise` off.
    public var barometerNoiseStandardDeviation: Double = 0.012
    /// Whether the barometer's noise is learned from its readings (`BarometerNoise`); off, it is σ_p.
    public var learnsBarometerNoise: Bool = true
    /// Prior standard deviation of the weather offset b of sea-level pressure, in hPa.
    public var weatherPriorStandardDeviation: Double = 10
    /// Prior standard deviation of the weather tendency, in hPa per hour: its stationary spread.
    public var weatherTendencyPriorStandardDeviation: Double = 1
    /// Prior standard deviation of the first altitude around the standard-atmosphere altitude of the first
    /// pressure, in metres: 83 m (10 hPa of unknown weather) combined with 10 m.
    public var altitudePriorStandardDeviation: Double = (83.0 * 83 + 10 * 10).squareRoot()
    /// Gate on every innovation, in standard deviations: the test ratio ν²/(g² S) of PX4's EKF2, whose height
    /// sources' gates default to 5; nil disables gating (and the fault handling that rests on it).
    public var gateStandardDeviations: Double? = 5
    /// Whether to report weather fronts (`FrontDetector`): a change of the estimated QNH faster than ordinary
    /// weather. A report only: the model is the same with it off.
    public var detectsFronts: Bool = true
    /// Scale k on the receiver's reported vertical accuracy a: a fix is taken to have an error of spread k a.
    public var gpsVerticalAccuracyScale: Double = 1
    /// Whether the filter learns the receiver while it fuses (`ReceiverLearner`); off, the receiver is the one the
    /// parameters describe. On in `adaptive`, the model of a receiver nobody has identified, which the command line
    /// and `fused(with:)` use unless told otherwise.
    public var learnsReceiver: Bool = false
    /// Whether the model carries the air column's temperature offset C from the standard atmosphere as a state
    /// (see `AltitudeModel`); off, the column is the standard atmosphere and a temperature reading is ignored.
    public var estimatesColumnTemperature: Bool = true
    /// Prior and stationary standard deviation of the column's temperature offset C, σ_C in kelvin: climatology.
    ///
    /// 10 K: the lower troposphere's mean temperature departs from the standard atmosphere's by up to about 20 K in
    /// ordinary seasons and latitudes, so ±20 K is two sigmas.
    public var columnTemperaturePriorStandardDeviation: Double = 10
    /// Correlation time of the column's temperature offset C, τ_C in seconds: 20 days, from the interdiurnal
    /// variability of the lower troposphere's mean temperature (about 3 K a day in the middle latitudes at 850 hPa:
    /// √(2 σ_C² (1 − exp(−1 d/τ_C))) = 3 K for τ_C ≈ 22 days).
    public var columnTemperatureCorrelationTime: Double = 20 * 86_400
    /// The spread of the column's lapse rate about the standard 6.5 K/km, σ_Γ in K/m: 1 K/km, the spread of the
    /// environmental lapse rates of radiosonde climatologies in the lowest kilometres outside inversions. C gains
    /// noise with the height moved (`columnNoiseDensity(atVerticalSpeed:)`); zero keeps it constant with height.
    public var columnLapseRateStandardDeviation: Double = 0.001
    /// Standard deviation of a station temperature as a measurement of the column's temperature at the station,
    /// in kelvin: a thermometer in a phone or a logger reads its own surroundings, and the layer's mean departs from
    /// the station's by half the lapse rate's error times the height moved (1 K over 1 km); 2 K covers both.
    public var columnTemperatureMeasurementStandardDeviation: Double = 2
    /// Seconds between two temperature readings used as measurements of the column: a station temperature's error
    /// as the column's is correlated for hours, so one reading per interval is fused, not every one.
    public var temperatureUpdateInterval: Double = 600
    /// Whether the process noises are scaled to log-pressure coordinates at the current state (altitude, column and
    /// sea-level pressure) rather than at the first altitude and 1013.25 hPa: the plain model's independent
    /// implementations scale them once.
    public var scalesNoiseAtCurrentState: Bool = true
    /// Whether the filter rejects and handles sensor faults (`FaultMonitor`): barometer steps, spikes and stuck
    /// values, GPS runs that the gate refuses, and the reset that prevents a lock-out.
    public var detectsFaults: Bool = true
    /// The fault handling's thresholds (`FaultThresholds`), each with its unit and origin.
    public var faultThresholds = FaultThresholds()

    /// The defaults.
    public init() {}

    /// The defaults with the receiver learned while fusing (`learnsReceiver`): the model for a receiver that no
    /// `altimetry identify` has described.
    public static var adaptive: AltitudeModelParameters {
        var parameters = AltitudeModelParameters()
        parameters.learnsReceiver = true
        return parameters
    }

    /// The bare three-state model: no gate, no tendency, no fronts, no barometric velocity, no column, no faults.
    ///
    /// It exists so the filter can be compared with independent implementations of the same equations.
    public static var plain: AltitudeModelParameters {
        var parameters = AltitudeModelParameters()
        parameters.weatherTendencyNoiseDensity = 0
        parameters.barometricVelocityTime = 0
        parameters.gateStandardDeviations = nil
        parameters.detectsFronts = false
        parameters.estimatesColumnTemperature = false
        parameters.detectsFaults = false
        parameters.learnsBarometerNoise = false
        parameters.scalesNoiseAtCurrentState = false
        return parameters
    }

    /// The receiver these parameters describe (`GPSReceiverModel`).
    public var receiver: GPSReceiverModel {
        get {
            GPSReceiverModel(
                errorStandardDeviation: gpsErrorStandardDeviation, correlationTime: gpsCorrelationTime,
                whiteNoiseStandardDeviation: gpsWhiteNoiseStandardDeviation,
                accuracyScale: gpsVerticalAccuracyScale)
        }
        set {
            gpsErrorStandardDeviation = newValue.errorStandardDeviation
            gpsCorrelationTime = newValue.correlationTime
            gpsWhiteNoiseStandardDeviation = newValue.whiteNoiseStandardDeviation
            gpsVerticalAccuracyScale = newValue.accuracyScale
        }
    }

    /// Whether the model carries the weather-tendency state.
    public var hasTendency: Bool { weatherTendencyNoiseDensity > 0 }

    /// The altitude walk's density q(v) at the barometer's smoothed vertical speed `speed` (m/s), in m²/s, from the
    /// rest density `restDensity` (m²/s): see `altitudeNoiseSpeed`; q_h without the barometric velocity.
    public func altitudeNoiseDensity(atVerticalSpeed speed: Double, restDensity: Double) -> Double {
        guard barometricVelocityTime > 0 else { return altitudeNoiseDensity }
        let r = speed / altitudeNoiseSpeed
        let share = r.isFinite ? min(1, r * r) : 1
        return restDensity + (altitudeNoiseDensity - restDensity) * share
    }

    /// D₀, the height over which a random walk in height matches a lapse-rate error held over it, in metres: a
    /// move of D₀ spreads C by σ_Γ D₀/2 = 1 K, as a lapse error held over it does.
    public static let lapseRateNoiseLength: Meters = 2_000

    /// The column offset's noise density at the barometer's smoothed vertical speed `speed` (m/s), in K²/s:
    /// q_Γ |v| with q_Γ = σ_Γ² D₀/4 (the mean offset from sea level changes by δΓ D/2 over a move of D); zero without
    /// the column state or the barometric velocity.
    public func columnNoiseDensity(atVerticalSpeed speed: Double) -> Double {
        guard estimatesColumnTemperature, barometricVelocityTime > 0, speed.isFinite else { return 0 }
        let sigma = columnLapseRateStandardDeviation
        return sigma * sigma * Self.lapseRateNoiseLength / 4 * abs(speed)
    }

    /// The model's state dimension: 3, plus one for the tendency and one for the column (see `AltitudeModel`).
    var stateCount: Int { 3 + (hasTendency ? 1 : 0) + (estimatesColumnTemperature ? 1 : 0) }

    /// Index of the GPS error e, the model's last state.
    var gpsErrorIndex: Int { stateCount - 1 }

    /// Index of the column's temperature offset C, just before e; nil without it.
    var columnIndex: Int? { estimatesColumnTemperature ? stateCount - 2 : nil }

    enum CodingKeys: String, CodingKey {
        case altitudeNoiseDensity = "altitude_q"
        case altitudeNoiseSpeed = "altitude_q_speed"
        case weatherNoiseDensity = "weather_q"
        case weatherTendencyNoiseDensity = "weather_tendency_q"
        case weatherTendencyCorrelationTime = "weather_tendency_tau"
        case barometricVelocityTime = "baro_velocity_time"
        case gpsErrorStandardDeviation = "gps_sigma"
        case gpsCorrelationTime = "gps_tau"
        case gpsWhiteNoiseStandardDeviation = "gps_white"
        case barometerNoiseStandardDeviation = "baro_sigma"
        case learnsBarometerNoise = "baro_sigma_learned"
        case weatherPriorStandardDeviation = "weather_prior_sigma"
        case weatherTendencyPriorStandardDeviation = "weather_tendency_prior_sigma"
        case altitudePriorStandardDeviation = "altitude_prior_sigma"
        case gateStandardDeviations = "gate_sigmas"
        case detectsFronts = "fronts"
        case gpsVerticalAccuracyScale = "gps_vacc_scale"
        case learnsReceiver = "gps_adapt"
        case estimatesColumnTemperature = "column"
        case columnTemperaturePriorStandardDeviation = "column_temp_prior_sigma"
        case columnTemperatureCorrelationTime = "column_temp_tau"
        case columnLapseRateStandardDeviation = "column_lapse_sigma"
        case columnTemperatureMeasurementStandardDeviation = "column_temp_sigma"
        case temperatureUpdateInterval = "temperature_interval"
        case scalesNoiseAtCurrentState = "noise_at_state"
        case detectsFaults = "faults"
        case faultThresholds = "fault_thresholds"
    }

    /// Decodes any subset of the keys; missing keys keep their defaults. An unknown key is an error naming it, so
    /// that a misspelt or retired parameter is never silently ignored.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, what: "model parameter")
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func value<T: Decodable>(_ key: CodingKeys, _ fallback: T) throws -> T {
            try c.decodeIfPresent(T.self, forKey: key) ?? fallback
        }
        let d = AltitudeModelParameters()
        altitudeNoiseDensity = try value(.altitudeNoiseDensity, d.altitudeNoiseDensity)
        altitudeNoiseSpeed = try value(.altitudeNoiseSpeed, d.altitudeNoiseSpeed)
        weatherNoiseDensity = try value(.weatherNoiseDensity, d.weatherNoiseDensity)
        weatherTendencyNoiseDensity = try value(.weatherTendencyNoiseDensity, d.weatherTendencyNoiseDensity)
        weatherTendencyCorrelationTime = try value(.weatherTendencyCorrelationTime, d.weatherTendencyCorrelationTime)
        barometricVelocityTime = try value(.barometricVelocityTime, d.barometricVelocityTime)
        gpsErrorStandardDeviation = try value(.gpsErrorStandardDeviation, d.gpsErrorStandardDeviation)
        gpsCorrelationTime = try value(.gpsCorrelationTime, d.gpsCorrelationTime)
        gpsWhiteNoiseStandardDeviation = try value(.gpsWhiteNoiseStandardDeviation, d.gpsWhiteNoiseStandardDeviation)
        barometerNoiseStandardDeviation = try value(.barometerNoiseStandardDeviation, d.barometerNoiseStandardDeviation)
        learnsBarometerNoise = try value(.learnsBarometerNoise, d.learnsBarometerNoise)
        weatherPriorStandardDeviation = try value(.weatherPriorStandardDeviation, d.weatherPriorStandardDeviation)
        weatherTendencyPriorStandardDeviation = try value(
            .weatherTendencyPriorStandardDeviation, d.weatherTendencyPriorStandardDeviation)
        altitudePriorStandardDeviation = try value(.altitudePriorStandardDeviation, d.altitudePriorStandardDeviation)
        gateStandardDeviations =
            try c.contains(.gateStandardDeviations)
            ? c.decodeIfPresent(Double.self, forKey: .gateStandardDeviations) : d.gateStandardDeviations
        detectsFronts = try value(.detectsFronts, d.detectsFronts)
        gpsVerticalAccuracyScale = try value(.gpsVerticalAccuracyScale, d.gpsVerticalAccuracyScale)
        learnsReceiver = try value(.learnsReceiver, d.learnsReceiver)
        estimatesColumnTemperature = try value(.estimatesColumnTemperature, d.estimatesColumnTemperature)
        columnTemperaturePriorStandardDeviation = try value(
            .columnTemperaturePriorStandardDeviation, d.columnTemperaturePriorStandardDeviation)
        columnTemperatureCorrelationTime = try value(
            .columnTemperatureCorrelationTime, d.columnTemperatureCorrelationTime)
        columnLapseRateStandardDeviation = try value(
            .columnLapseRateStandardDeviation, d.columnLapseRateStandardDeviation)
        columnTemperatureMeasurementStandardDeviation = try value(
            .columnTemperatureMeasurementStandardDeviation, d.columnTemperatureMeasurementStandardDeviation)
        temperatureUpdateInterval = try value(.temperatureUpdateInterval, d.temperatureUpdateInterval)
        scalesNoiseAtCurrentState = try value(.scalesNoiseAtCurrentState, d.scalesNoiseAtCurrentState)
        detectsFaults = try value(.detectsFaults, d.detectsFaults)
        faultThresholds = try value(.faultThresholds, d.faultThresholds)
    }

    /// Checks every parameter is finite and in its physical range.
    ///
    /// - Throws: `AltitudeModelError.invalidParameter` naming the first offending parameter.
    public func validate() throws(AltitudeModelError) {
        let nonNegative: [(String, Double)] = [
            ("altitude_q", altitudeNoiseDensity),
            ("weather_q", weatherNoiseDensity), ("weather_tendency_q", weatherTendencyNoiseDensity),
            ("baro_velocity_time", barometricVelocityTime), ("weather_tendency_tau", weatherTendencyCorrelationTime),
            ("temperature_interval", temperatureUpdateInterval),
            ("column_lapse_sigma", columnLapseRateStandardDeviation),
        ]
        let positive: [(String, Double)] = [
            ("altitude_q_speed", altitudeNoiseSpeed),
            ("gps_sigma", gpsErrorStandardDeviation), ("gps_tau", gpsCorrelationTime),
            ("gps_white", gpsWhiteNoiseStandardDeviation), ("baro_sigma", barometerNoiseStandardDeviation),
            ("weather_prior_sigma", weatherPriorStandardDeviation),
            ("weather_tendency_prior_sigma", weatherTendencyPriorStandardDeviation),
            ("altitude_prior_sigma", altitudePriorStandardDeviation),
            ("gps_vacc_scale", gpsVerticalAccuracyScale),
            ("column_temp_prior_sigma", columnTemperaturePriorStandardDeviation),
            ("column_temp_tau", columnTemperatureCorrelationTime),
            ("column_temp_sigma", columnTemperatureMeasurementStandardDeviation),
        ]
        for (name, v) in nonNegative where !(v.isFinite && v >= 0) {
            throw .invalidParameter(name: name, value: v, expected: "a finite number >= 0")
        }
        for (name, v) in positive where !(v.isFinite && v > 0) {
            throw .invalidParameter(name: name, value: v, expected: "a finite number > 0")
        }
        if let gate = gateStandardDeviations, !(gate.isFinite && gate > 0) {
            throw .invalidParameter(
                name: "gate_sigmas", value: gate, expected: "a finite number > 0, or null for no gate")
        }
        try faultThresholds.validate()
    }
}
