import Foundation
import LinearAlgebra
import StateEstimation

/// Absolute altitude from a barometer and GPS, one reading at a time, with an honest one sigma.
///
/// Wraps the generic `KalmanFilter` with the `AltitudeModel`. Each reading goes through a short pipeline of named
/// stages, none of which undoes another:
///
/// 1. **start** (`start(at:)`), at the first reading: the priors below.
/// 2. **predict** (`predict(to:)`) to the reading's time, with the motion the barometer measured (`MotionState`): a
///    moving device's altitude moves by the barometric velocity and walks with q(v); a device at rest does not move
///    and walks with the rest density; the receiver in use sets e's dynamics.
/// 3. **barometer** (`fuseBarometer`): the pressure's innovation is tested (`FaultMonitor`), then fused with the
///    barometer's learned noise (`BarometerNoise`); the motion state and the receiver learner take it.
/// 4. **temperature** (`fuseTemperature`): one station temperature every `temperatureUpdateInterval`, as a
///    measurement of the column's temperature at the station.
/// 5. **GPS** (`fuseFix`): the fix is gated and fused, the fault monitor judges the run it belongs to (a reset
///    after a timeout of refused fixes that agree), and the receiver learner takes it (`ReceiverLearner`).
/// 6. **outputs**: the state held inside the model's range (a numerical guard no real recording reaches), the
///    front detector's look at the QNH (a report), and the estimate with the reading's update records and status.
///
/// Priors, from the first reading: with a pressure, U from the standard-atmosphere altitude of that pressure;
/// without one, from the GPS altitude. Either way P_UU = `altitudePriorStandardDeviation`² (84 m: 10 hPa of unknown
/// weather is 83 m), B = 0 ± `weatherPriorStandardDeviation` hPa, Ḃ = 0 ± the tendency prior, C = 0 ± σ_C,
/// e = 0 ± σ_e, no cross-covariance; the first reading is then an ordinary update.
///
/// GPS fixes that report a vertical accuracy a are trusted accordingly (`GPSReceiverModel.whiteVariance`).
public struct AltitudeFilter: Sendable {
    /// The model's parameters.
    public internal(set) var parameters: AltitudeModelParameters
    /// The engine, nil until the first reading.
    public var engine: KalmanFilter<AltitudeModel>? { isStarted ? core : nil }
    /// The engine's storage, the filter's engine once `isStarted`; before that an engine at a unit prior that no
    /// reading reaches (stored without an optional, so that a row's reads and writes of it go straight to the value).
    var core: KalmanFilter<AltitudeModel>
    /// Whether the first reading has started the engine (`core`).
    var isStarted = false
    /// The exponentials of the state a row asks for more than once.
    var exponentials = StateExponentials()
    /// Fronts detected so far (see `FrontDetector`).
    public var fronts: [WeatherFront] { frontDetector?.fronts ?? [] }
    /// Number of GPS fixes seen so far, used or gated.
    public internal(set) var fixCount = 0
    /// Number of GPS fixes gated so far.
    public internal(set) var gatedFixCount = 0
    /// Pressure altitude of the first pressure reading at standard QNH, in metres (relative altitude's origin).
    public internal(set) var firstPressureAltitude: Meters?
    /// Pressure altitude of the latest fused pressure at standard QNH, in metres.
    var lastPressureAltitude: Meters?
    /// The receiver in use: the parameters', or the learner's (`ReceiverLearner`).
    public internal(set) var receiver: GPSReceiverModel
    /// Whether the device moves, from the barometer.
    public internal(set) var motion = MotionState()
    /// The barometer's noise, learned from its readings.
    public internal(set) var barometerNoise: BarometerNoise
    /// The receiver learner, with `learnsReceiver`.
    public internal(set) var learner: ReceiverLearner?
    var frontDetector: FrontDetector?
    /// The fault monitor; nil when `detectsFaults` is off or there is no gate.
    var faults: FaultMonitor?
    let recordsRun: Bool
    var gate: Gate
    /// The time of the last temperature fused, in seconds.
    var lastTemperatureTime: Double?
    /// The barometer's re-anchored offset Δp, in hPa: the sum of the steps it made (`fuseBarometer`).
    var barometerOffset: Hectopascals = 0
    /// m, the height the device has moved, in metres of standard altitude: what the barometric velocity moved the
    /// altitude by while the device moves (the motion the barometer measured, and not the updates' corrections of
    /// the level), summed since the start; the column's scale applies to it (`AltitudeModel`).
    public internal(set) var heightMoved: Meters = 0
    /// The height moved since the receiver learner last took a pressure, in metres.
    var unreportedMotion: Meters = 0

    var lastBarometerRecord: ScalarUpdateRecord?
    var lastGPSRecord: ScalarUpdateRecord?

    /// A filter with the given parameters.
    ///
    /// - Parameters:
    ///   - parameters: every tunable number of the model, in the units `AltitudeModelParameters` gives; validated
    ///     before anything else.
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
        receiver = parameters.receiver
        barometerNoise = BarometerNoise(
            prior: LogPressureCoordinates.scaleHeight * parameters.barometerNoiseStandardDeviation
                / StandardAtmosphere.seaLevelPressure)
        if parameters.learnsReceiver { learner = ReceiverLearner(parameters: parameters) }
        if parameters.detectsFaults, parameters.gateStandardDeviations != nil {
            faults = FaultMonitor(thresholds: parameters.faultThresholds)
        }
        if parameters.detectsFronts, parameters.hasTendency {
            // s = √(q τ/2), the tendency's stationary spread in hPa/h (q in (hPa/h)²/h, τ in hours).
            let spread =
                (parameters.weatherTendencyNoiseDensity * parameters.weatherTendencyCorrelationTime / 3_600 / 2)
                .squareRoot()
            frontDetector = FrontDetector(tendencySpread: spread)
        }
        let n = parameters.stateCount
        do {
            core = try KalmanFilter(
                model: AltitudeModel(parameters: parameters, startAltitude: 0), time: 0,
                mean: [Double](repeating: 0, count: n), covariance: .identity(n))
        } catch {
            throw .numerical(String(describing: error))
        }
    }

    /// Processes one reading and returns the estimate after it.
    ///
    /// - Throws: `AltitudeModelError.invalidReading`, `.emptyReading` or `.timeWentBackwards`, after which the
    ///   filter is unchanged; or `.numerical` if the engine fails (a covariance that lost positive definiteness),
    ///   after which the filter may have moved to the reading's time and should be restored from a checkpoint.
    public mutating func process(_ reading: AltitudeReading) throws(AltitudeModelError) -> AltitudeEstimate {
        try reading.validate()
        if isStarted, reading.time < core.time {
            throw .timeWentBackwards(previous: core.time, current: reading.time)
        }
        if !isStarted { _ = try Self.startAltitude(of: reading) }
        // Validation above is complete, and the engine checks its own inputs before changing anything, so the
        // only failure left is numerical.
        try apply(reading)
        return estimate(barometer: lastBarometerRecord, gps: lastGPSRecord)
    }

    /// The pipeline (see the type's discussion).
    private mutating func apply(_ reading: AltitudeReading) throws(AltitudeModelError) {
        lastBarometerRecord = nil
        lastGPSRecord = nil
        faults?.beginReading()
        do {
            if !isStarted { try start(at: reading) }
            try scaleNoiseAtCurrentState()
            let levelBefore = core.mean[AltitudeModel.altitudeIndex, 0]
            // Before a second pressure no motion is seen: the first one only splits the start's level.
            let moving = !motion.isAtRest && motion.last != nil
            try predict(to: reading.time)
            // The seconds since the fused pressure before, where this reading's pressure was fused.
            var fusedInterval: Seconds?
            if let p = reading.pressure { fusedInterval = try fuseBarometer(p, at: reading.time) }
            // The height moved: what the prediction and the barometer moved U by while the device moves (the motion
            // the model sees, the weather's share of the pressure going to B), not the level corrections the GPS
            // makes, nor the rest walk, which stands for motion too small to see.
            let moved =
                moving
                ? exponentials.altitudeDerivative(core.mean[AltitudeModel.altitudeIndex, 0])
                    * (core.mean[AltitudeModel.altitudeIndex, 0] - levelBefore) : 0
            if moved.isFinite {
                heightMoved += moved
                unreportedMotion += moved
            }
            if let interval = fusedInterval, let altitude = lastPressureAltitude, case .some = learner {
                learner?.observePressure(
                    altitude: altitude, heightMoved: unreportedMotion, atRest: motion.isAtRest,
                    restDensity: motion.restDensity(noiseVariance: barometerNoise.measurementVariance),
                    interval: interval)
                unreportedMotion = 0
            }
            if let temperature = reading.temperature { try fuseTemperature(temperature, at: reading.time) }
            if let fix = reading.gpsAltitude {
                try fuseFix(fix, accuracy: reading.gpsVerticalAccuracy, at: reading.time)
            }
            try holdStateInModelRange()
        } catch let error as AltitudeModelError {
            throw error
        } catch {
            throw .numerical(String(describing: error))
        }
        observeFronts(at: reading.time)
    }

    /// Sets the state to its priors at `reading` (see the type's discussion).
    private mutating func start(at reading: AltitudeReading) throws(AltitudeModelError) {
        let p = parameters
        let altitude = try Self.startAltitude(of: reading)
        var model = AltitudeModel(parameters: p, startAltitude: altitude)
        model.gpsErrorStandardDeviation = receiver.errorStandardDeviation
        model.gpsCorrelationTime = receiver.correlationTime
        let n = model.stateCount
        var mean = [Double](repeating: 0, count: n)
        mean[AltitudeModel.altitudeIndex] = LogPressureCoordinates.logPressureAltitude(altitude)
        var variances = [Double](repeating: 0, count: n)
        variances[AltitudeModel.altitudeIndex] =
            p.altitudePriorStandardDeviation * p.altitudePriorStandardDeviation * model.altitudeScaleSquared
        let sB = p.weatherPriorStandardDeviation * AltitudeModel.weatherScale
        variances[AltitudeModel.weatherIndex] = sB * sB
        if p.hasTendency {
            let sD = p.weatherTendencyPriorStandardDeviation / 3_600 * AltitudeModel.weatherScale
            variances[AltitudeModel.tendencyIndex] = sD * sD
        }
        variances[model.gpsErrorIndex] = receiver.errorStandardDeviation * receiver.errorStandardDeviation
        if let c = model.columnIndex {
            variances[c] = p.columnTemperaturePriorStandardDeviation * p.columnTemperaturePriorStandardDeviation
        }
        do {
            core = try KalmanFilter(
                model: model, time: reading.time, mean: mean, covariance: .diagonal(variances), recordsRun: recordsRun)
        } catch {
            throw .numerical(String(describing: error))
        }
        isStarted = true
    }

    /// The altitude a start at `reading` takes: its pressure's standard-atmosphere altitude, or its GPS altitude
    /// without a pressure, in metres, within the troposphere model.
    static func startAltitude(of reading: AltitudeReading) throws(AltitudeModelError) -> Meters {
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

    /// Moves the state to `time`: while the device moves and the barometric velocity vouches for it (within T_v of
    /// the last pressure), the altitude moves by v dt, a known input; at rest it stays.
    mutating func predict(to time: Double) throws(EstimationError) {
        guard isStarted, time > core.time else { return }
        let velocityTime = parameters.barometricVelocityTime
        if let last = motion.last, !motion.isAtRest, velocityTime > 0 {
            let moving = max(0, min(time, last.time + velocityTime) - core.time)
            if moving < time - core.time { try setMotionNoise() }
            try core.predict(to: time, input: motion.velocity * moving, onState: AltitudeModel.altitudeIndex)
        } else {
            try core.predict(to: time)
        }
    }

    /// Sets the noise densities that follow the motion, for the next prediction: the altitude walk's (m²/s) and the
    /// column offset's from the height moved (K²/s). At rest, the rest density and no height moved; moving, q(v) and
    /// q_Γ |v| at the barometric velocity v; with no pressure within T_v, the full q_h and no height moved.
    ///
    /// The model is replaced only where a density moves by more than 5 % (for the column's, 5 % of its density at
    /// the speed v_m, so that a still barometer's jitter does not count), so that the engine's cached
    /// discretisation serves the steps of a still or steadily moving device.
    mutating func setMotionNoise() throws(EstimationError) {
        let p = parameters
        let q: Double, qc: Double
        let fresh = motion.velocityHolds(at: core.time, velocityTime: p.barometricVelocityTime)
        let rest = motion.restDensity(noiseVariance: barometerNoise.measurementVariance)
        // The motion state is the barometric velocity's: without it, the walk is q_h at rest as in motion.
        if motion.isAtRest, p.barometricVelocityTime > 0 {
            q = rest
            qc = 0
        } else if fresh {
            q = p.altitudeNoiseDensity(atVerticalSpeed: motion.velocity, restDensity: rest)
            qc = p.columnNoiseDensity(atVerticalSpeed: motion.velocity)
        } else {
            q = p.altitudeNoiseDensity
            qc = 0
        }
        func moved(_ new: Double, _ current: Double, floor: Double = 0) -> Bool {
            abs(new - current) > 0.05 * max(new, current, floor)
        }
        var model = core.model
        let columnFloor = p.columnNoiseDensity(atVerticalSpeed: p.altitudeNoiseSpeed)
        guard
            moved(q, model.altitudeNoiseDensity) || moved(qc, model.columnHeightNoiseDensity, floor: columnFloor)
        else { return }
        model.altitudeNoiseDensity = q
        model.columnHeightNoiseDensity = qc
        try core.replaceModel(model)
    }

    /// The estimate at `time` without a reading: the state predicted as the next reading's would be, the filter
    /// itself unchanged. Nil before the first reading, for a time before the filter's, or if the prediction fails.
    ///
    /// - Parameter time: the time of the estimate, in seconds on the readings' clock.
    public func predictedEstimate(at time: Double) -> AltitudeEstimate? {
        guard isStarted, time >= core.time else { return nil }
        var filter = self
        do { try filter.predict(to: time) } catch { return nil }
        return filter.estimate(barometer: nil, gps: nil)
    }

    /// The current estimate, without reading anything; nil before the first reading.
    public var currentEstimate: AltitudeEstimate? {
        guard isStarted else { return nil }
        var filter = self
        return filter.estimate(barometer: nil, gps: nil)
    }

    /// Mutating, as it keeps the state's exponentials (`exponentials`) for the next row.
    mutating func estimate(barometer: ScalarUpdateRecord?, gps: ScalarUpdateRecord?) -> AltitudeEstimate {
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
            heightMoved: heightMoved, altitudeDerivative: slope, seaLevelPressure: qnh)
        if lastTemperatureTime == nil { Self.addLapseRateSpread(to: &e, parameters: parameters) }
        e.relativeAltitude = (lastPressureAltitude ?? 0) - (firstPressureAltitude ?? 0)
        e.heightMoved = heightMoved
        e.barometerUpdate = barometer
        e.gpsUpdate = gps
        if case .some(let monitor) = faults { e.status = monitor.status }
        return e
    }

    /// Widens the reported column temperature's sigma by the lapse rate's spread, for a column that no thermometer
    /// has informed: σ_T² + (σ_Γ h/2)² (the station's temperature misses the column's mean by δΓ h/2).
    static func addLapseRateSpread(to e: inout AltitudeEstimate, parameters: AltitudeModelParameters) {
        guard parameters.columnIndex != nil else { return }
        let lapse = parameters.columnLapseRateStandardDeviation * e.altitude / 2
        let sigma = e.columnTemperatureStandardDeviation
        e.columnTemperatureStandardDeviation = (sigma * sigma + lapse * lapse).squareRoot()
    }

    /// Maps a state and covariance in log-pressure coordinates back to metres, hPa and kelvin.
    ///
    /// h = h₀(U) + (C/T₀) m (`AltitudeModel`), so σ_h² = a² P_UU + 2 a b P_UC + b² P_CC with a = dh/dU =
    /// exp(−L U/T₀) and b = dh/dC = m/T₀ (b = 0 without the column); σ_QNH = (dQNH/dB) σ_B. The column's
    /// temperature at the station is T = (T₀ + C) exp(−L U/T₀) = k (T₀ − L h₀), with σ_T = exp(−L U/T₀) σ_C.
    ///
    /// - Parameter heightMoved: m, the height moved over which the column's scale applies, in metres.
    @inline(__always)
    static func estimate(
        time: Double, mean x: Matrix, covariance P: Matrix, parameters: AltitudeModelParameters, heightMoved: Meters
    ) -> AltitudeEstimate {
        estimate(
            time: time, mean: x, covariance: P, parameters: parameters, heightMoved: heightMoved,
            altitudeDerivative: LogPressureCoordinates.altitudeDerivative(x[AltitudeModel.altitudeIndex, 0]),
            seaLevelPressure: LogPressureCoordinates.seaLevelPressure(x[AltitudeModel.weatherIndex, 0]))
    }

    /// The estimate at x and P, given dh₀/dU = exp(−L U/T₀) and the QNH at x (the two exponentials it needs).
    @inline(__always)
    static func estimate(
        time: Double, mean x: Matrix, covariance P: Matrix, parameters: AltitudeModelParameters, heightMoved m: Meters,
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
            altitude = standardAltitude + (scale - 1) * m
            let dU = slope, dC = m / T0
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

    /// The column scale k = 1 + C/T₀ at `x`, 1 without the column state.
    @inline(__always)
    static func columnScale(_ x: Matrix, columnIndex: Int?) -> Double {
        guard let c = columnIndex else { return 1 }
        return 1 + x[c, 0] / StandardAtmosphere.seaLevelTemperature
    }
}
