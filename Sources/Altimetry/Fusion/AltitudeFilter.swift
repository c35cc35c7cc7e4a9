import Foundation
import LinearAlgebra
import StateEstimation

/// Absolute altitude from a barometer and GPS, one reading at a time, with an honest one sigma.
///
/// Wraps the generic `KalmanFilter` with the `AltitudeModel`. For each reading it predicts to the reading's
/// time (moving the altitude by the barometer's smoothed vertical velocity, a known input), updates with the
/// pressure (linear in log-pressure coordinates), then with the GPS fix (gated after the first
/// `ungatedFirstFixes`), and reports an `AltitudeEstimate`. Every 10 s two `FrontDetector`s read the QNH
/// estimate: one reports fronts, the other, more sensitive, switches the weather noise to its front values
/// while it sees one (`adaptWeatherNoise()`).
///
/// Initialisation, from the first reading: with a pressure, U from the standard-atmosphere altitude of that
/// pressure; without one, from the GPS altitude. Either way P_UU = `altitudePriorStandardDeviation`² (84 m: 10 hPa
/// of unknown weather is 83 m), B = 0 ± `weatherPriorStandardDeviation` hPa, Ḃ = 0 ± the tendency prior,
/// e = 0 ± σ_e, no cross-covariance. The first reading is then applied as an ordinary update. With the column
/// state, a filter that started from GPS alone starts over at its first pressure, so that the split of the first
/// barometer-to-GPS difference between the weather and the column is made with the pressure at hand (`start`).
///
/// GPS fixes that report a vertical accuracy a (one sigma) are trusted accordingly: the model keeps its
/// correlated error e of spread σ_e and attributes the rest of the reported variance to white noise,
/// R = max(σ_g², a² − σ_e²). A fix claiming 5 m is used as a nominal one; a fix claiming 40 m is weighted about
/// 1/1500 of a nominal one, since its white part alone is 38.7 m.
///
/// The air column: every barometric height difference scales with the column's temperature (7 % at 20 K from
/// standard). The model carries the column's temperature offset C as a state (`AltitudeModel`), learned by GPS
/// over altitude changes; where a reading carries the station's air temperature, one reading every
/// `temperatureUpdateInterval` is fused as a measurement of the column's temperature at the station, with the
/// error `columnTemperatureMeasurementStandardDeviation` that a station temperature has as the column's.
///
/// Faults and lock-out: `SensorFaultMonitor` watches every pressure and fix; the filter re-anchors a barometer
/// that stepped, ignores one that is stuck, holds off a GPS that jumped, and resets its altitude to a run of
/// refused fixes that agree with each other, so that it can never lock itself out (Docs/model.md). Each episode
/// is reported (`episodes`, and the estimate's `status`).
public struct AltitudeFilter: Sendable {
    /// The model's parameters.
    public internal(set) var parameters: AltitudeModelParameters
    /// The engine, nil until the first reading.
    public var engine: KalmanFilter<AltitudeModel>? { isStarted ? core : nil }
    /// The engine's storage, the filter's engine once `isStarted` (the first reading sets both); before that an
    /// engine at a unit prior that no reading reaches. Stored without an optional so that a row's dozen reads and
    /// writes of it go straight to the value: through an optional, each tested the tag in an outlined call and each
    /// read of x or P copied the matrix out (a retain and a release).
    var core: KalmanFilter<AltitudeModel>
    /// Whether the first reading has started the engine (`core`).
    var isStarted = false
    /// The exponentials of the state a row asks for more than once.
    var exponentials = StateExponentials()
    /// Fronts detected so far (see `FrontDetector`).
    public var fronts: [WeatherFront] { gpsModelBank?.fronts ?? frontDetector?.fronts ?? [] }
    /// Number of GPS fixes seen so far, used or gated.
    public internal(set) var fixCount = 0
    /// Number of GPS fixes gated so far.
    public internal(set) var gatedFixCount = 0
    /// Pressure altitude of the first pressure reading at standard QNH, in metres (relative altitude's origin).
    public internal(set) var firstPressureAltitude: Meters?

    var frontDetector: FrontDetector?
    /// The bank of GPS error models that replaces the single model when `adaptsGPSErrorModel` is on
    /// (`AltitudeFilter+Adaptation.swift`); the filter's own engine then stays unused.
    var gpsModelBank: GPSErrorModelBank?
    /// The sensitive detector that switches the weather noise to its front values (see `adaptWeatherNoise()`).
    var noiseDetector: FrontDetector?
    /// Whether the weather noise's regime is set from outside rather than by `noiseDetector`: a member of a
    /// `GPSErrorModelBank`, whose hypotheses share one atmosphere (`GPSErrorModelBank.shareWeatherRegime()`).
    var followsSharedWeatherRegime = false
    /// The barometer's smoothed vertical velocity, dU/dt in m/s, and the last barometer measurement (s, m).
    var barometricVelocity = 0.0
    var lastBarometer: (time: Double, measurement: Double)?
    let recordsRun: Bool
    var gate: Gate
    var lastPressureAltitude: Meters?
    /// Whether the filter started from GPS alone with the column state, and starts over at its first pressure.
    var awaitsFirstPressure = false
    /// The time of the last temperature fused, in seconds.
    var lastTemperatureTime: Double?
    /// The barometer's re-anchored offset, in metres of log-pressure: the sum of the steps it made.
    var barometerOffset: Meters = 0
    /// The fault monitor; nil when `detectsFaults` is off.
    var faults: SensorFaultMonitor?
    /// The weather the front detectors watch, with the column state; nil until their first look.
    var detectorWeather: DetectorWeather?

    /// The weather at the station that the front detectors watch when the model has the column state, in metres of
    /// log-pressure, with the (B, C) it was last updated from.
    ///
    /// Neither the model's QNH B nor the standard altimeter setting B′ = B + g C (g = h₀/(T₀ k dh₀/dU)) is weather
    /// alone: learning the column at a still station moves B by −g dC, and climbing through a column that is not
    /// standard moves B′ by C dg (12 hPa over a 1,500 m climb at 20 K from standard), which the detectors took for
    /// fronts and answered with front noise that then hid the column from GPS. W starts at B′ and moves by
    /// dW = dB + g dC between looks, g at the current state: zero for either of those, dB for weather.
    public struct DetectorWeather: Sendable, Equatable, Codable {
        /// W, in metres of log-pressure (as B).
        public var value: Double
        /// B at the last look, in metres of log-pressure.
        public var weather: Double
        /// C at the last look, in kelvin.
        public var column: Double
    }

    /// A filter with the given parameters.
    ///
    /// - Parameters:
    ///   - parameters: every tunable number of the model (noise densities, the GPS error model, gating, the
    ///     optional states), in the units `AltitudeModelParameters` gives; validated before anything else.
    ///   - recordsRun: keep every epoch for the smoother (memory grows with the track).
    /// - Throws: `AltitudeModelError.invalidParameter`.
    public init(parameters: AltitudeModelParameters = AltitudeModelParameters(), recordsRun: Bool = false)
        throws(AltitudeModelError)
    {
        try parameters.validate()
        self.parameters = parameters
        self.recordsRun = recordsRun
        if let sigmas = parameters.gateStandardDeviations {
            do { gate = try Gate.mahalanobis(sigmas) } catch {
                throw .invalidParameter(name: "gate_sigmas", value: sigmas, expected: "a positive number")
            }
        } else {
            gate = .off
        }
        if parameters.adaptsGPSErrorModel {
            gpsModelBank = try GPSErrorModelBank(parameters: parameters, recordsRun: recordsRun)
        }
        if parameters.detectsFaults { faults = SensorFaultMonitor(parameters: parameters) }
        let n = parameters.stateCount
        do {
            core = try KalmanFilter(
                model: AltitudeModel(parameters: parameters, startAltitude: 0), time: 0,
                mean: [Double](repeating: 0, count: n), covariance: .identity(n))
        } catch {
            throw .numerical(String(describing: error))
        }
        if parameters.detectsFronts {
            frontDetector = FrontDetector(weatherNoiseDensity: parameters.weatherNoiseDensity)
            noiseDetector = .noiseAdaptation(weatherNoiseDensity: parameters.weatherNoiseDensity)
        }
    }

    /// Processes one reading and returns the estimate after it.
    ///
    /// - Throws: `AltitudeModelError.invalidReading`, `.emptyReading` or `.timeWentBackwards`, after which the
    ///   filter is unchanged; or `.numerical` if the engine fails (a covariance that lost positive definiteness),
    ///   after which the filter may have moved to the reading's time and should be restored from a checkpoint.
    public mutating func process(_ reading: AltitudeReading) throws(AltitudeModelError) -> AltitudeEstimate {
        // Case patterns, not `!= nil`, which copies the optional (a bank, an engine: every buffer retained) per row.
        if case .some = gpsModelBank { return try processAdaptively(reading) }
        try reading.validate()
        if isStarted, reading.time < core.time {
            throw .timeWentBackwards(previous: core.time, current: reading.time)
        }
        try checkStart(reading)
        // Validation above is complete, and the engine checks its own inputs before changing anything, so the
        // only failure left is numerical; working on `self` directly avoids copying the covariance every row.
        try apply(reading)
        return estimate(barometer: lastBarometerRecord, gps: lastGPSRecord)
    }

    /// Since when the barometer has stayed still (`holdsColumn(at:)`), in seconds, and the pressure altitude it is
    /// held against, in metres, with the time it was taken; nil before the first fix after a pressure.
    var stillSince: (time: Double, altitude: Double, anchorTime: Double)?
    private var lastBarometerRecord: ScalarUpdateRecord?
    private var lastGPSRecord: ScalarUpdateRecord?

    private mutating func apply(_ reading: AltitudeReading) throws(AltitudeModelError) {
        lastBarometerRecord = nil
        lastGPSRecord = nil
        faults?.beginReading()
        if !isStarted {
            try start(at: reading)
        } else if awaitsFirstPressure, reading.pressure != nil {
            // Started from GPS alone, with the column state: start over at the first pressure (see `start`).
            try start(at: reading, restarting: true)
        }
        let errorIndex = parameters.gpsErrorIndex
        let columnIndex = parameters.columnIndex
        do {
            if parameters.scalesNoiseAtCurrentState { try scaleNoiseAtCurrentState() }
            try predict(to: reading.time)
            if let p = reading.pressure {
                // The barometer's measurement less its re-anchored offset (zero unless the sensor stepped).
                let z = LogPressureCoordinates.barometerMeasurement(pressure: p) - barometerOffset
                let sigma = LogPressureCoordinates.scaleHeight * parameters.barometerNoiseStandardDeviation / p
                if try screenBarometer(pressure: p, measurement: z, variance: sigma * sigma, time: reading.time) {
                    lastBarometerRecord = try core.update(
                        z, kind: AltitudeSensor(.barometer, gpsErrorIndex: errorIndex),
                        variance: sigma * sigma)
                    faults?.fusedPressure(at: reading.time)
                    trackBarometricVelocity(time: reading.time, measurement: z)
                    try setMotionNoise(atVerticalSpeed: barometricVelocity)
                    // Pressure altitude at standard QNH, T₀/L (1 − (p/1013.25)^(1/n)), from the logarithm already
                    // taken: (p/1013.25)^(1/n) = exp(z L/T₀) for z = H₀ ln(p/1013.25), so no pow per row.
                    let T = LogPressureCoordinates.temperatureHeight
                    let pa = -T * expm1(z / T)
                    if firstPressureAltitude == nil { firstPressureAltitude = pa }
                    lastPressureAltitude = pa
                }
            }
            if let temperature = reading.temperature, let c = columnIndex,
                reading.time >= (lastTemperatureTime ?? -.infinity) + parameters.temperatureUpdateInterval
            {
                // The station's temperature as a measurement of the column's at the station (AltitudeSensor),
                // linearised at a mean inside the model's range (`holdStateInModelRange`).
                try holdStateInModelRange()
                let sigma = parameters.columnTemperatureMeasurementStandardDeviation
                try core.update(
                    temperature, kind: AltitudeSensor(.temperature, gpsErrorIndex: errorIndex, columnIndex: c),
                    variance: sigma * sigma)
                lastTemperatureTime = reading.time
            }
            if let fix = reading.gpsAltitude {
                // h = k h₀(U) linearised at a mean inside the model's range, which the updates above may have left.
                try holdStateInModelRange()
                // The fix less the GPS datum's re-anchored offset (zero unless the receiver jumped).
                let z = fix - gpsAnchor
                fixCount += 1
                let white = parameters.gpsWhiteNoiseStandardDeviation
                var variance = white * white
                if let reported = reading.gpsVerticalAccuracy {
                    let a = reported * parameters.gpsVerticalAccuracyScale
                    let sigmaE = parameters.gpsErrorStandardDeviation
                    variance = max(variance, a * a - sigmaE * sigmaE)
                }
                let kind = AltitudeSensor(.gps, gpsErrorIndex: errorIndex, columnIndex: columnIndex)
                let isGated = fixCount > parameters.ungatedFirstFixes
                // A wild fix among the first ones re-levels the filter (its record, the fix against the level
                // before, is what the fix's update reports).
                let wild =
                    isGated ? nil : try relevelAtWildStartFix(z, kind: kind, variance: variance, at: reading.time)
                let priorGPSError = core.mean[errorIndex, 0]
                let record = try core.update(
                    z, kind: kind, variance: variance, gate: isGated ? gate : .off,
                    held: holdsColumn(at: reading.time) ? columnIndex : nil)
                if !record.decision.wasApplied { gatedFixCount += 1 }
                try monitorFix(record, fix: z, priorGPSError: priorGPSError)
                lastGPSRecord = wild ?? record
            }
        } catch let error as AltitudeModelError {
            throw error
        } catch {
            throw .numerical(String(describing: error))
        }
        try holdStateInModelRange()
        if let detector = frontDetector, detector.isDue(at: reading.time) {
            let x = core.mean, P = core.covariance
            let e = Self.estimate(time: reading.time, mean: x, covariance: P, parameters: parameters)
            // The detectors watch the weather at the station, W, whose changes are dW = dB + g dC, g = h₀/(T₀ k dh₀/dU)
            // = −γ (`DetectorWeather`): a column learned at the station moves B by −g dC and W not at all, and a climb
            // through a known column moves neither. In standard air W is the model's QNH without a column state.
            var qnh = e.seaLevelPressure, sigma = e.seaLevelPressureStandardDeviation
            if let c = parameters.columnIndex {
                let b = AltitudeModel.weatherIndex
                let slope = LogPressureCoordinates.altitudeDerivative(x[AltitudeModel.altitudeIndex, 0])
                let g =
                    LogPressureCoordinates.temperatureHeight * (1 - slope)
                    / (StandardAtmosphere.seaLevelTemperature * Self.columnScale(x, columnIndex: c) * slope)
                let weather =
                    detectorWeather.map { $0.value + (x[b, 0] - $0.weather) + g * (x[c, 0] - $0.column) }
                    ?? x[b, 0] + g * x[c, 0]
                detectorWeather = DetectorWeather(value: weather, weather: x[b, 0], column: x[c, 0])
                qnh = LogPressureCoordinates.seaLevelPressure(weather)
                sigma =
                    qnh / LogPressureCoordinates.scaleHeight
                    * max(0, P[b, b] + 2 * g * P[b, c] + g * g * P[c, c]).squareRoot()
            }
            frontDetector?.observe(time: e.time, seaLevelPressure: qnh, standardDeviation: sigma)
            noiseDetector?.observe(time: e.time, seaLevelPressure: qnh, standardDeviation: sigma)
            try adaptWeatherNoise()
        }
    }

    /// Switches the weather noise (q_b and the tendency's) to the front values while the sensitive detector
    /// sees a front, and back after.
    ///
    /// A front (3 hPa in 40 min) is a rare jump, not ordinary random-walk weather: noise high enough to follow it
    /// all the time would cost accuracy on every quiet day, and noise tuned for quiet days lets the filter lag a
    /// front by metres while reporting a sigma of 4 m. The detector watches the filter's own QNH estimate, which
    /// the barometer-versus-GPS disagreement moves, so the switch needs no extra state in the model.
    private mutating func adaptWeatherNoise() throws(AltitudeModelError) {
        guard !followsSharedWeatherRegime, let active = noiseDetector?.isActive else { return }
        try setWeatherNoise(front: active)
    }

    /// Sets the weather noise (q_b and the tendency's) to the front values (`front`) or the ordinary ones; nothing
    /// before the first reading or where they are in effect already.
    mutating func setWeatherNoise(front active: Bool) throws(AltitudeModelError) {
        guard isStarted else { return }
        // The densities read in place: a bank asks every member at every reading.
        let tendency = active ? parameters.frontTendencyNoiseDensity : parameters.weatherTendencyNoiseDensity
        let weather = active ? parameters.frontWeatherNoiseDensity : parameters.weatherNoiseDensity
        guard tendency != core.model.tendencyNoiseDensity || weather != core.model.weatherNoiseDensity else { return }
        var model = core.model
        model.tendencyNoiseDensity = tendency
        model.weatherNoiseDensity = weather
        do { try core.replaceModel(model) } catch { throw .numerical(String(describing: error)) }
    }

    /// Updates the barometric vertical velocity from a new barometer measurement z = B − U (metres).
    ///
    /// v ← v + α (−Δz/Δt − v), α = min(1, Δt / T): an exponential smoother of the measured rate, T =
    /// `barometricVelocityTime`. The weather's share of Δz is negligible over seconds (1 hPa/h is 2 mm/s).
    /// With σ_p = 0.012 hPa at 1 Hz and T = 10 s, v is good to about 0.03 m/s, so the 0.5 s between a pressure and
    /// a fix is bridged to within 2 cm instead of the 7 to 12 cm a hiker climbs or descends in that time.
    private mutating func trackBarometricVelocity(time: Double, measurement z: Double) {
        let T = parameters.barometricVelocityTime
        guard T > 0 else { return }
        if let last = lastBarometer, time > last.time {
            let dt = time - last.time
            let alpha = min(1, dt / T)
            // A step of 10⁻³²² s (a subnormal number) makes the rate infinite: no rate is measured over it.
            let rate = -(z - last.measurement) / dt
            if rate.isFinite { barometricVelocity += alpha * (rate - barometricVelocity) }
        }
        lastBarometer = (time, z)
    }

    /// Sets the noise densities that follow the motion: the altitude walk's (m²/s,
    /// `AltitudeModelParameters.altitudeNoiseDensity(atVerticalSpeed:)`) and the column offset's from the height
    /// moved (K²/s, `AltitudeModelParameters.columnNoiseDensity(atVerticalSpeed:)`), at the barometer's smoothed
    /// vertical speed `speed` after each pressure; nil where no pressure vouches for the motion (none yet, or none
    /// for the velocity's time `barometricVelocityTime`): the full q_h, and no height moved for the column.
    ///
    /// The model is replaced only where a density moves by more than 5 % (for the column's, 5 % of the larger of
    /// the two and of its density at the speed v_m, `altitudeNoiseSpeed`, so that a still barometer's jitter of
    /// millimetres a second does not count), so that the engine's cached discretisation serves the steps of a still
    /// or steadily moving device.
    private mutating func setMotionNoise(atVerticalSpeed speed: Double?) throws(EstimationError) {
        let p = parameters
        let q = speed.map { p.altitudeNoiseDensity(atVerticalSpeed: $0) } ?? p.altitudeNoiseDensity
        let qc = speed.map { p.columnNoiseDensity(atVerticalSpeed: $0) } ?? 0
        func moved(_ new: Double, _ current: Double, floor: Double = 0) -> Bool {
            abs(new - current) > 0.05 * max(new, current, floor)
        }
        var model = core.model
        let columnFloor = p.columnNoiseDensity(atVerticalSpeed: p.altitudeNoiseSpeed)
        guard
            moved(q, model.altitudeNoiseDensity)
                || moved(qc, model.columnHeightNoiseDensity, floor: columnFloor)
        else { return }
        model.altitudeNoiseDensity = q
        model.columnHeightNoiseDensity = qc
        try core.replaceModel(model)
    }

    /// Sets the state to its priors at `reading` (see the type's discussion); `restarting` does it through the
    /// engine's reset, at the first pressure of a filter with the column state that started from GPS alone.
    ///
    /// Why start over there: a start from a fix takes U from the fix's standard-atmosphere altitude and linearises
    /// the fix where the column is standard; the first pressure then has to move U and C along that linearisation,
    /// by the whole difference between the barometer's and GPS's altitudes (130 m at a 2,600 m launch in a column
    /// 20 K from standard). That start booked most of it as weather (QNH 17 hPa off, the column 14 K) and the
    /// next few readings at a still station "learned" the column from the linearisation's error (its sigma from
    /// 6.4 K to 4.1 K in 5 s, where a still station cannot tell the column from the weather at all). Started at the
    /// pressure, U comes from the barometer and each fix is fused after it: the column's sigma, 5.3 K after the
    /// first fix, is 5.0 K after 15 minutes at the launch (`Docs/model.md`, Initialisation). The fixes before the
    /// first pressure are forgotten; without the column state a start from GPS has no split to get wrong, and the
    /// plain model keeps its start.
    private mutating func start(at reading: AltitudeReading, restarting: Bool = false) throws(AltitudeModelError) {
        let p = parameters
        let altitude = try Self.startAltitude(of: reading)
        let model = AltitudeModel(parameters: p, startAltitude: altitude)
        let n = model.stateCount
        var mean = [Double](repeating: 0, count: n)
        mean[AltitudeModel.altitudeIndex] = LogPressureCoordinates.logPressureAltitude(altitude)
        var variances = [Double](repeating: 0, count: n)
        variances[AltitudeModel.altitudeIndex] =
            p.altitudePriorStandardDeviation * p.altitudePriorStandardDeviation
            * model.altitudeScaleSquared
        let sB = p.weatherPriorStandardDeviation * AltitudeModel.weatherScale
        variances[AltitudeModel.weatherIndex] = sB * sB
        if p.hasTendency {
            let sD = p.weatherTendencyPriorStandardDeviation / 3_600 * AltitudeModel.weatherScale
            variances[AltitudeModel.tendencyIndex] = sD * sD
        }
        variances[model.gpsErrorIndex] = p.gpsErrorStandardDeviation * p.gpsErrorStandardDeviation
        if let c = model.columnIndex {
            variances[c] = p.columnTemperaturePriorStandardDeviation * p.columnTemperaturePriorStandardDeviation
        }
        do {
            awaitsFirstPressure = reading.pressure == nil && model.columnIndex != nil
            if restarting {
                try core.replaceModel(model)
                try core.reset(mean: mean, covariance: .diagonal(variances))
                // The QNH moved by the restart, not by the weather; the level the fixes set is gone.
                forgetDetectorHistory()
                faults?.forgetLevel()
                return
            }
            core = try KalmanFilter(
                model: model, time: reading.time, mean: mean,
                covariance: .diagonal(variances), recordsRun: recordsRun)
            isStarted = true
        } catch {
            throw .numerical(String(describing: error))
        }
    }

    /// Moves the state to `time`, with the barometric velocity as a known input.
    /// Throws what starting at `reading` would throw, where `reading` starts the filter or starts it over at its
    /// first pressure (`start`), and nothing otherwise: so that a reading the start refuses is refused before
    /// anything changes, here and in a bank of filters (`GPSErrorModelBank`).
    func checkStart(_ reading: AltitudeReading) throws(AltitudeModelError) {
        guard !isStarted || (awaitsFirstPressure && reading.pressure != nil) else { return }
        _ = try Self.startAltitude(of: reading)
    }

    /// The altitude a start at `reading` takes: its pressure's standard-atmosphere altitude, or its GPS altitude
    /// without a pressure, in metres, within the troposphere model.
    private static func startAltitude(of reading: AltitudeReading) throws(AltitudeModelError) -> Meters {
        let altitude: Meters
        if let pressure = reading.pressure {
            altitude = NaiveAveragingBaseline.pressureAltitude(pressure)
        } else if let gps = reading.gpsAltitude {
            altitude = gps
        } else {
            throw .emptyReading(time: reading.time)
        }
        guard altitude > StandardAtmosphere.minimumAltitude, altitude < StandardAtmosphere.tropopauseAltitude else {
            throw .invalidReading(
                time: reading.time, field: reading.pressure != nil ? "pressure_hpa" : "gps_alt_m",
                value: reading.pressure ?? altitude,
                expected: "a reading within the troposphere model (-1,000 m to 11,000 m)")
        }
        return altitude
    }

    private mutating func predict(to time: Double) throws(EstimationError) {
        guard isStarted else { return }
        if let last = lastBarometer {
            // The velocity is trusted for T after the pressure it came from: a barometer that stopped
            // reporting must not dead-reckon the altitude away.
            let moving = max(0, min(time, last.time + parameters.barometricVelocityTime) - core.time)
            if moving < time - core.time { try setMotionNoise(atVerticalSpeed: nil) }
            try core.predict(to: time, input: barometricVelocity * moving, onState: AltitudeModel.altitudeIndex)
        } else {
            // No pressure vouches for the motion (none yet, or the last one stuck or re-anchored).
            try setMotionNoise(atVerticalSpeed: nil)
            try core.predict(to: time)
        }
    }

    /// The estimate at `time` without a reading: the state predicted as the next reading's would be, the filter
    /// itself unchanged. Nil before the first reading, for a time before the filter's, or if the prediction fails.
    ///
    /// - Parameter time: the time of the estimate, in seconds on the readings' clock.
    public func predictedEstimate(at time: Double) -> AltitudeEstimate? {
        if let gpsModelBank { return gpsModelBank.predictedEstimate(at: time) }
        guard isStarted, time >= core.time else { return nil }
        var filter = self
        do { try filter.predict(to: time) } catch { return nil }
        return filter.estimate(barometer: nil, gps: nil)
    }

    /// The current estimate, without reading anything; nil before the first reading.
    public var currentEstimate: AltitudeEstimate? {
        if let gpsModelBank { return gpsModelBank.currentEstimate }
        guard isStarted else { return nil }
        // A copy, once: `estimate` is mutating (below).
        var filter = self
        return filter.estimate(barometer: nil, gps: nil)
    }

    /// Mutating, as it keeps the state's exponentials (`exponentials`) for the next row.
    private mutating func estimate(barometer: ScalarUpdateRecord?, gps: ScalarUpdateRecord?) -> AltitudeEstimate {
        guard isStarted else {
            return AltitudeEstimate(
                time: 0, altitude: .nan, altitudeStandardDeviation: .nan, displayPrecision: .nan,
                relativeAltitude: 0, seaLevelPressure: .nan, seaLevelPressureStandardDeviation: .nan,
                weatherTendency: 0, gpsError: .nan, gpsErrorStandardDeviation: .nan,
                columnTemperature: .nan, columnTemperatureStandardDeviation: .nan)
        }
        let slope = exponentials.altitudeDerivative(core.mean[AltitudeModel.altitudeIndex, 0])
        let qnh = exponentials.seaLevelPressure(core.mean[AltitudeModel.weatherIndex, 0])
        var e = Self.estimate(
            time: core.time, mean: core.mean, covariance: core.covariance, parameters: parameters,
            altitudeDerivative: slope, seaLevelPressure: qnh)
        if lastTemperatureTime == nil { Self.addLapseRateSpread(to: &e, parameters: parameters) }
        e.relativeAltitude = (lastPressureAltitude ?? 0) - (firstPressureAltitude ?? 0)
        e.barometerUpdate = barometer
        e.gpsUpdate = gps
        if case .some(let monitor) = faults { e.status = monitor.status }
        return e
    }

    /// Widens the reported column temperature's sigma by the lapse rate's spread, for a column that no thermometer
    /// has informed: σ_T² + (σ_Γ h/2)².
    ///
    /// Without a temperature, C is learned from height differences: it is the column's mean offset, which sets the
    /// altitude, and the station's temperature T₀ + C − L h read from it misses by δΓ h/2 where the lapse rate is
    /// not the standard one (`AltitudeModelParameters.columnLapseRateStandardDeviation`). A station temperature
    /// measures the station's own (`AltitudeSensor`, its sigma covering the lapse rate's share), so once one is
    /// fused the reported temperature needs no such term.
    static func addLapseRateSpread(to e: inout AltitudeEstimate, parameters: AltitudeModelParameters) {
        guard parameters.columnIndex != nil else { return }
        let lapse = parameters.columnLapseRateStandardDeviation * e.altitude / 2
        let sigma = e.columnTemperatureStandardDeviation
        e.columnTemperatureStandardDeviation = (sigma * sigma + lapse * lapse).squareRoot()
    }

    /// Maps a state and covariance in log-pressure coordinates back to metres, hPa and kelvin.
    ///
    /// h = k h₀(U) with k = 1 + C/T₀, so σ_h² = a² P_UU + 2 a b P_UC + b² P_CC with a = dh/dU = k exp(−L U/T₀) and
    /// b = dh/dC = h₀/T₀ (b = 0 without the column); σ_QNH = (dQNH/dB) σ_B. First order: both derivatives are
    /// within 10⁻⁴ of constant over the few metres of uncertainty. The column's temperature at the station is
    /// T = k (T₀ − L h₀) = (T₀ + C) exp(−L U/T₀), with σ_T = exp(−L U/T₀) σ_C (its U term, L σ_h, is under 0.1 K).
    ///
    /// Takes the parameters rather than the model, which would be copied whole per row for two facts; each
    /// exponential is computed once (dh/dU = exp(−U L/T₀) also gives h, and QNH gives dQNH/dB = QNH/H₀).
    /// Inlined: called from the filter's mutating methods, an outlined call copies the parameters (232 bytes) per row.
    @inline(__always)
    static func estimate(time: Double, mean x: Matrix, covariance P: Matrix, parameters: AltitudeModelParameters)
        -> AltitudeEstimate
    {
        estimate(
            time: time, mean: x, covariance: P, parameters: parameters,
            altitudeDerivative: LogPressureCoordinates.altitudeDerivative(x[AltitudeModel.altitudeIndex, 0]),
            seaLevelPressure: LogPressureCoordinates.seaLevelPressure(x[AltitudeModel.weatherIndex, 0]))
    }

    /// The estimate at x and P, given dh₀/dU = exp(−L U/T₀) and the QNH at x (the two exponentials it needs).
    @inline(__always)
    static func estimate(
        time: Double, mean x: Matrix, covariance P: Matrix, parameters: AltitudeModelParameters,
        altitudeDerivative slope: Double, seaLevelPressure qnh: Double
    ) -> AltitudeEstimate {
        let k = parameters.gpsErrorIndex
        let standardAltitude = LogPressureCoordinates.temperatureHeight * (1 - slope)
        var altitude = standardAltitude
        var sigmaH = slope * P[0, 0].squareRoot()
        var columnTemperature = Double.nan, columnSigma = Double.nan
        if let c = parameters.columnIndex {
            let T0 = StandardAtmosphere.seaLevelTemperature
            let scale = 1 + x[c, 0] / T0
            altitude = scale * standardAltitude
            let dU = scale * slope, dC = standardAltitude / T0
            sigmaH = max(0, dU * dU * P[0, 0] + 2 * dU * dC * P[0, c] + dC * dC * P[c, c]).squareRoot()
            columnTemperature = (T0 + x[c, 0]) * slope
            columnSigma = slope * P[c, c].squareRoot()
        }
        let dQdB = qnh / LogPressureCoordinates.scaleHeight
        let tendency = parameters.hasTendency ? x[AltitudeModel.tendencyIndex, 0] * dQdB * 3_600 : 0
        return AltitudeEstimate(
            time: time, altitude: altitude, altitudeStandardDeviation: sigmaH,
            displayPrecision: AltitudeEstimate.displayPrecision(forStandardDeviation: sigmaH), relativeAltitude: 0,
            seaLevelPressure: qnh, seaLevelPressureStandardDeviation: dQdB * P[1, 1].squareRoot(),
            weatherTendency: tendency, gpsError: x[k, 0], gpsErrorStandardDeviation: P[k, k].squareRoot(),
            columnTemperature: columnTemperature, columnTemperatureStandardDeviation: columnSigma)
    }
}
