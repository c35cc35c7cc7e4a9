import Foundation

/// The altitude filter's fault handling, as PX4's EKF2 and ArduPilot's EKF handle their height sources: one
/// innovation test per sensor, a fault as a run of failed tests counted in time, and one reset per source.
///
/// It decides; `AltitudeFilter` acts. Every reading's innovation ν is tested against the gate g
/// (`AltitudeModelParameters.gateStandardDeviations`) by its test ratio ν²/(g² S); a reading whose ratio exceeds 1
/// fails and is not fused. What a run of failures means, with the thresholds of `FaultThresholds`:
///
/// - **Barometer spike or step.** A pressure fails when its ratio exceeds 1 *and* |ν| exceeds
///   `barometerFaultSpeed` × max(Δt, 1 s): no vertical motion explains it; once a run has begun, a pressure beyond
///   the gate whose innovation stays within that speed of the run's median continues it (the sensor's offset stays,
///   where motion would ramp). A run of failures shorter than
///   `barometerStepTime` is a spike: rejected, then forgotten when the readings pass again. A run that lasts is a
///   step of the sensor: its offset is re-anchored by the run's median innovation and the readings are fused again.
///   A spike therefore never re-anchors the barometer, at the start of a track or anywhere.
/// - **Stuck barometer.** Bit-identical pressures for `barometerStuckTime` while the GPS shows the device moving
///   (the fixes moved by more than three of their spreads since the run began, e's own change over the run
///   counted), or for `barometerStuckRestTime` whatever the GPS says. A quantised barometer at rest repeats its value
///   for minutes with the GPS still: not stuck. A stuck barometer's readings are set aside until the value changes.
/// - **GPS run and reset.** Fixes that fail are rejected. Once fixes have failed for `gpsResetTime` with none
///   accepted, the filter's altitude is discredited, unless the fixes disagree among themselves: if their residuals
///   r = z − h (the fix less the filter's altitude, without its estimate of e) scatter about their mean by at
///   most `gpsResetAgreement` times the receiver's spread over the run
///   (`GPSReceiverModel.runStandardDeviation(over:whiteVariance:)`), the filter resets its altitude to them (shifts
///   it by the median of its last `gpsResetTime` seconds, forgets e, and widens the altitude by the residuals'
///   scatter and e's spread). The scatter is the run's last `gpsResetTime` seconds', each residual weighted by
///   exp(−age/`gpsResetTime`), so that a receiver that converges (a ramp that then holds) agrees once it holds, at
///   any rate of fixes. A GPS that
///   glitches by hundreds of metres, or ramps away from its fix, scatters by far more, and is rejected for as long as
///   it does.
///
/// Every run is an episode (`FilterEpisode`), and the reading's `status` says what was done to it.
public struct FaultMonitor: Sendable, Equatable, Codable {
    /// The thresholds.
    public let thresholds: FaultThresholds
    /// The last episodes, in order of start (at most `episodeCapacity`; `episodeCounts` counts them all).
    public private(set) var episodes: [FilterEpisode] = []
    /// Episodes so far, by kind (including those no longer in `episodes`).
    public private(set) var episodeCounts: [FilterEpisode.Kind: Int] = [:]
    /// What the last reading did (cleared by `beginReading()`).
    public internal(set) var status: AltitudeFilterStatus = []
    /// The most episodes kept: a saved state stays small however long the track.
    static let episodeCapacity = 64
    /// The most innovations or residuals a run keeps for its median and scatter: a timeout's worth at 5 Hz.
    static let runCapacity = 64

    /// A run of failed tests: when it began, its latest time, the last values, the index of its episode.
    struct Run: Sendable, Equatable, Codable {
        var start: Double
        var end: Double
        /// The values of the last `memory` seconds (at most `runCapacity`), for the median, and their times.
        var values: [Double] = []
        var times: [Double] = []
        var episode: Int?
        /// The count of values, and their mean and variance weighted by exp(−age/T) with T = `memory` seconds
        /// (West's incremental update, weight 1 − exp(−Δt/T) on each new value): the scatter of the run's last T
        /// seconds, whatever the fixes' rate, so that a run that ramped and then settled agrees once it has settled.
        var count = 0.0
        var mean = 0.0
        var variance = 0.0
        var memory: Double

        mutating func add(_ value: Double, at time: Double) {
            let weight = count == 0 ? 1 : -expm1(-max(time - end, 0) / memory)
            end = time
            values.append(value)
            times.append(time)
            let stale = times.firstIndex { $0 >= time - memory } ?? 0
            let drop = max(stale, values.count - FaultMonitor.runCapacity)
            values.removeFirst(drop)
            times.removeFirst(drop)
            count += 1
            let delta = value - mean
            let increment = weight * delta
            mean += increment
            variance = (1 - weight) * (variance + delta * increment)
        }

        var median: Double {
            let sorted = values.sorted()
            let n = sorted.count
            return n == 0 ? 0 : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
        }

        /// The weighted standard deviation of the run's values about their weighted mean, in their unit.
        var scatter: Double { variance.squareRoot() }

        /// Whether a decoded run's weighted statistics can be used: a memory > 0 and a finite, non-negative variance.
        var isValid: Bool {
            memory > 0 && memory.isFinite && variance >= 0 && variance.isFinite && mean.isFinite
                && times.count == values.count
        }

        /// The seconds the weighted scatter stands for: the run's duration, at most the memory T.
        var span: Double { min(end - start, memory) }
    }

    private var barometerRun: Run?
    private var gpsRun: Run?
    /// The run of bit-identical pressures: the value, since when, and the fix at its start.
    private var repeated: (pressure: Double, since: Double, fix: Double?, episode: Int?)?
    private var lastFix: (time: Double, altitude: Double)?

    /// A monitor with `thresholds`.
    public init(thresholds: FaultThresholds) {
        self.thresholds = thresholds
    }

    /// Clears the reading's status.
    mutating func beginReading() { status = [] }

    /// What to do with a pressure.
    enum PressureVerdict: Equatable {
        /// Fuse it.
        case fuse
        /// Do not fuse it (a failed test, or a stuck sensor).
        case reject
        /// The barometer stepped: add `offset` (metres of log-pressure) to its offset, then fuse it.
        case reanchor(offset: Double)
    }

    /// Judges a pressure of `pressure` hPa at `time`, with innovation `innovation` (m), its variance `variance` (m²)
    /// and the time since the last fused pressure `interval` (s); `gate` is g, and `gpsMotionAllowance(T)` is how
    /// far the fixes wander over T seconds (m), for the stuck test.
    mutating func judgePressure(
        _ pressure: Double, at time: Double, innovation: Double, variance: Double, interval: Double, gate: Double,
        gpsMotionAllowance: (Double) -> Double
    ) -> PressureVerdict {
        if isStuck(pressure, at: time, gpsMotionAllowance: gpsMotionAllowance) {
            status.insert(.barometerStuck)
            return .reject
        }
        // Beyond the gate, and either faster than any motion since the last fused pressure, or repeating the run's
        // offset: the time since the last fused pressure grows while a run is refused, so a step that stays would
        // otherwise pass for motion after a few seconds, though motion would have shown as a ramp, not a level.
        let speed = thresholds.barometerFaultSpeed
        let continuesRun = barometerRun.map { abs(innovation - $0.median) <= speed * max(time - $0.end, 1) } ?? false
        let fails =
            innovation * innovation > gate * gate * variance
            && (abs(innovation) > speed * max(interval, 1) || continuesRun)
        guard fails else {
            if let run = barometerRun { record(.barometerSpike, run, size: run.median) }
            barometerRun = nil
            return .fuse
        }
        var run = barometerRun ?? Run(start: time, end: time, memory: thresholds.barometerStepTime)
        run.add(innovation, at: time)
        barometerRun = run
        guard time - run.start >= thresholds.barometerStepTime else {
            status.insert(.barometerSpike)
            return .reject
        }
        record(.barometerStep, run, size: -run.median)
        barometerRun = nil
        status.insert(.barometerStep)
        return .reanchor(offset: run.median)
    }

    /// Whether `pressure` continues a run of bit-identical readings long enough to be stuck (see the type).
    private mutating func isStuck(_ pressure: Double, at time: Double, gpsMotionAllowance: (Double) -> Double) -> Bool {
        guard var run = repeated, run.pressure == pressure else {
            if let episode = repeated?.episode { episodes[safe: episode]?.isActive = false }
            repeated = (pressure, time, lastFix?.altitude, nil)
            return false
        }
        let duration = time - run.since
        // Once stuck, set aside until the value changes: the fixes' wander does not un-stick it.
        if let episode = run.episode {
            episodes[safe: episode]?.endTime = time
            return true
        }
        let moved: Bool = {
            guard let start = run.fix, let now = lastFix, now.time > run.since else { return false }
            return abs(now.altitude - start) > 3 * gpsMotionAllowance(duration)
        }()
        guard (duration >= thresholds.barometerStuckTime && moved) || duration >= thresholds.barometerStuckRestTime
        else { return false }
        run.episode = append(
            FilterEpisode(kind: .barometerStuck, startTime: run.since, endTime: time, sizeMeters: 0, isActive: true))
        repeated = run
        return true
    }

    /// What to do after a GPS fix.
    enum FixVerdict: Equatable {
        /// Nothing.
        case none
        /// Reset the altitude by `shift` metres, widening it by `variance` m² beyond e's spread.
        case reset(shift: Double, variance: Double)
    }

    /// Judges a fix at `time` of altitude `fix` (m) with residual `residual` = fix − h (m), accepted or not by the
    /// gate; `runSpread(T)` is how far the receiver's fixes scatter about their own mean over a run of T seconds, in
    /// metres (`GPSReceiverModel.runStandardDeviation(over:whiteVariance:)`).
    mutating func judgeFix(
        fix: Double, residual: Double, accepted: Bool, at time: Double, runSpread: (Double) -> Double
    ) -> FixVerdict {
        lastFix = (time, fix)
        guard !accepted else {
            if let run = gpsRun, run.values.count > 1 { record(.gpsJump, run, size: run.median) }
            gpsRun = nil
            return .none
        }
        var run = gpsRun ?? Run(start: time, end: time, memory: thresholds.gpsResetTime)
        run.add(residual, at: time)
        gpsRun = run
        status.insert(.gpsJump)
        guard time - run.start >= thresholds.gpsResetTime, run.count >= 3,
            run.scatter <= thresholds.gpsResetAgreement * runSpread(run.span)
        else { return .none }
        record(.reset, run, size: run.median)
        gpsRun = nil
        status.insert(.reset)
        return .reset(shift: run.median, variance: run.scatter * run.scatter)
    }

    /// Records a reset that did not come from a run (the start's level discredited by the caller), for the report.
    mutating func recordReset(at time: Double, size: Double) {
        append(FilterEpisode(kind: .reset, startTime: time, endTime: time, sizeMeters: size, isActive: false))
        status.insert(.reset)
    }

    /// Forgets the runs that assume the barometer's level (after the caller re-anchored or restarted it).
    mutating func forgetBarometerRun() { barometerRun = nil }

    private mutating func record(_ kind: FilterEpisode.Kind, _ run: Run, size: Double) {
        append(FilterEpisode(kind: kind, startTime: run.start, endTime: run.end, sizeMeters: size, isActive: false))
    }

    @discardableResult
    private mutating func append(_ episode: FilterEpisode) -> Int {
        episodeCounts[episode.kind, default: 0] += 1
        episodes.append(episode)
        if episodes.count > Self.episodeCapacity {
            episodes.removeFirst()
            if let index = repeated?.episode { repeated?.episode = index > 0 ? index - 1 : nil }
        }
        return episodes.count - 1
    }

    private enum CodingKeys: String, CodingKey {
        case thresholds, episodes, episodeCounts, barometerRun, gpsRun, repeatedPressure, repeatedSince,
            repeatedFix, repeatedEpisode, lastFixTime, lastFixAltitude
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        thresholds = try c.decode(FaultThresholds.self, forKey: .thresholds)
        episodes = try c.decode([FilterEpisode].self, forKey: .episodes)
        let counts = try c.decode([String: Int].self, forKey: .episodeCounts)
        episodeCounts = Dictionary(
            uniqueKeysWithValues: counts.compactMap { key, value in
                FilterEpisode.Kind(rawValue: key).map { ($0, value) }
            })
        barometerRun = try c.decodeIfPresent(Run.self, forKey: .barometerRun)
        gpsRun = try c.decodeIfPresent(Run.self, forKey: .gpsRun)
        if let pressure = try c.decodeIfPresent(Double.self, forKey: .repeatedPressure) {
            repeated = (
                pressure, try c.decode(Double.self, forKey: .repeatedSince),
                try c.decodeIfPresent(Double.self, forKey: .repeatedFix),
                try c.decodeIfPresent(Int.self, forKey: .repeatedEpisode)
            )
        }
        if let time = try c.decodeIfPresent(Double.self, forKey: .lastFixTime) {
            lastFix = (time, try c.decode(Double.self, forKey: .lastFixAltitude))
        }
        guard episodes.count <= Self.episodeCapacity, (barometerRun?.values.count ?? 0) <= Self.runCapacity,
            (gpsRun?.values.count ?? 0) <= Self.runCapacity,
            [barometerRun, gpsRun].allSatisfy({ $0?.isValid ?? true }),
            repeated?.episode.map({ episodes.indices.contains($0) }) ?? true
        else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: c.codingPath,
                    debugDescription:
                        "fault monitor: lists longer than their capacity, or a run whose statistics are not finite"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(thresholds, forKey: .thresholds)
        try c.encode(episodes, forKey: .episodes)
        try c.encode(
            Dictionary(uniqueKeysWithValues: episodeCounts.map { ($0.key.rawValue, $0.value) }), forKey: .episodeCounts)
        try c.encodeIfPresent(barometerRun, forKey: .barometerRun)
        try c.encodeIfPresent(gpsRun, forKey: .gpsRun)
        try c.encodeIfPresent(repeated?.pressure, forKey: .repeatedPressure)
        try c.encodeIfPresent(repeated?.since, forKey: .repeatedSince)
        try c.encodeIfPresent(repeated?.fix, forKey: .repeatedFix)
        try c.encodeIfPresent(repeated?.episode, forKey: .repeatedEpisode)
        try c.encodeIfPresent(lastFix?.time, forKey: .lastFixTime)
        try c.encodeIfPresent(lastFix?.altitude, forKey: .lastFixAltitude)
    }

    public static func == (a: FaultMonitor, b: FaultMonitor) -> Bool {
        a.thresholds == b.thresholds && a.episodes == b.episodes && a.episodeCounts == b.episodeCounts
            && a.status == b.status && a.barometerRun == b.barometerRun && a.gpsRun == b.gpsRun
            && a.repeated?.pressure == b.repeated?.pressure && a.repeated?.since == b.repeated?.since
            && a.repeated?.fix == b.repeated?.fix && a.repeated?.episode == b.repeated?.episode
            && a.lastFix?.time == b.lastFix?.time && a.lastFix?.altitude == b.lastFix?.altitude
    }
}

extension Array {
    /// The element at `index`, or nil outside the array; setting nil or outside does nothing.
    fileprivate subscript(safe index: Int) -> Element? {
        get { indices.contains(index) ? self[index] : nil }
        set { if let newValue, indices.contains(index) { self[index] = newValue } }
    }
}
