/// Every tunable number of the altitude model, with the seed's illustrative values as defaults.
///
/// Noise densities are per second: a random walk with density q gains variance q Δt over a step Δt.
/// `Codable` with snake_case keys, so a JSON parameters file (`altimetry fuse --params FILE`) can set any subset.
public struct AltitudeModelParameters: Sendable, Equatable, Codable {
    /// Process noise density of the altitude random walk, q_h, in m²/s: the whole density without the barometric
    /// velocity (the plain model), the density of a device moving at `altitudeNoiseSpeed` or faster with it.
    ///
    /// 10 m²/s lets a walker climb or a lift move without the filter booking the change as weather;
    /// with 1 m²/s about 2 % of every climb was absorbed by the weather state in a reference run (before the
    /// barometric velocity carried the motion).
    public var altitudeNoiseDensity: Double = 10
    /// The altitude random walk's density for a still device, q_s, in m²/s, where the barometric velocity is
    /// tracked (`barometricVelocityTime` > 0): the density follows the barometer's smoothed vertical speed v,
    ///
    ///     q(v) = q_s + (q_h − q_s) min(1, (v / v_m)²),   v_m = `altitudeNoiseSpeed`,
    ///
    /// so that a still device is not modelled as one that may move by √(q_h Δt) between two readings. The walk
    /// stands for motion the velocity input misses; what it misses grows with the motion. With q_h for a still
    /// device the barometer's innovations are dominated by that phantom motion (the innovation's variance is
    /// q_h Δt against the 0.1 m the barometer resolves), and its likelihood then prefers whichever GPS error model
    /// pins the altitude hardest, not the one that predicts the fixes (`Docs/identification.md`, "The phantom
    /// walk"). 1 m²/s is still ten times what a walker's pace changes leave unpredicted over the velocity's 10 s
    /// (a 0.3 m/s change is 0.3 m over a second). Equal to `altitudeNoiseDensity`, the density is constant.
    public var stillAltitudeNoiseDensity: Double = 1
    /// v_m, the vertical speed at and above which the altitude walk has its full density q_h, in m/s (see
    /// `stillAltitudeNoiseDensity`): a lift's or a paraglider's, not a hiker's.
    public var altitudeNoiseSpeed: Double = 1
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
    /// Off in the library's defaults, so that a filter is the single model its parameters describe; on in
    /// `adaptive`, the model of a receiver nobody has identified, which the command line and `fused(with:)` use
    /// unless told otherwise.
    public var adaptsGPSErrorModel: Bool = false
    /// Whether the model carries the air column's temperature offset C from the standard atmosphere as a state
    /// (see `AltitudeModel`); off, the column is the standard atmosphere and a temperature reading is ignored.
    public var estimatesColumnTemperature: Bool = true
    /// Prior and stationary standard deviation of the column's temperature offset C, σ_C in kelvin: climatology.
    ///
    /// 10 K: the lower troposphere's mean temperature departs from the standard atmosphere's by up to about 20 K in
    /// ordinary seasons and latitudes (cold winter highs, hot summer lows), so ±20 K is two sigmas. C is a
    /// first-order Gauss-Markov process that reverts to this climatology (`columnTemperatureCorrelationTime`), so
    /// its spread never grows beyond σ_C however long the column goes unobserved.
    public var columnTemperaturePriorStandardDeviation: Double = 10
    /// Correlation time of the column's temperature offset C, τ_C in seconds: C reverts to zero (the standard
    /// atmosphere, climatology's mean) as exp(−t/τ_C), driven by white noise of density q_C = 2 σ_C²/τ_C.
    ///
    /// 20 days, from the day-to-day variability of the lower troposphere's mean temperature. A departure from the
    /// standard atmosphere is mostly season and latitude (σ_C = 10 K, lasting months), and changes from day to day
    /// by the interdiurnal variability of the air mass, about 3 K (one sigma) in the middle latitudes at 850 hPa.
    /// A Gauss-Markov process with spread σ_C changes over a day by √(2 σ_C² (1 − exp(−1 d/τ_C))), which is 3 K
    /// for τ_C ≈ 22 days; so q_C = 2 σ_C²/τ_C = 0.42 K²/h (0.65 K per square-root hour over the hours of a track:
    /// 1.6 K over 6 h, the size of a sunny day's warming of the boundary layer's mean). Shorter correlation times
    /// with the same σ_C would let the column forget what GPS taught it within the track.
    public var columnTemperatureCorrelationTime: Double = 20 * 86_400
    /// The spread of the column's lapse rate about the standard 6.5 K/km, σ_Γ in K/m: climatology.
    ///
    /// The model's column is the standard atmosphere offset by C at every height, so C is the column's mean offset
    /// between sea level and the station, the one number that sets the station's altitude. A real column's lapse
    /// rate Γ departs from the standard one by δΓ (about 1 K/km, one sigma: 5.5 to 7.5 K/km covers most days away
    /// from inversions), and two things follow, both zero when σ_Γ is zero:
    ///
    /// - The mean offset changes as the device changes height: with T(h) = T_s − Γ h, the offset at h is ΔT − δΓ h
    ///   and the mean offset from sea level C(h) = ΔT − δΓ h/2, so a move of D changes C by δΓ D/2. C therefore
    ///   gains noise with the height moved, as a random walk in height of density q_Γ = σ_Γ² D₀/4 per metre
    ///   (`columnNoiseDensity(atVerticalSpeed:)`), D₀ = 2 km (`lapseRateNoiseLength`): a move of D₀ spreads C by
    ///   σ_Γ D₀/2 = 1 K, as a lapse error held over it does. Over a step, the height the pressure change stood for
    ///   is set by the crossed layer's temperature, and C's change by how that layer departs from the mean: the two
    ///   errors are one, dh = (h₀/T₀) dC. So the noise is C's alone, not the air mass's (`AltitudeModel`): it moves
    ///   the altitude and leaves the pressure.
    /// - The station's temperature is not the mean's: T(h) = T₀ + C − L h misses by δΓ h/2, so the reported
    ///   column temperature's variance gains (σ_Γ h/2)².
    ///
    /// 1 K/km: the environmental lapse rates of radiosonde climatologies spread from about 5 to 8 K/km in the
    /// lowest kilometres outside inversions. Zero keeps the column's offset constant with height.
    public var columnLapseRateStandardDeviation: Double = 0.001
    /// Seconds the barometer must stay within `AltitudeFilter.columnExcitationHeight` of one pressure altitude before
    /// GPS fixes stop teaching the column, where the column's whole uncertainty moves the altitude by less than one
    /// correlated GPS error; zero never stops them (see `AltitudeFilter.holdsColumn(at:)`).
    ///
    /// 600 s, ten correlation times of the default receiver: the fixes at a new level finish measuring the move that
    /// led there (the column's evidence) within that time; later ones, at a still station near sea level, teach it
    /// only their own slow wander, by the 0.1 m a kelvin moves the altitude there.
    public var columnStillTime: Double = 600
    /// Standard deviation of a station temperature as a measurement of the column's temperature at the station,
    /// in kelvin.
    ///
    /// A thermometer in a phone or a logger reads its own surroundings (sun, body heat, a car), and the column's
    /// scale over the layer the user moves through is set by that layer's mean temperature, which departs from
    /// the station's by half the lapse rate's error times the height moved (2 K/km over 1 km: 1 K). 2 K covers both.
    public var columnTemperatureMeasurementStandardDeviation: Double = 2
    /// Seconds between two temperature readings used as measurements of the column.
    ///
    /// A station temperature's error as the column's is correlated for hours, not seconds, so fusing every
    /// reading as an independent one would shrink the column's sigma far below what it knows. One reading per
    /// interval bounds that: with 600 s, 2 K and the column's 0.65 K/√h (`columnTemperatureCorrelationTime`), the
    /// column's sigma settles near 0.7 K.
    public var temperatureUpdateInterval: Double = 600
    /// Whether the process noises are scaled to log-pressure coordinates at the current state (altitude, column
    /// temperature and sea-level pressure) rather than at the first altitude and 1013.25 hPa.
    public var scalesNoiseAtCurrentState: Bool = true
    /// Whether the filter watches for sensor faults and lock-out: barometer steps, spikes and stuck values, GPS
    /// jumps, and runs of refused fixes that agree with each other (see `AltitudeFilter+Faults`).
    public var detectsFaults: Bool = true
    /// Seconds of refused GPS fixes that agree with each other, with none accepted, after which the filter resets
    /// its altitude to them: the rule that prevents a lock-out.
    public var lockoutResetTime: Double = 60
    /// Threshold, in standard deviations, of the consistency test on a young level's accepted fixes: the
    /// exponentially weighted sum of normalised GPS innovations over the last minute, Z = Σ wᵢ νᵢ/√Sᵢ / √(Σ wᵢ²), is
    /// N(0, 1) while the model holds; beyond this the fixes have been one-sided for too long and the filter resets to
    /// them. Also the lock-out's test of a refused run's level against what the correlated GPS error explains
    /// (`SensorFaultMonitor`).
    ///
    /// 4.5: about 7 × 10⁻⁶ per independent minute under the model, a false reset every few thousand hours of track.
    public var consistencyThreshold: Double = 4.5
    /// Unexplained vertical speed, in m/s, above which a barometer innovation is a sensor fault, not motion:
    /// |ν| > this × max(Δt, 1 s) and beyond 10 sigmas.
    ///
    /// 80 m/s: a skydiver falls at up to 60 m/s, and the barometric velocity leaves much less than that
    /// unexplained from one reading to the next; a 30 hPa step is 250 m and more in one reading.
    public var barometerFaultSpeed: Double = 80
    /// Seconds of exactly repeated pressures (and at least 30 readings) after which the barometer is stuck.
    public var barometerStuckTime: Double = 60

    /// The defaults.
    public init() {}

    /// The defaults with the GPS error model learned while fusing (`adaptsGPSErrorModel`): the model for a receiver
    /// with no `altimetry identify` behind it, at about ten times the fixed model's CPU time (Docs/identification.md,
    /// "The default and its cost").
    public static var adaptive: AltitudeModelParameters {
        var parameters = AltitudeModelParameters()
        parameters.adaptsGPSErrorModel = true
        return parameters
    }

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
        parameters.estimatesColumnTemperature = false
        parameters.scalesNoiseAtCurrentState = false
        parameters.detectsFaults = false
        return parameters
    }

    /// Whether the model carries the weather-tendency state: with a quiet tendency noise, or with fronts detected
    /// and a front tendency noise to switch to.
    public var hasTendency: Bool { weatherTendencyNoiseDensity > 0 || (detectsFronts && frontTendencyNoiseDensity > 0) }

    /// The altitude walk's density q(v) at the barometer's smoothed vertical speed `speed` (m/s), in m²/s: see
    /// `stillAltitudeNoiseDensity`; q_h without the barometric velocity.
    public func altitudeNoiseDensity(atVerticalSpeed speed: Double) -> Double {
        guard barometricVelocityTime > 0 else { return altitudeNoiseDensity }
        let r = speed / altitudeNoiseSpeed
        let share = r.isFinite ? min(1, r * r) : 1
        return stillAltitudeNoiseDensity + (altitudeNoiseDensity - stillAltitudeNoiseDensity) * share
    }

    /// D₀, the height over which a random walk in height matches a lapse-rate error held over it, in metres (see
    /// `columnLapseRateStandardDeviation`).
    public static let lapseRateNoiseLength: Meters = 2_000

    /// The column offset's noise density at the barometer's smoothed vertical speed `speed` (m/s), in K²/s:
    /// q_Γ |v| with q_Γ = σ_Γ² D₀/4 (see `columnLapseRateStandardDeviation`); zero without the column state or the
    /// barometric velocity.
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
        case stillAltitudeNoiseDensity = "altitude_q_still"
        case altitudeNoiseSpeed = "altitude_q_speed"
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
        case estimatesColumnTemperature = "column"
        case columnTemperaturePriorStandardDeviation = "column_temp_prior_sigma"
        case columnTemperatureCorrelationTime = "column_temp_tau"
        case columnLapseRateStandardDeviation = "column_lapse_sigma"
        case columnStillTime = "column_still_time"
        case columnTemperatureMeasurementStandardDeviation = "column_temp_sigma"
        case temperatureUpdateInterval = "temperature_interval"
        case scalesNoiseAtCurrentState = "noise_at_state"
        case detectsFaults = "faults"
        case lockoutResetTime = "lockout_time"
        case consistencyThreshold = "consistency_sigmas"
        case barometerFaultSpeed = "baro_fault_speed"
        case barometerStuckTime = "baro_stuck_time"
    }

    /// Decodes any subset of the keys; missing keys keep their defaults.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func value<T: Decodable>(_ key: CodingKeys, _ fallback: T) throws -> T {
            try c.decodeIfPresent(T.self, forKey: key) ?? fallback
        }
        let d = AltitudeModelParameters()
        altitudeNoiseDensity = try value(.altitudeNoiseDensity, d.altitudeNoiseDensity)
        stillAltitudeNoiseDensity = try value(.stillAltitudeNoiseDensity, d.stillAltitudeNoiseDensity)
        altitudeNoiseSpeed = try value(.altitudeNoiseSpeed, d.altitudeNoiseSpeed)
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
        weatherTendencyPriorStandardDeviation = try value(
            .weatherTendencyPriorStandardDeviation, d.weatherTendencyPriorStandardDeviation)
        altitudePriorStandardDeviation = try value(.altitudePriorStandardDeviation, d.altitudePriorStandardDeviation)
        gateStandardDeviations =
            try c.contains(.gateStandardDeviations)
            ? c.decodeIfPresent(Double.self, forKey: .gateStandardDeviations) : d.gateStandardDeviations
        ungatedFirstFixes = try value(.ungatedFirstFixes, d.ungatedFirstFixes)
        detectsFronts = try value(.detectsFronts, d.detectsFronts)
        gpsVerticalAccuracyScale = try value(.gpsVerticalAccuracyScale, d.gpsVerticalAccuracyScale)
        adaptsGPSErrorModel = try value(.adaptsGPSErrorModel, d.adaptsGPSErrorModel)
        estimatesColumnTemperature = try value(.estimatesColumnTemperature, d.estimatesColumnTemperature)
        columnTemperaturePriorStandardDeviation = try value(
            .columnTemperaturePriorStandardDeviation, d.columnTemperaturePriorStandardDeviation)
        columnTemperatureCorrelationTime = try value(
            .columnTemperatureCorrelationTime, d.columnTemperatureCorrelationTime)
        columnLapseRateStandardDeviation = try value(
            .columnLapseRateStandardDeviation, d.columnLapseRateStandardDeviation)
        columnStillTime = try value(.columnStillTime, d.columnStillTime)
        columnTemperatureMeasurementStandardDeviation = try value(
            .columnTemperatureMeasurementStandardDeviation,
            d.columnTemperatureMeasurementStandardDeviation)
        temperatureUpdateInterval = try value(.temperatureUpdateInterval, d.temperatureUpdateInterval)
        scalesNoiseAtCurrentState = try value(.scalesNoiseAtCurrentState, d.scalesNoiseAtCurrentState)
        detectsFaults = try value(.detectsFaults, d.detectsFaults)
        lockoutResetTime = try value(.lockoutResetTime, d.lockoutResetTime)
        consistencyThreshold = try value(.consistencyThreshold, d.consistencyThreshold)
        barometerFaultSpeed = try value(.barometerFaultSpeed, d.barometerFaultSpeed)
        barometerStuckTime = try value(.barometerStuckTime, d.barometerStuckTime)
    }

    /// Checks every parameter is finite and in its physical range.
    ///
    /// - Throws: `AltitudeModelError.invalidParameter` naming the first offending parameter.
    public func validate() throws(AltitudeModelError) {
        let nonNegative: [(String, Double)] = [
            ("altitude_q", altitudeNoiseDensity), ("altitude_q_still", stillAltitudeNoiseDensity),
            ("weather_q", weatherNoiseDensity),
            ("weather_tendency_q", weatherTendencyNoiseDensity), ("front_tendency_q", frontTendencyNoiseDensity),
            ("front_weather_q", frontWeatherNoiseDensity), ("baro_velocity_time", barometricVelocityTime),
            ("weather_tendency_tau", weatherTendencyCorrelationTime),
            ("temperature_interval", temperatureUpdateInterval),
            ("column_lapse_sigma", columnLapseRateStandardDeviation), ("column_still_time", columnStillTime),
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
            ("lockout_time", lockoutResetTime), ("consistency_sigmas", consistencyThreshold),
            ("baro_fault_speed", barometerFaultSpeed), ("baro_stuck_time", barometerStuckTime),
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
        if ungatedFirstFixes < 0 {
            throw .invalidParameter(
                name: "ungated_first_fixes", value: Double(ungatedFirstFixes), expected: "a whole number >= 0")
        }
    }
}
