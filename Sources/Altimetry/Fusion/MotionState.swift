import StateEstimation

/// Whether the device moves, from the barometer itself: its vertical speed against its noise.
///
/// Two smoothed rates of the barometer's measurement z = B − U (metres of log-pressure, so −dz/dt is the climb
/// rate while the weather stands still), both exponential smoothers of the rate between readings,
///
///     v ← v + α (−Δz/Δt − v),   α = min(1, Δt/T),
///
/// - the velocity v over T_v = `AltitudeModelParameters.barometricVelocityTime` (10 s), the known input that moves
///   the altitude between readings while the device moves, and whose speed sets the altitude walk's density
///   (`AltitudeModelParameters.altitudeNoiseDensity(atVerticalSpeed:restDensity:)`);
/// - the rest rate r over the window W = max(60 s, 4 Δt), which decides whether the device is at rest.
///
/// For white noise of variance σ² on z, an exponential smoother of rates over W has variance 2σ²/(W²(2 − α)),
/// about σ²/W²: the rest rate's noise is σ_r = σ/W (6 mm/s for the 0.37 m of a logger's LPS28DFW over a minute).
/// The device comes to rest once |r| ≤ v_rest = 4 σ_r + v_w has held for `settleTime` (10 min), and moves again as
/// soon as it does not, with v_w = 6 hPa/h, the fastest the weather moves the pressure (a passing cold front's fall
/// reaches 3 to 6 hPa in an hour), in metres a second: 6 × 8.3 m/3,600 s = 14 mm/s. A still barometer through a front
/// then stays at rest, and its fall is the weather's; a climb slower than that (50 m an hour) is taken as weather
/// until the GPS re-levels it, and the rest density below allows for it. Four sigmas: a device at rest is called moving once in 30,000
/// independent windows. The settle time is the prior that rest is long and motion comes in bouts, as the
/// zero-velocity detectors of pedestrian navigation assume: a car on a rolling road or a walker on the flat, whose
/// rate dips below the threshold for a minute at a time, never settles, while a logger on a desk or a phone on a
/// table does within minutes.
///
/// At rest, no velocity is applied (a rest rate within noise and weather is not motion) and the altitude walks with
/// the density of what the test cannot see, a motion of v_rest/4 sustained over the window: q_rest = (v_rest/4)² W,
/// 0.0028 m²/s for that logger (3 m/√h, a third of the weather's 8 m/√h). A barometer's change at rest then goes mostly to
/// the weather: the barometer measures the weather there, and the GPS averages over the whole rest. Moving, the
/// velocity moves the altitude and the walk has q(v).
public struct MotionState: Sendable, Equatable, Codable {
    /// The barometric velocity v, dU/dt in m/s (positive up).
    public private(set) var velocity = 0.0
    /// The rest rate r, in m/s (positive up).
    public private(set) var restRate = 0.0
    /// Whether the device is at rest (see the type's discussion); false before two readings.
    public private(set) var isAtRest = false
    /// The time (s) and measurement z (m) of the last pressure.
    public private(set) var last: Reading?
    /// Readings taken so far since the last restart.
    private var count = 0
    /// Since when the rest rate has stayed within the threshold, in seconds; nil while it does not.
    private var quietSince: Double?
    /// How long the rest rate must stay within the threshold before the device is at rest, in seconds.
    public static let settleTime: Seconds = 600

    /// A pressure reading's time in seconds and its measurement z in metres of log-pressure.
    public struct Reading: Sendable, Equatable, Codable {
        /// The reading's time, in seconds.
        public var time: Double
        /// The measurement z = B − U, in metres of log-pressure.
        public var measurement: Double
    }

    /// The shortest rest window, in seconds.
    static let minimumRestWindow: Seconds = 60
    /// v_w, the fastest weather tendency, 6 hPa/h, in metres of log-pressure a second at standard QNH.
    static let weatherRate = 6 * AltitudeModel.weatherScale / 3_600

    /// A state before any reading: no velocity, not at rest.
    public init() {}

    /// The rest test's threshold v_rest and the rest density q_rest (m/s, m²/s) for a barometer of noise variance
    /// `noiseVariance` (m²) read every `interval` seconds.
    static func restThreshold(noiseVariance: Double, interval: Seconds) -> (speed: Double, density: Double) {
        let window = max(minimumRestWindow, 4 * interval)
        let speed = 4 * noiseVariance.squareRoot() / window + weatherRate
        let quarter = speed / 4
        return (speed, quarter * quarter * window)
    }

    /// The rest density q_rest in m²/s for the barometer's noise (see the type's discussion).
    public func restDensity(noiseVariance: Double) -> Double {
        Self.restThreshold(noiseVariance: noiseVariance, interval: interval).density
    }

    /// The interval between the last two readings, in seconds (1 s before two).
    private var interval: Seconds = 1

    /// Takes a fused pressure's measurement `z` (metres of log-pressure) at `time`, with the barometer's noise
    /// variance (m²); `velocityTime` is T_v (zero: no velocity).
    public mutating func observe(time: Double, measurement z: Double, noiseVariance: Double, velocityTime: Seconds) {
        defer {
            last = Reading(time: time, measurement: z)
            count += 1
        }
        guard let last, time > last.time else { return }
        let dt = time - last.time
        // A step of 10⁻³²² s (a subnormal number) makes the rate infinite: no rate is measured over it.
        let rate = -(z - last.measurement) / dt
        guard rate.isFinite else { return }
        interval = dt
        if velocityTime > 0 { velocity += min(1, dt / velocityTime) * (rate - velocity) }
        let (threshold, _) = Self.restThreshold(noiseVariance: noiseVariance, interval: dt)
        let window = max(Self.minimumRestWindow, 4 * dt)
        restRate += min(1, dt / window) * (rate - restRate)
        if abs(restRate) <= threshold {
            if quietSince == nil { quietSince = time }
        } else {
            quietSince = nil
        }
        isAtRest = quietSince.map { time - $0 >= Self.settleTime } ?? false
    }

    /// Whether the velocity still vouches for the motion at `time`: measured (from two pressures at least) and
    /// within T_v of the last pressure. A single pressure says nothing of the motion: its velocity of zero is no rest.
    public func velocityHolds(at time: Double, velocityTime: Seconds) -> Bool {
        guard let last, velocityTime > 0, count >= 2 else { return false }
        return time - last.time <= velocityTime
    }

    /// Forgets the readings (after a barometer step, or while it is stuck): no velocity, not at rest.
    public mutating func restart() {
        velocity = 0
        restRate = 0
        isAtRest = false
        last = nil
        count = 0
        quietSince = nil
    }
}
