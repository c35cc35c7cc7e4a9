import LinearAlgebra
import StateEstimation

/// The altitude filter's whole state, for `--save-state` and `--resume`.
///
/// Holds the engine's checkpoint (time, x, P and the model with its parameters) plus the filter's own state: the
/// fix counts, the relative altitude's origin, the receiver in use and its learner, the motion state, the
/// barometer's learned noise and re-anchored offset, the fault monitor and the front detector. Encoding, decoding
/// and continuing gives bit-identical estimates to a run that was never interrupted: JSON carries every `Double`
/// exactly (shortest round-trip form), and nothing else is recomputed on restore. Its size is bounded whatever the
/// track's length (a few kilobytes: every list in it has a fixed capacity).
public struct AltitudeFilterCheckpoint: Sendable, Codable {
    /// The layout this code writes and reads; another version is refused with an error naming it.
    public static let currentFormatVersion = 5
    /// Version of this layout.
    public var formatVersion = currentFormatVersion
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
    /// The receiver in use.
    public var receiver: GPSReceiverModel
    /// The receiver learner, with `learnsReceiver`.
    public var learner: ReceiverLearner?
    /// The motion state.
    public var motion: MotionState
    /// The barometer's learned noise.
    public var barometerNoise: BarometerNoise
    /// The barometer's re-anchored pressure offset, in hPa (version 5; version 4 kept it in metres of log-pressure).
    public var barometerOffset: Double
    /// The height moved, in metres (`AltitudeFilter.heightMoved`).
    public var heightMoved: Double
    /// The part of the height moved not yet given to the receiver learner, in metres.
    public var unreportedMotion: Double
    /// Time of the latest temperature fused, in seconds.
    public var lastTemperatureTime: Double?
    /// The fault monitor's state.
    public var faults: FaultMonitor?
    /// The front detector's state.
    public var frontDetector: FrontDetector?

    private enum CodingKeys: String, CodingKey {
        case formatVersion, parameters, engine, fixCount, gatedFixCount, firstPressureAltitude, lastPressureAltitude,
            receiver, learner, motion, barometerNoise, barometerOffset, heightMoved, unreportedMotion,
            lastTemperatureTime, faults, frontDetector
    }

    init(
        parameters: AltitudeModelParameters, engine: FilterCheckpoint<AltitudeModel>?, fixCount: Int,
        gatedFixCount: Int, firstPressureAltitude: Double?, lastPressureAltitude: Double?, receiver: GPSReceiverModel,
        learner: ReceiverLearner?, motion: MotionState, barometerNoise: BarometerNoise, barometerOffset: Double,
        heightMoved: Double, unreportedMotion: Double, lastTemperatureTime: Double?, faults: FaultMonitor?,
        frontDetector: FrontDetector?
    ) {
        self.parameters = parameters
        self.engine = engine
        self.fixCount = fixCount
        self.gatedFixCount = gatedFixCount
        self.firstPressureAltitude = firstPressureAltitude
        self.lastPressureAltitude = lastPressureAltitude
        self.receiver = receiver
        self.learner = learner
        self.motion = motion
        self.barometerNoise = barometerNoise
        self.barometerOffset = barometerOffset
        self.heightMoved = heightMoved
        self.unreportedMotion = unreportedMotion
        self.lastTemperatureTime = lastTemperatureTime
        self.faults = faults
        self.frontDetector = frontDetector
    }

    /// Decodes a saved state, refusing another layout version before anything else: a state file written by
    /// another version of the filter would otherwise resume wrongly.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        formatVersion = try c.decode(Int.self, forKey: .formatVersion)
        guard formatVersion == Self.currentFormatVersion else {
            throw DecodingError.dataCorruptedError(
                forKey: .formatVersion, in: c,
                debugDescription:
                    "a saved state of format version \(formatVersion); this version of altimetry reads version "
                    + "\(Self.currentFormatVersion) (save the state again with this version)")
        }
        parameters = try c.decode(AltitudeModelParameters.self, forKey: .parameters)
        engine = try c.decodeIfPresent(FilterCheckpoint<AltitudeModel>.self, forKey: .engine)
        fixCount = try c.decode(Int.self, forKey: .fixCount)
        gatedFixCount = try c.decode(Int.self, forKey: .gatedFixCount)
        firstPressureAltitude = try c.decodeIfPresent(Double.self, forKey: .firstPressureAltitude)
        lastPressureAltitude = try c.decodeIfPresent(Double.self, forKey: .lastPressureAltitude)
        receiver = try c.decode(GPSReceiverModel.self, forKey: .receiver)
        learner = try c.decodeIfPresent(ReceiverLearner.self, forKey: .learner)
        motion = try c.decode(MotionState.self, forKey: .motion)
        barometerNoise = try c.decode(BarometerNoise.self, forKey: .barometerNoise)
        barometerOffset = try c.decode(Double.self, forKey: .barometerOffset)
        heightMoved = try c.decode(Double.self, forKey: .heightMoved)
        unreportedMotion = try c.decode(Double.self, forKey: .unreportedMotion)
        lastTemperatureTime = try c.decodeIfPresent(Double.self, forKey: .lastTemperatureTime)
        faults = try c.decodeIfPresent(FaultMonitor.self, forKey: .faults)
        frontDetector = try c.decodeIfPresent(FrontDetector.self, forKey: .frontDetector)
    }
}

extension AltitudeFilter {
    /// The filter's whole state.
    public var checkpoint: AltitudeFilterCheckpoint {
        AltitudeFilterCheckpoint(
            parameters: parameters, engine: engine?.checkpoint, fixCount: fixCount, gatedFixCount: gatedFixCount,
            firstPressureAltitude: firstPressureAltitude, lastPressureAltitude: lastPressureAltitude,
            receiver: receiver, learner: learner, motion: motion, barometerNoise: barometerNoise,
            barometerOffset: barometerOffset, heightMoved: heightMoved, unreportedMotion: unreportedMotion,
            lastTemperatureTime: lastTemperatureTime,
            faults: faults,
            frontDetector: frontDetector)
    }

    /// A filter continuing exactly from `checkpoint`, every part checked before use.
    ///
    /// - Throws: `AltitudeModelError.invalidParameter` for bad parameters or a state that does not match them (a
    ///   mean or covariance of another dimension, a non-finite number, a count below zero), naming the field;
    ///   `.numerical` if the engine rejects the saved covariance (not symmetric positive definite).
    public init(restoring checkpoint: AltitudeFilterCheckpoint) throws(AltitudeModelError) {
        try self.init(parameters: checkpoint.parameters)
        func invalid(_ field: String, _ value: Double, _ expected: String) -> AltitudeModelError {
            .invalidParameter(name: "saved state's \(field)", value: value, expected: expected)
        }
        if let saved = checkpoint.engine {
            let n = parameters.stateCount
            guard saved.model.parameters == checkpoint.parameters else {
                throw invalid("engine.model.parameters", 0, "the state's own parameters")
            }
            guard saved.mean.count == n else {
                throw invalid("engine.mean", Double(saved.mean.count), "\(n) values, the model's state count")
            }
            guard saved.covariance.rows == n, saved.covariance.columns == n, saved.covariance.elements.count == n * n
            else {
                throw invalid(
                    "engine.covariance", Double(saved.covariance.elements.count), "\(n)x\(n) = \(n * n) values")
            }
            guard saved.time.isFinite, saved.mean.allSatisfy(\.isFinite),
                saved.covariance.elements.allSatisfy(\.isFinite)
            else { throw invalid("engine", .nan, "finite time, mean and covariance") }
            do { core = try KalmanFilter(restoring: saved) } catch { throw .numerical(String(describing: error)) }
            isStarted = true
        }
        guard checkpoint.fixCount >= 0, checkpoint.gatedFixCount >= 0,
            checkpoint.gatedFixCount <= checkpoint.fixCount
        else { throw invalid("fixCount", Double(checkpoint.fixCount), "counts >= 0, gated at most all") }
        let numbers = [
            ("barometerOffset", checkpoint.barometerOffset), ("heightMoved", checkpoint.heightMoved),
            ("unreportedMotion", checkpoint.unreportedMotion),
        ]
        for (field, value) in numbers where !value.isFinite {
            throw invalid(field, value, "a finite number")
        }
        guard checkpoint.receiver.isValid else {
            throw invalid("receiver", checkpoint.receiver.errorStandardDeviation, "finite spreads and times > 0")
        }
        guard (checkpoint.learner != nil) == parameters.learnsReceiver else {
            throw invalid("learner", 0, parameters.learnsReceiver ? "a learner (gps_adapt is on)" : "none")
        }
        if let field = checkpoint.learner?.invalidField(for: parameters) {
            throw invalid(field, 0, "the learner of the state's parameters, with finite numbers")
        }
        fixCount = checkpoint.fixCount
        gatedFixCount = checkpoint.gatedFixCount
        firstPressureAltitude = checkpoint.firstPressureAltitude
        lastPressureAltitude = checkpoint.lastPressureAltitude
        receiver = checkpoint.receiver
        learner = checkpoint.learner
        motion = checkpoint.motion
        barometerNoise = checkpoint.barometerNoise
        barometerOffset = checkpoint.barometerOffset
        heightMoved = checkpoint.heightMoved
        unreportedMotion = checkpoint.unreportedMotion
        lastTemperatureTime = checkpoint.lastTemperatureTime
        if faults != nil { faults = checkpoint.faults ?? faults }
        if frontDetector != nil { frontDetector = checkpoint.frontDetector ?? frontDetector }
    }
}
