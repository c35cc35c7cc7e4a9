import Foundation

/// The altitude filter's watch over its own sensors and its own confidence: barometer steps, spikes and stuck
/// values, GPS jumps, and lock-out.
///
/// It decides; `AltitudeFilter` acts (re-anchors the barometer, holds off or resets). The rules, each an answer to
/// "does anything physical explain this?":
///
/// - **Barometer step or spike.** A pressure whose innovation ν (metres of log-pressure) is beyond 10 sigmas of
///   its prediction *and* beyond `barometerFaultSpeed` × max(Δt, 1 s) since the last fused pressure is no motion:
///   the barometer's offset is re-anchored by ν and the reading is not fused. A step undone within 60 s (the
///   opposite sign, its size within a quarter) turns the episode into a spike.
/// - **Stuck barometer.** The same pressure, bit for bit, for at least 30 readings and `barometerStuckTime`
///   seconds: a sensor with 0.01 hPa of noise cannot repeat itself that long (the longest run in the real
///   recordings is 4 readings). Its readings are not fused until the value changes.
/// - **GPS jump.** A run of refused fixes that starts abruptly (the first more than max(50 m, 10 √S) from the last
///   accepted fix's innovation, that fix at most 10 s before, and at least 60 fixes and 10 minutes of accepted fixes
///   since the start or the last reset, so that a receiver's cold start, which can last that long, is never taken
///   for the truth a jump leaves; and the barometer under 10 m/s, since a filter lagging a free fall disagrees
///   abruptly too) and lasts 5 s is a jump of the receiver's datum. The GPS is re-anchored by the jump's size (the
///   run's median residual less that of the accepted fixes just before it, both against the filter's altitude and
///   seconds apart, so that the GPS's correlated error cancels) and fused again, as the barometer is after a step:
///   it goes on carrying the level instead of leaving the barometer alone with the weather. A jump back is a jump
///   too, and the anchors add. Once the weather's random walk since the first jump, 3 √(q_b t) s_B, could have
///   moved the barometer as far as the anchor (a day and more for hundreds of metres), the anchor is dropped and
///   the filter resets to the fixes as they are.
/// - **Lock-out.** A run of refused fixes with none accepted, lasting `lockoutResetTime`, at least 5 fixes, that
///   agree with each other (90 % on one side, their spread under half their mean) makes the filter reset its
///   altitude to their recent median. A single wild fix or a burst shorter than the reset time is still refused.
/// - **Consistency.** Fixes that pass the gate can still betray a wrong filter: a receiver's cold-start offset
///   that fades over a minute is absorbed by the GPS-error state e and followed only as fast as e's correlation
///   time lets the weather state learn it (ten minutes for 60 m). The innovations are then one-sided, which a
///   filter whose model holds never shows for long: Z, the innovations' normalised sum over the last minute
///   (exponential weights), is N(0, 1), and the estimate ê is N(0, σ_e² − P_ee); either beyond
///   `consistencyThreshold` makes the filter reset to the recent fixes.
///
/// A reset moves the altitude by the median residual r = z − k h₀(U) of the recent fixes (the fix against the
/// filter's altitude without its estimate of e), forgets e, and widens the altitude by the shift and the
/// residuals' spread, so that the next fixes, not the discredited estimate, set the level.
public struct SensorFaultMonitor: Sendable, Equatable, Codable {
    /// Every episode so far, in order of start.
    public private(set) var episodes: [FilterEpisode] = []

    /// What the last reading did (reset by `beginReading()`).
    public internal(set) var status: AltitudeFilterStatus = []

    let faultSpeed: Double
    let stuckTime: Double
    let lockoutTime: Double
    let consistencyThreshold: Double
    let weatherNoiseDensity: Double

    // Stuck barometer.
    var repeatedPressure: Double?
    var repeatCount = 0
    var repeatSince = 0.0
    var stuckEpisode: Int?
    /// Time of the last fused pressure.
    var lastFusedPressureTime: Double?

    // GPS.
    var lastAcceptedTime: Double?
    var lastAcceptedInnovation = 0.0
    /// The last accepted fix less the barometer's pressure altitude at it, in metres (see `refusedFix`).
    var lastAcceptedLift = 0.0
    var acceptedSinceReset = 0
    /// The first accepted fix since the start or the last reset.
    var establishedSince: Double?
    var run = RefusedRun()
    /// The GPS's re-anchored offset after jumps of its datum (`AltitudeFilter` subtracts it from every fix).
    var anchor = GPSAnchor()
    /// The residuals of the last 16 accepted fixes.
    var recent = RecentValues()
    /// The consistency test's weighted sum of normalised innovations, its sum of squared weights, and its time.
    var consistencySum = 0.0
    var consistencyWeight = 0.0
    var consistencyTime: Double?

    /// The last 16 values of a series, a ring, with their median and spread.
    struct RecentValues: Sendable, Equatable, Codable {
        var values = [Double](repeating: 0, count: 16)
        var count = 0

        mutating func add(_ value: Double) {
            values[count % values.count] = value
            count += 1
        }

        var median: Double {
            let n = min(count, values.count)
            let sorted = values.prefix(n).sorted()
            return n == 0 ? 0 : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
        }

        var spread: Double {
            let n = min(count, values.count)
            guard n > 1 else { return 0 }
            let kept = values.prefix(n)
            let mean = kept.reduce(0, +) / Double(n)
            return (kept.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(n - 1)).squareRoot()
        }
    }

    /// The sum of the GPS datum's jumps, in metres, and the time of the first.
    struct GPSAnchor: Sendable, Equatable, Codable {
        var meters = 0.0
        var since = 0.0
        var isSet = false

        mutating func add(_ jump: Double, at time: Double) {
            if !isSet { since = time }
            meters += jump
            isSet = true
        }
    }

    /// A run of refused fixes with none accepted between them.
    struct RefusedRun: Sendable, Equatable, Codable {
        var startTime = 0.0
        var count = 0
        var sum = 0.0
        var sumOfSquares = 0.0
        var positive = 0
        var abrupt = false
        /// The residuals r = z − k h₀(U) of the last 16 refused fixes.
        var residuals = RecentValues()

        mutating func add(_ innovation: Double, residual: Double, at time: Double) {
            if count == 0 { startTime = time }
            residuals.add(residual)
            count += 1
            sum += innovation
            sumOfSquares += innovation * innovation
            if innovation > 0 { positive += 1 }
        }

        var mean: Double { sum / Double(max(count, 1)) }
        var spread: Double { max(0, sumOfSquares / Double(max(count, 1)) - mean * mean).squareRoot() }
        /// 90 % on one side, and a spread under half the mean.
        var agrees: Bool {
            let side = Double(max(positive, count - positive)) / Double(max(count, 1))
            return side >= 0.9 && spread < abs(mean) / 2
        }
    }

    /// What the filter should do after a refused fix.
    enum RefusalAction: Equatable {
        case none
        /// Reset the altitude to the fixes: move the filter's altitude by `shift` metres (the fixes' median residual),
        /// forget the GPS-error estimate, and allow `variance` m² on top of the GPS's own: shift² + spread², since a
        /// filter just shown wrong by `shift` knows its level no better than that.
        case reset(shift: Double, variance: Double)
        /// Re-anchor the GPS: subtract `jump` more metres from every later fix.
        case reanchorGPS(jump: Double)
        /// Drop the GPS's anchor (subtract nothing from later fixes) and reset as `reset` does.
        case dropAnchorAndReset(shift: Double, variance: Double)
    }

    init(parameters: AltitudeModelParameters) {
        faultSpeed = parameters.barometerFaultSpeed
        stuckTime = parameters.barometerStuckTime
        lockoutTime = parameters.lockoutResetTime
        consistencyThreshold = parameters.consistencyThreshold
        weatherNoiseDensity = parameters.weatherNoiseDensity
    }

    mutating func beginReading() { status = [] }

    /// Number of episodes of each kind so far.
    public func count(of kind: FilterEpisode.Kind) -> Int { episodes.reduce(0) { $0 + ($1.kind == kind ? 1 : 0) } }

    // MARK: Barometer

    /// Whether the pressure at `time` is stuck (and must not be fused).
    mutating func isStuck(pressure: Double, at time: Double) -> Bool {
        if pressure == repeatedPressure {
            repeatCount += 1
        } else {
            repeatedPressure = pressure
            repeatCount = 1
            repeatSince = time
            if let index = stuckEpisode {
                episodes[index].endTime = time
                episodes[index].isActive = false
                stuckEpisode = nil
            }
        }
        if stuckEpisode == nil, repeatCount >= 30, time - repeatSince >= stuckTime {
            stuckEpisode = episodes.count
            episodes.append(
                FilterEpisode(
                    kind: .barometerStuck, startTime: repeatSince, endTime: time, sizeMeters: 0, isActive: true))
        }
        guard let index = stuckEpisode else { return false }
        episodes[index].endTime = time
        status.insert(.barometerStuck)
        return true
    }

    /// Whether a barometer innovation ν (m) with variance S (m²) at `time` is a step of the sensor; records it.
    mutating func isStep(innovation nu: Double, variance S: Double, at time: Double) -> Bool {
        let dt = max(1, time - (lastFusedPressureTime ?? -.infinity))
        guard nu * nu > 100 * S, abs(nu) > faultSpeed * dt else { return false }
        status.insert(.barometerStep)
        // The filter's U is −(pressure altitude), so a barometer reading ν high in B − U reads ν lower in altitude.
        let size = -nu
        if let last = episodes.indices.last, episodes[last].kind == .barometerStep,
            time - episodes[last].startTime <= 60,
            (episodes[last].sizeMeters > 0) != (size > 0),
            abs(episodes[last].sizeMeters + size) < abs(episodes[last].sizeMeters) / 4
        {
            episodes[last].kind = .barometerSpike
            episodes[last].endTime = time
        } else {
            episodes.append(
                FilterEpisode(kind: .barometerStep, startTime: time, endTime: time, sizeMeters: size, isActive: false))
        }
        return true
    }

    mutating func fusedPressure(at time: Double) { lastFusedPressureTime = time }

    // MARK: GPS

    /// Records an accepted fix (innovation ν, its variance S, and the residual r = z − k h₀(U) against the filter's
    /// altitude without its GPS-error estimate) and says whether the accepted fixes have become one-sided.
    ///
    /// Also tests the GPS-error estimate ê after the update, with variance P_ee: while the model holds ê is
    /// distributed as N(0, σ_e² − P_ee) (the stationary spread less what is still unknown), so |ê| beyond
    /// `consistencyThreshold` of that spread is e explaining a level difference it cannot have.
    mutating func acceptedFix(
        innovation nu: Double, innovationVariance S: Double, residual r: Double,
        lift: Double, gpsError: Double, gpsErrorVariance: Double, stationaryVariance: Double,
        at time: Double
    ) -> RefusalAction {
        lastAcceptedTime = time
        lastAcceptedInnovation = nu
        lastAcceptedLift = lift
        acceptedSinceReset += 1
        if establishedSince == nil { establishedSince = time }
        // An empty run is a fresh one (only `add` changes it); replacing it would allocate its ring every fix.
        if run.count > 0 { run = RefusedRun() }
        recent.add(r)
        if anchor.isSet {
            // Kept until the weather's random walk since the first jump could have moved the barometer by as much.
            let weather = 3 * (weatherNoiseDensity * (time - anchor.since)).squareRoot() * AltitudeModel.weatherScale
            if weather >= abs(anchor.meters) {
                let shift = anchor.meters + recent.median, spread = recent.spread
                anchor = GPSAnchor()
                guard case .reset(let s, let v) = reset(at: time, shift: shift, spread: spread) else { return .none }
                return .dropAnchorAndReset(shift: s, variance: v)
            }
        }
        // Z = Σ wᵢ νᵢ/√Sᵢ / √(Σ wᵢ²), weights exp(−age/60 s): N(0, 1) for the white, unit innovations of a model that holds.
        let decay = exp(-(time - (consistencyTime ?? time)) / 60)
        consistencySum = consistencySum * decay + nu / S.squareRoot()
        consistencyWeight = consistencyWeight * decay * decay + 1
        consistencyTime = time
        let spread = max(stationaryVariance - gpsErrorVariance, stationaryVariance / 4).squareRoot()
        let oneSided = abs(consistencySum) > consistencyThreshold * consistencyWeight.squareRoot()
        let farOut = abs(gpsError) > consistencyThreshold * spread
        guard acceptedSinceReset >= 30, oneSided || farOut else { return .none }
        return reset(at: time, shift: recent.median, spread: recent.spread)
    }

    /// Records a refused fix and says whether to reset.
    ///
    /// `barometerSteady`: the barometer shows under 10 m/s of vertical speed, at the run's first fix and every later
    /// one. A jump is a disagreement the barometer's own history cannot explain; in fast motion (a free fall) a
    /// lagging filter can. `lift` is the fix
    /// less the barometer's pressure altitude (metres): a jump must move it as much as the innovation, so that a
    /// filter that is itself off (after a landing, a reset) never takes the GPS's agreement with the barometer for a
    /// jump of its datum.
    mutating func refusedFix(
        innovation nu: Double, innovationVariance S: Double, residual r: Double,
        lift: Double, barometerSteady: Bool, at time: Double
    ) -> RefusalAction {
        let threshold = max(50, 10 * S.squareRoot())
        if run.count == 0, barometerSteady, let last = lastAcceptedTime, time - last <= 10, acceptedSinceReset >= 60,
            time - (establishedSince ?? time) >= 600,
            abs(nu - lastAcceptedInnovation) > threshold, abs(lift - lastAcceptedLift) > threshold
        {
            run.abrupt = true
        }
        run.add(nu, residual: r, at: time)
        // A run during which the barometer moves fast (a free fall that the smoothed velocity showed late) is the
        // filter lagging, not the GPS jumping: the lock-out rule handles it.
        if !barometerSteady { run.abrupt = false }
        if run.abrupt {
            guard run.count >= 5, time - run.startTime >= 5, run.agrees else { return .none }
            let jump = run.residuals.median - (recent.count > 0 ? recent.median : 0)
            episodes.append(
                FilterEpisode(
                    kind: .gpsJump, startTime: run.startTime, endTime: time, sizeMeters: jump, isActive: false))
            status.insert(.gpsJump)
            anchor.add(jump, at: run.startTime)
            // The run's fixes are the new datum's, not the filter's error: the next accepted fix starts afresh.
            run = RefusedRun()
            recent = RecentValues()
            return .reanchorGPS(jump: jump)
        }
        guard time - run.startTime >= lockoutTime, run.count >= 5, run.agrees else { return .none }
        return reset(at: time, shift: run.residuals.median, spread: run.residuals.spread)
    }

    private mutating func reset(at time: Double, shift: Double, spread: Double) -> RefusalAction {
        episodes.append(FilterEpisode(kind: .reset, startTime: time, endTime: time, sizeMeters: shift, isActive: false))
        status.insert(.reset)
        run = RefusedRun()
        recent = RecentValues()
        acceptedSinceReset = 0
        establishedSince = nil
        lastAcceptedTime = nil
        consistencySum = 0
        consistencyWeight = 0
        return .reset(shift: shift, variance: shift * shift + spread * spread)
    }
}
