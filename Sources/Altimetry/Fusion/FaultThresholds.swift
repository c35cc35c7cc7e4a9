/// The named thresholds of the fault handling (`FaultMonitor`), all of them, each with its unit and origin.
///
/// The innovation gate itself is `AltitudeModelParameters.gateStandardDeviations` (5, PX4 EKF2's default for its
/// height sources); a fault is a run of readings that fail it, counted in time, as in PX4's EKF2 and ArduPilot's
/// EKF3. `Codable` under `fault_thresholds` in a parameters file, with snake_case keys; missing keys keep their
/// defaults.
public struct FaultThresholds: Sendable, Equatable, Codable {
    /// Seconds of GPS fixes that all fail the gate, with none accepted, after which the filter's altitude is
    /// discredited and reset to the fixes (the lock-out reset), provided they agree with each other.
    ///
    /// 60 s: longer than a multipath glitch or a receiver's re-acquisition lasts (seconds to a minute), so that the
    /// filter does not follow them, and short beside the hours a wrong level would cost; at a logger's fix every
    /// 30 s, three fixes. PX4's EKF2, which must hold an aircraft's height, resets after 5 s of failed height fusion
    /// (`hgt_fusion_timeout_max`); the barometer carries this filter's altitude while the GPS is refused.
    public var gpsResetTime: Double = 60
    /// How far the refused fixes' residuals may scatter, in the receiver's spread over the run (the standard
    /// deviation of the run's residuals, weighted by exp(−age/`gpsResetTime`), over
    /// `GPSReceiverModel.runStandardDeviation(over:whiteVariance:)` for the run's duration, at most `gpsResetTime`),
    /// for the reset to follow them.
    ///
    /// 3: fixes that a receiver of the model's spread produced scatter by about one such spread; a filter whose
    /// altitude is wrong sees them agree with each other and disagree with it. A GPS that glitches by hundreds of
    /// metres, or ramps away from its fix, scatters by many, and resetting to it would follow the glitch. The spread
    /// is the run's, not the stationary √(σ_e² + σ_w²): a correlated error moves little within a run shorter than τ,
    /// and against the stationary spread a slow receiver's 200 m ramp agreed.
    public var gpsResetAgreement: Double = 3
    /// Seconds of pressures that all fail the gate, beyond `barometerFaultSpeed`, after which the barometer is taken
    /// to have stepped and its offset is re-anchored to the new level. A shorter run is a spike: rejected, reported,
    /// and forgotten when the readings come back.
    ///
    /// 10 s: twice PX4 EKF2's 5 s of failed height fusion after which it stops fusing a height source; a spike of a
    /// few readings, as watches record at a start, is over well within it.
    public var barometerStepTime: Double = 10
    /// Unexplained vertical speed, in m/s, above which a pressure's innovation is a sensor fault and not motion:
    /// |ν| > this × max(Δt, 1 s), as well as beyond the gate.
    ///
    /// 80 m/s: a skydiver falls at up to 60 m/s in a stable position (terminal speed), and the barometric velocity
    /// leaves far less than that unexplained from one reading to the next; a 30 hPa step is 250 m in one reading.
    public var barometerFaultSpeed: Double = 80
    /// Seconds of bit-identical pressures after which a barometer is stuck if the GPS meanwhile shows the device
    /// moving (fixes that moved by more than three of their spreads since the run began).
    ///
    /// 60 s: a sensor with noise repeats its value a few readings at a time (the real recordings' longest run while
    /// moving is 4 readings); one whose value is quantised (an IGC file's whole metres) repeats for minutes at rest,
    /// and is then not stuck, since the GPS shows no motion.
    public var barometerStuckTime: Double = 60
    /// Seconds of bit-identical pressures after which a barometer is stuck whatever the GPS says: longer than any
    /// rest explains.
    ///
    /// 2 h: the weather moves the pressure by at least 0.2 hPa in two hours on all but the calmest days (the
    /// real 4.8 h desk recording's calmest two hours moved it by 0.3 hPa), more than any quantum a logger stores
    /// (whole metres of pressure altitude are 0.12 hPa).
    public var barometerStuckRestTime: Double = 7_200

    /// The defaults.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case gpsResetTime = "gps_reset_time"
        case gpsResetAgreement = "gps_reset_agreement"
        case barometerStepTime = "baro_step_time"
        case barometerFaultSpeed = "baro_fault_speed"
        case barometerStuckTime = "baro_stuck_time"
        case barometerStuckRestTime = "baro_stuck_rest_time"
    }

    /// Decodes any subset of the keys; missing keys keep their defaults. An unknown key is an error naming it.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, what: "fault threshold")
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = FaultThresholds()
        gpsResetTime = try c.decodeIfPresent(Double.self, forKey: .gpsResetTime) ?? d.gpsResetTime
        gpsResetAgreement = try c.decodeIfPresent(Double.self, forKey: .gpsResetAgreement) ?? d.gpsResetAgreement
        barometerStepTime = try c.decodeIfPresent(Double.self, forKey: .barometerStepTime) ?? d.barometerStepTime
        barometerFaultSpeed = try c.decodeIfPresent(Double.self, forKey: .barometerFaultSpeed) ?? d.barometerFaultSpeed
        barometerStuckTime = try c.decodeIfPresent(Double.self, forKey: .barometerStuckTime) ?? d.barometerStuckTime
        barometerStuckRestTime =
            try c.decodeIfPresent(Double.self, forKey: .barometerStuckRestTime) ?? d.barometerStuckRestTime
    }

    /// Checks every threshold is finite and positive.
    ///
    /// - Throws: `AltitudeModelError.invalidParameter` naming the first offending threshold.
    public func validate() throws(AltitudeModelError) {
        let all: [(String, Double)] = [
            ("gps_reset_time", gpsResetTime), ("gps_reset_agreement", gpsResetAgreement),
            ("baro_step_time", barometerStepTime), ("baro_fault_speed", barometerFaultSpeed),
            ("baro_stuck_time", barometerStuckTime), ("baro_stuck_rest_time", barometerStuckRestTime),
        ]
        for (name, v) in all where !(v.isFinite && v > 0) {
            throw .invalidParameter(name: "fault_thresholds.\(name)", value: v, expected: "a finite number > 0")
        }
    }
}
