import Foundation

/// The altitude filter's watch over its own sensors and its own confidence: barometer steps, spikes and stuck
/// values, GPS jumps, lock-out and an unsettled start.
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
///   the filter resets to the fixes as they are. A run nearer the filter's altitude than the fixes before it is no
///   jump but the GPS coming back from an excursion that e had absorbed: the filter resets to it.
/// - **Lock-out.** A run of refused fixes with none accepted, lasting `lockoutResetTime`, at least 5 fixes, that
///   agree with each other (90 % on one side, their spread under half their mean) and whose level is beyond what the
///   GPS error model explains (`isBeyondGPSError`) makes the filter reset its altitude to their recent median once
///   they hold still (`isSteady`). A
///   single wild fix, a burst shorter than the reset time, or a run a correlated error of the model's size explains
///   is still refused.
/// - **Consistency (the robust start).** Fixes that pass the gate can still betray a wrong filter while its level is
///   young: a receiver's cold-start offset that fades over a minute is absorbed by the GPS-error state e and followed
///   only as fast as e's correlation time lets the weather state learn it (ten minutes for 60 m). The innovations
///   are then one-sided, which a filter whose model holds never shows for long: Z, the innovations' normalised sum
///   over the last minute (exponential weights), is N(0, 1), and the estimate ê is N(0, σ_e² − P_ee); either beyond
///   `consistencyThreshold`, within 10 τ of the first fix accepted since the start or the last reset, once the fixes
///   hold still (`isSteady`), makes the filter reset to the recent fixes. An established level rests on ten and more
///   independent GPS samples: a one-sided run that the gate still accepts is then as likely the receiver's slow
///   error (indoors it wanders by 30 to 50 m for minutes) as the filter's, and the filter's own update weighs it.
/// - **Unsettled start.** Until the fixes of a young level first hold still, a move of their lifts beyond 4 sigmas of
///   what the GPS error model allows holds the level open: the filter keeps its altitude variance at the move squared
///   at least (`unsteadyStartVariance(at:)`), so that a fade too slow for the consistency test, a logger's at a fix
///   every 30 s, is followed with a sigma that says so.
///
/// A reset moves the altitude by the median residual r = z − k h₀(U) of the recent fixes (the fix against the
/// filter's altitude without its estimate of e), forgets e, and widens the altitude by the shift and the
/// residuals' spread, so that the next fixes, not the discredited estimate, set the level.
public struct SensorFaultMonitor: Sendable, Equatable, Codable {
    /// Every episode so far, in order of start.
    public private(set) var episodes: [FilterEpisode] = []

    /// What the last reading did (reset by `beginReading()`).
    public internal(set) var status: AltitudeFilterStatus = []

    /// The accepted fixes' lifts kept for the consistency reset's steadiness test (`isSteady`): 64 fixes, about one
    /// correlation time τ of the GPS error at 1 Hz, where a receiver's fading cold start shows against e's change. A
    /// refused run keeps 16: over 64, a long τ's small allowance held a real drive's refused runs off (Docs/model.md).
    static let liftCount = 64
    let faultSpeed: Double
    let stuckTime: Double
    let lockoutTime: Double
    let consistencyThreshold: Double
    let weatherNoiseDensity: Double
    /// Seconds after the start or a reset during which the consistency test watches the accepted fixes: 10 τ.
    var youngLevelTime: Double { 10 * gpsCorrelationTime }
    /// The GPS error model in use: the correlated error's stationary variance σ_e² (m²) and correlation time τ (s).
    let gpsErrorVariance: Double
    let gpsCorrelationTime: Double
    /// The GPS's white variance σ_w², in m².
    let gpsWhiteVariance: Double

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
    /// The lifts (fix less pressure altitude) of the last 16 accepted fixes.
    var recentLifts = RecentValues(capacity: SensorFaultMonitor.liftCount)
    /// When the lifts of the fixes accepted since the start or the last reset first held still (`isSteady`); nil
    /// before, while the level's start is unsettled (`unsteadyStartVariance(at:)`).
    var heldStillSince: Double?
    /// The time of the last fix at which the level was held open (`unsteadyStartVariance(at:)`), nil before.
    var heldOpenAt: Double?
    /// The consistency test's weighted sum of normalised innovations, its sum of squared weights, and its time.
    var consistencySum = 0.0
    var consistencyWeight = 0.0
    var consistencyTime: Double?

    /// The last 16 values of a series, a ring, with their median, spread and the time they span.
    struct RecentValues: Sendable, Equatable, Codable {
        var values: [Double]
        var times: [Double]
        var count = 0

        /// The ring's size unless a capacity is given: the last 16 values.
        static let defaultCapacity = 16

        /// An empty ring of `capacity` values.
        init(capacity: Int = defaultCapacity) {
            values = [Double](repeating: 0, count: capacity)
            times = [Double](repeating: 0, count: capacity)
        }

        /// A ring as a checkpoint saved it, refused unless it holds at least one value, as many times as values,
        /// and a count of 0 or more: a corrupt or hand-edited `--resume` file must not index outside the ring.
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            values = try container.decode([Double].self, forKey: .values)
            times = try container.decode([Double].self, forKey: .times)
            count = try container.decode(Int.self, forKey: .count)
            guard !values.isEmpty, values.count == times.count, count >= 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .values, in: container,
                    debugDescription: "expected at least one value, as many times as values, and a count of 0 or more")
            }
        }

        mutating func add(_ value: Double, at time: Double) {
            values[count % values.count] = value
            times[count % values.count] = time
            count += 1
        }

        /// The medians of the older and the newer half of the values kept, in order of arrival (both the median of
        /// all with fewer than 4).
        var halves: (older: Double, newer: Double) { halves(ofLast: values.count) }

        /// The medians of the older and the newer half of the last `m` values kept (all of them if fewer), in order
        /// of arrival; both the median of all with fewer than 4.
        func halves(ofLast m: Int) -> (older: Double, newer: Double) {
            let n = min(count, values.count, m)
            guard n >= 4 else { return (self.median, self.median) }
            // In order of arrival: the oldest of the last n is at `count - n` modulo the ring's size. Sorted in a
            // scratch buffer: the fault rules ask for these medians at most fixes, in every member of the bank.
            return withUnsafeTemporaryAllocation(of: Double.self, capacity: n) { ordered in
                for k in 0..<n { ordered[k] = values[(count - n + k) % values.count] }
                func median(_ s: inout Slice<UnsafeMutableBufferPointer<Double>>) -> Double {
                    s.sort()
                    let mid = s.startIndex + s.count / 2
                    return s.count % 2 == 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2
                }
                var older = ordered[..<(n / 2)], newer = ordered[(n / 2)..<n]
                return (median(&older), median(&newer))
            }
        }

        /// Seconds from the oldest value kept to the newest.
        var span: Double { span(ofLast: values.count) }

        /// Seconds from the oldest of the last `m` values kept (all of them if fewer) to the newest.
        func span(ofLast m: Int) -> Double {
            let n = min(count, values.count, m)
            guard n > 1 else { return 0 }
            return times[(count - 1) % times.count] - times[(count - n) % times.count]
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
        /// The lifts (fix less pressure altitude) of the last 16 refused fixes.
        var lifts = RecentValues()

        mutating func add(_ innovation: Double, residual: Double, lift: Double, at time: Double) {
            if count == 0 { startTime = time }
            residuals.add(residual, at: time)
            lifts.add(lift, at: time)
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
        /// Widen the filter's level, without moving it, until its altitude variance is at least `variance` m²
        /// (`unsteadyStartVariance(at:)`).
        case holdLevelOpen(variance: Double)
    }

    init(parameters: AltitudeModelParameters) {
        faultSpeed = parameters.barometerFaultSpeed
        stuckTime = parameters.barometerStuckTime
        lockoutTime = parameters.lockoutResetTime
        consistencyThreshold = parameters.consistencyThreshold
        weatherNoiseDensity = parameters.weatherNoiseDensity
        gpsErrorVariance = parameters.gpsErrorStandardDeviation * parameters.gpsErrorStandardDeviation
        gpsCorrelationTime = parameters.gpsCorrelationTime
        gpsWhiteVariance = parameters.gpsWhiteNoiseStandardDeviation * parameters.gpsWhiteNoiseStandardDeviation
    }

    /// Whether the fixes have stopped moving against the barometer: of their lifts (fix less pressure altitude,
    /// which any real motion leaves alone), the newer half's median within 2 sigmas of the older half's, the sigma
    /// being what the correlated GPS error changes over half their span, σ_e √(2 (1 − exp(−Δ/τ))), with the white
    /// noise of the two halves' medians; over the last 16 lifts and over all kept (64 for the accepted fixes).
    ///
    /// A receiver's cold-start offset that fades over a minute or two is still moving: a reset to its median
    /// then leaves the rest of the fade to be learned as slowly as a GPS error (ten minutes for 60 m). Waiting until
    /// the fixes hold still puts the level where they settle. The lifts, not the residuals against the filter,
    /// which partly follows a fade and hides it.
    func isSteady(_ lifts: RecentValues) -> Bool {
        Self.liftWindows(lifts).allSatisfy { m in
            let (move, variance) = liftMove(lifts, overLast: m)
            return !(move * move > 4 * variance)
        }
    }

    /// The windows the lift tests look over (`isSteady`, `unsteadyStartVariance(at:)`), as counts of the last lifts:
    /// the last 16, which see a change of the last few seconds, and all kept, which see a fade too slow for 16. While
    /// no more than 16 have come the two hold the same lifts, and one window is looked at.
    static func liftWindows(_ lifts: RecentValues) -> [Int] {
        let short = RecentValues.defaultCapacity
        return lifts.count > short ? [short, lifts.values.count] : [short]
    }

    /// The fixes' move against the barometer over the last `m` of `lifts`: the newer half's median less the older
    /// half's, in metres, and the variance the GPS error model allows that move, m²: what the correlated error changes
    /// over half their span, 2σ_e² (1 − exp(−Δ/τ)), and the white noise of the two halves' medians, 4σ_w²/n.
    func liftMove(_ lifts: RecentValues, overLast m: Int) -> (move: Double, variance: Double) {
        let half = lifts.span(ofLast: m) / 2
        let n = Double(max(2, min(lifts.count, lifts.values.count, m)))
        let variance = 2 * gpsErrorVariance * -expm1(-half / gpsCorrelationTime) + 4 * gpsWhiteVariance / n
        let h = lifts.halves(ofLast: m)
        return (h.newer - h.older, variance)
    }

    /// The altitude variance, in m², below which a young level must not fall while its fixes move against the
    /// barometer far beyond what the GPS error model allows; nil where they do not.
    ///
    /// A receiver's cold-start offset that fades over minutes moves every fix against the barometer, which neither
    /// motion nor weather does, and the filter's update takes each fix for an independent look at a steady level:
    /// at a logger's cadence (a fix every 30 s, a 10 m / 60 s error model) ten fading fixes set the level to ±5 m
    /// where the fade left it, tens of metres off, and the good fixes after the fade take tens of minutes to undo
    /// it. While the level is young (`youngLevelTime` since the first fix accepted since the start or the last
    /// reset) and the last 16 lifts, or all kept, have moved by d beyond `unsteadySigmas` of what the model allows,
    /// the level is known no better than d: the filter holds its altitude variance at d² at least, so that the next
    /// fix moves it most of the way, and the level follows the fade with a sigma that says so. `acceptedFix` asks only
    /// until the fixes first hold still (`heldStillSince`); from then on the filter learns the level as usual, and the
    /// consistency test watches it.
    func unsteadyStartVariance(at time: Double) -> Double? {
        // Six lifts at least, three a half: one wild fix among them moves neither half's median.
        guard recentLifts.count >= 6, time - (establishedSince ?? time) <= youngLevelTime else { return nil }
        var floor = 0.0
        for m in Self.liftWindows(recentLifts) {
            let (move, variance) = liftMove(recentLifts, overLast: m)
            if move * move > Self.unsteadySigmas * Self.unsteadySigmas * variance { floor = max(floor, move * move) }
        }
        return floor > 0 ? floor : nil
    }

    /// The move of the lifts, in sigmas of what the GPS error model allows, beyond which a young level is held open
    /// (`unsteadyStartVariance(at:)`): 4, against the steadiness test's 2, so that a receiver that behaves as the
    /// model says holds a level open about once in 16,000 looks.
    static let unsteadySigmas = 4.0

    /// Whether the level difference `shift` (metres) between recent fixes and the filter, the median of `residuals`,
    /// is more than the GPS error model and the filter's own uncertainty can explain.
    ///
    /// Under the model the mean residual of fixes spanning T seconds is the filter's altitude error (variance P_hh)
    /// plus the mean of the correlated GPS error over T, whose variance is σ_e² f(T/τ) with
    /// f(x) = 2 (x − 1 + e^{−x})/x² (1 for T ≪ τ, 2τ/T for T ≫ τ), plus the white part, about s²/N for N fixes of
    /// spread s. A reset needs |shift| beyond `consistencyThreshold` times its square root: a one-sided run of fixes
    /// whose level is within what the correlated error allows (a receiver whose error wanders slowly indoors) is the
    /// GPS's error, not the filter's, and the filter's own update already weighs it.
    func isBeyondGPSError(shift: Double, residuals: RecentValues, altitudeVariance: Double) -> Bool {
        let x = residuals.span / gpsCorrelationTime
        let f = x < 1e-4 ? 1 - x / 3 : 2 * (x + expm1(-x)) / (x * x)
        let n = Double(max(1, min(residuals.count, residuals.values.count)))
        let spread = residuals.spread
        let variance = max(0, altitudeVariance) + gpsErrorVariance * f + spread * spread / n
        return shift * shift > consistencyThreshold * consistencyThreshold * variance
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
        altitudeVariance: Double, at time: Double
    ) -> RefusalAction {
        lastAcceptedTime = time
        lastAcceptedInnovation = nu
        lastAcceptedLift = lift
        acceptedSinceReset += 1
        if establishedSince == nil { establishedSince = time }
        // An empty run is a fresh one (only `add` changes it); replacing it would allocate its ring every fix.
        if run.count > 0 { run = RefusedRun() }
        recent.add(r, at: time)
        recentLifts.add(lift, at: time)
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
        // Only while the level is young: within `consistencyTime` of the first fix accepted since the start or the
        // last reset, when it rests on a few minutes of fixes (a receiver's cold start can set it). An established
        // level rests on many independent fixes; one-sided fixes that the gate still accepts are then the filter's
        // own update's to weigh, and refused ones the lock-out rule's.
        if heldStillSince == nil {
            if recentLifts.count >= 4, isSteady(recentLifts) {
                heldStillSince = time
            } else if let floor = unsteadyStartVariance(at: time) {
                heldOpenAt = time
                return .holdLevelOpen(variance: floor)
            }
        }
        guard acceptedSinceReset >= 30, time - (establishedSince ?? time) <= youngLevelTime, oneSided || farOut,
            isSteady(recentLifts)
        else { return .none }
        return reset(at: time, shift: recent.halves.newer, spread: recent.spread)
    }

    /// Records one of the first, ungated fixes that lies beyond the gate, whose residual against the filter's
    /// altitude is `residual` metres, and resets to it (`AltitudeFilter.relevelAtWildStartFix`).
    mutating func wildStartFix(residual: Double, at time: Double) -> RefusalAction {
        // The lifts are the fixes against the barometer, whatever the filter's level: a fade that the re-level cut
        // short still shows in them (`unsteadyStartVariance(at:)`).
        let lifts = recentLifts
        let action = reset(at: time, shift: residual, spread: 0)
        recentLifts = lifts
        return action
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
        lift: Double, barometerSteady: Bool, altitudeVariance: Double, at time: Double
    ) -> RefusalAction {
        let threshold = max(50, 10 * S.squareRoot())
        if run.count == 0, barometerSteady, let last = lastAcceptedTime, time - last <= 10, acceptedSinceReset >= 60,
            time - (establishedSince ?? time) >= 600,
            abs(nu - lastAcceptedInnovation) > threshold, abs(lift - lastAcceptedLift) > threshold
        {
            run.abrupt = true
        }
        run.add(nu, residual: r, lift: lift, at: time)
        // A run during which the barometer moves fast (a free fall that the smoothed velocity showed late) is the
        // filter lagging, not the GPS jumping: the lock-out rule handles it.
        if !barometerSteady { run.abrupt = false }
        if run.abrupt {
            guard run.count >= 5, time - run.startTime >= 5, run.agrees else { return .none }
            let before = recent.count > 0 ? recent.median : 0
            // Fixes nearer the filter's altitude than those before them are the GPS coming back from an excursion
            // that e had absorbed, not a jump of its datum: anchoring on them would keep the excursion for good.
            if abs(run.residuals.median) < abs(before) {
                return reset(at: time, shift: run.residuals.halves.newer, spread: run.residuals.spread)
            }
            let jump = run.residuals.median - before
            episodes.append(
                FilterEpisode(
                    kind: .gpsJump, startTime: run.startTime, endTime: time, sizeMeters: jump, isActive: false))
            status.insert(.gpsJump)
            anchor.add(jump, at: run.startTime)
            // The run's fixes are the new datum's, not the filter's error: the next accepted fix starts afresh.
            run = RefusedRun()
            recent = RecentValues()
            recentLifts = RecentValues(capacity: Self.liftCount)
            return .reanchorGPS(jump: jump)
        }
        guard time - run.startTime >= lockoutTime, run.count >= 5, run.agrees, isSteady(run.lifts),
            isBeyondGPSError(
                shift: run.residuals.median, residuals: run.residuals, altitudeVariance: altitudeVariance)
        else { return .none }
        return reset(at: time, shift: run.residuals.halves.newer, spread: run.residuals.spread)
    }

    private mutating func reset(at time: Double, shift: Double, spread: Double) -> RefusalAction {
        episodes.append(FilterEpisode(kind: .reset, startTime: time, endTime: time, sizeMeters: shift, isActive: false))
        status.insert(.reset)
        forgetLevel()
        return .reset(shift: shift, variance: shift * shift + spread * spread)
    }

    /// Whether a fix accepted since the start or the last reset has set the filter's level.
    var hasLevel: Bool { acceptedSinceReset > 0 }

    /// Forgets the fixes behind the filter's level (its refused run, recent residuals and lifts, acceptance counts
    /// and consistency sums): at a reset, and where the filter starts over at its first pressure.
    mutating func forgetLevel() {
        run = RefusedRun()
        recent = RecentValues()
        recentLifts = RecentValues(capacity: Self.liftCount)
        acceptedSinceReset = 0
        establishedSince = nil
        heldStillSince = nil
        lastAcceptedTime = nil
        consistencySum = 0
        consistencyWeight = 0
    }
}
