import StateEstimation

/// The altitude filter's whole state, for `--save-state` and `--resume`.
///
/// Holds the engine's checkpoint (time, x, P and the model with its parameters) plus the filter's own
/// bookkeeping (fix counts for the gate, the relative-altitude origin, both front detectors, the barometric velocity, the
/// barometer's re-anchored offset and the fault monitor). Encoding, decoding
/// and continuing gives bit-identical estimates to a run that was never interrupted: JSON carries every
/// `Double` exactly (shortest round-trip form), and nothing else is recomputed on restore.
public struct AltitudeFilterCheckpoint: Sendable, Codable {
    /// Version of this layout; decoding another version fails with a clear error.
    public var formatVersion = 3
    /// The model's parameters.
    public var parameters: AltitudeModelParameters
    /// The engine's state: time (s), mean x and covariance P; nil before the first reading.
    public var engine: FilterCheckpoint<AltitudeModel>?
    /// GPS fixes processed so far.
    public var fixCount: Int
    /// GPS fixes the innovation gate rejected so far.
    public var gatedFixCount: Int
    /// The first barometric (pressure) altitude, in metres: the relative altitude's origin.
    public var firstPressureAltitude: Double?
    /// The latest barometric (pressure) altitude, in metres.
    public var lastPressureAltitude: Double?
    /// The weather front detector's state (QNH history in hPa).
    public var frontDetector: FrontDetector?
    /// The detector that adapts the weather noise density to the QNH it sees (the second front detector).
    public var noiseDetector: FrontDetector?
    /// Optional so that a file of an older version decodes far enough to be refused by its version number.
    public var barometricVelocity: Double?
    /// Time of the latest barometer reading, in seconds.
    public var lastBarometerTime: Double?
    /// The latest barometer measurement z, in the model's log-pressure coordinate (`LogPressureCoordinates`).
    public var lastBarometerMeasurement: Double?
    /// The GPS error model bank's state, when the filter adapts its GPS model.
    public var gpsModelBank: GPSErrorModelBank.Checkpoint?
    /// Time of the latest temperature reading, in seconds.
    public var lastTemperatureTime: Double?
    /// The barometer's re-anchored offset after a step, in metres; nil before any.
    public var barometerOffset: Double?
    /// The sensor fault monitor's state.
    public var faults: SensorFaultMonitor?
    /// The front detectors' weather (`AltitudeFilter.DetectorWeather`), with the column state.
    public var detectorWeather: AltitudeFilter.DetectorWeather?
    /// Whether the filter started from GPS alone and starts over at its first pressure; nil is false.
    public var awaitsFirstPressure: Bool?
    /// Since when, in seconds, and at which pressure altitude, in metres, the barometer has stayed still
    /// (`AltitudeFilter.holdsColumn(at:)`); nil before the first fix or in a checkpoint written before the rule.
    public var stillSinceTime: Double?
    /// See `stillSinceTime`.
    public var stillSinceAltitude: Double?
    /// When `stillSinceAltitude` was taken, in seconds; nil is `stillSinceTime`.
    public var stillAnchorTime: Double?
}

extension AltitudeFilter {
    /// The filter's whole state.
    public var checkpoint: AltitudeFilterCheckpoint {
        AltitudeFilterCheckpoint(
            parameters: parameters, engine: engine?.checkpoint, fixCount: fixCount,
            gatedFixCount: gatedFixCount, firstPressureAltitude: firstPressureAltitude,
            lastPressureAltitude: lastPressureAltitude, frontDetector: frontDetector,
            noiseDetector: noiseDetector,
            barometricVelocity: barometricVelocity, lastBarometerTime: lastBarometer?.time,
            lastBarometerMeasurement: lastBarometer?.measurement, gpsModelBank: gpsModelBank?.checkpoint,
            lastTemperatureTime: lastTemperatureTime, barometerOffset: barometerOffset, faults: faults,
            detectorWeather: detectorWeather, awaitsFirstPressure: awaitsFirstPressure,
            stillSinceTime: stillSince?.time, stillSinceAltitude: stillSince?.altitude,
            stillAnchorTime: stillSince?.anchorTime)
    }

    /// A filter continuing exactly from `checkpoint`.
    ///
    /// - Throws: `AltitudeModelError.invalidParameter` for bad parameters or an unknown format version,
    ///   `.numerical` if the engine rejects the saved covariance.
    public init(restoring checkpoint: AltitudeFilterCheckpoint) throws(AltitudeModelError) {
        guard checkpoint.formatVersion == 3 else {
            throw .invalidParameter(
                name: "checkpoint format version", value: Double(checkpoint.formatVersion), expected: "3")
        }
        try self.init(parameters: checkpoint.parameters)
        if let saved = checkpoint.engine {
            do { core = try KalmanFilter(restoring: saved) } catch { throw .numerical(String(describing: error)) }
            isStarted = true
        }
        fixCount = checkpoint.fixCount
        gatedFixCount = checkpoint.gatedFixCount
        firstPressureAltitude = checkpoint.firstPressureAltitude
        lastPressureAltitude = checkpoint.lastPressureAltitude
        frontDetector = checkpoint.frontDetector
        noiseDetector = checkpoint.noiseDetector
        barometricVelocity = checkpoint.barometricVelocity ?? 0
        lastTemperatureTime = checkpoint.lastTemperatureTime
        barometerOffset = checkpoint.barometerOffset ?? 0
        faults = checkpoint.faults
        detectorWeather = checkpoint.detectorWeather
        awaitsFirstPressure = checkpoint.awaitsFirstPressure ?? false
        if let time = checkpoint.stillSinceTime, let altitude = checkpoint.stillSinceAltitude {
            stillSince = (time, altitude, checkpoint.stillAnchorTime ?? time)
        }
        if let time = checkpoint.lastBarometerTime, let z = checkpoint.lastBarometerMeasurement {
            lastBarometer = (time, z)
        }
        if let saved = checkpoint.gpsModelBank { try gpsModelBank?.restore(saved) }
    }
}
