import Foundation
import StateEstimation

/// Counts floors from altitude samples consumed one at a time, and says when it doubts the count.
///
/// **Counting** is the seed's algorithm, written in time. For each sample at time t:
///
/// 1. s(t) is the mean altitude over the last `smoothingWindow` seconds;
/// 2. once t − t₀ ≥ `rateLag`, the rate is r(t) = (s(t) − s(t − lag)) / lag, and the user is moving while
///    |r(t)| > `movingRate`;
/// 3. at the first moving sample a stretch opens at t_s = max(t₀, t − `backUp`);
/// 4. it closes at the first still sample with t − t_s > `minimumStretch`; its change s(t) − s(t_s) rounded to
///    whole floors is a transition when non-zero.
///
/// Readings of s between samples interpolate linearly, or hold across gaps longer than `maximumSampleInterval`.
/// At 1 Hz every time falls on a sample and the transitions are exactly the seed's.
///
/// **Doubting** follows the seed's exercise. Samples outside counted transitions are still; `StillnessTracker`
/// reduces them to minute-long median levels and a robust weather rate w. When the counter has been still for
/// `stillnessForUncertainty` seconds, each completed block checks the residual r: the change of level since the
/// last confident transition less the counted floors and the weather w·Δt. If |r| > `uncertaintyResidual` the
/// floor becomes uncertain (reason `.unexplainedAltitudeChange`). A transition whose weather-corrected change is
/// more than `transitionTolerance` from whole floors raises `.ambiguousTransition`. A confident transition clears
/// the doubt and restarts the residual. A still sample joins the tracker only `backUp` seconds after it arrived,
/// when no later stretch can reach back over it; a stretch that rounds to zero floors (a door's pulse) stays
/// still, so pulses neither count nor restart the ten minutes.
///
/// **Weather hook**: set `weatherTrend` (hPa/h, from the fusion's estimate) to replace the measured rate.
public struct StreamingFloorCounter: Sendable {
    /// The thresholds.
    public let configuration: FloorCounterConfiguration
    /// The current floor, counting the first sample's floor as 0.
    public private(set) var floor = 0
    /// Every transition so far, in order.
    public private(set) var transitions: [FloorTransition] = []
    /// Whether the floor is trusted.
    public private(set) var confidence: FloorConfidence = .confident
    /// The latest still residual r, in metres, once the counter has been still long enough to check it.
    public private(set) var stillResidual: Meters?
    /// The latest measured weather rate, in m/s of apparent climb (positive when pressure falls); nil until two
    /// still blocks exist.
    public private(set) var measuredWeatherRate: Double?
    /// An external estimate of the weather's pressure trend, in hPa/h (negative when pressure falls), for
    /// example the fusion's; when set it replaces the measured rate.
    public var weatherTrend: Double?

    private enum Kind: Sendable { case altitude, pressure }

    private var kind: Kind?
    private var referencePressure: Hectopascals?
    private var firstTime: Seconds?
    private var lastTime: Seconds?
    private var history: SmoothedAltitudeHistory
    /// The open stretch: its start (s) and the smoothed altitude there (m).
    private var openStretch: (start: Seconds, altitude: Meters)?
    /// Raw samples not yet handed to the tracker (they may still fall inside a stretch).
    private var pending: [(time: Seconds, altitude: Meters)] = []
    private var pendingHead = 0
    private var tracker: StillnessTracker
    /// End of the last counted transition, or the first sample's time, in seconds.
    private var stillSince: Seconds = 0

    /// A counter with the given thresholds.
    ///
    /// - Throws: `FloorCountingError.invalidConfiguration` for a threshold that is not positive and finite.
    public init(configuration: FloorCounterConfiguration = FloorCounterConfiguration()) throws(FloorCountingError) {
        try configuration.validate()
        self.configuration = configuration
        history = SmoothedAltitudeHistory(
            window: configuration.smoothingWindow,
            maximumInterval: configuration.maximumSampleInterval,
            horizon: max(configuration.rateLag, configuration.backUp))
        tracker = StillnessTracker(block: configuration.weatherBlock)
    }

    /// Whether a moving stretch is open (the user may be changing floor).
    public var isMoving: Bool { openStretch != nil }

    /// The weather rate the counter uses, in m/s of apparent climb: the external trend converted with the
    /// hypsometric slope dh/dp = −H/p, else the measured rate.
    public var weatherRate: Double? {
        guard let weatherTrend else { return measuredWeatherRate }
        let pressure = referencePressure ?? StandardAtmosphere.seaLevelPressure
        let scaleHeight =
            StandardAtmosphere.gasConstant * configuration.meanTemperature
            / (StandardAtmosphere.molarMass * StandardAtmosphere.gravity)
        return -scaleHeight / pressure * weatherTrend / 3_600
    }

    /// Consumes a relative altitude in metres.
    ///
    /// - Parameters:
    ///   - time: the sample's time, in seconds, after the previous one.
    ///   - relativeAltitude: the altitude relative to any fixed reference, in metres.
    /// - Throws: as `consume(_:)`.
    @discardableResult
    public mutating func consume(time: Seconds, relativeAltitude: Meters) throws(FloorCountingError)
        -> [FloorCounterEvent]
    {
        try consume(FloorSample(time: time, relativeAltitude: relativeAltitude))
    }

    /// Consumes a pressure in hPa.
    ///
    /// - Parameters:
    ///   - time: the sample's time, in seconds, after the previous one.
    ///   - pressure: the station pressure, in hPa.
    /// - Throws: as `consume(_:)`.
    @discardableResult
    public mutating func consume(time: Seconds, pressure: Hectopascals) throws(FloorCountingError)
        -> [FloorCounterEvent]
    {
        try consume(FloorSample(time: time, pressure: pressure))
    }

    /// Consumes a pressure in any unit.
    ///
    /// - Parameters:
    ///   - time: the sample's time, in seconds, after the previous one.
    ///   - pressure: the station pressure, in any pressure unit.
    /// - Throws: as `consume(_:)`.
    @discardableResult
    public mutating func consume(time: Seconds, pressure: Foundation.Measurement<UnitPressure>)
        throws(FloorCountingError)
        -> [FloorCounterEvent]
    {
        try consume(FloorSample(time: time, pressure: pressure))
    }

    /// Consumes one sample and returns what it caused: transitions, and uncertainty raised or cleared.
    ///
    /// - Throws: `FloorCountingError` for a time that is not finite or not after the previous one, a value that
    ///   is not finite (or a pressure not positive), or a stream mixing pressures with altitudes. A rejected
    ///   sample leaves the counter unchanged.
    @discardableResult
    public mutating func consume(_ sample: FloorSample) throws(FloorCountingError) -> [FloorCounterEvent] {
        let t = sample.time
        let altitude = try relativeAltitude(of: sample)
        let start = firstTime ?? t
        if firstTime == nil {
            firstTime = t
            stillSince = t
        }
        lastTime = t
        let s = history.append(time: t, altitude: altitude)
        pending.append((t, altitude))
        var events: [FloorCounterEvent] = []
        let c = configuration
        if t - start >= c.rateLag {
            let rate = (s - history.value(at: t - c.rateLag)) / c.rateLag
            let moving = abs(rate) > c.movingRate
            if moving, openStretch == nil {
                let stretchStart = max(start, t - c.backUp)
                openStretch = (stretchStart, history.value(at: stretchStart))
                settle(through: stretchStart, now: t, events: &events)
            }
            if !moving, let stretch = openStretch, t - stretch.start > c.minimumStretch {
                openStretch = nil
                close(start: stretch.start, startAltitude: stretch.altitude, end: t, endAltitude: s, events: &events)
            }
        }
        if openStretch == nil { settle(through: t - c.backUp, now: t, events: &events) }
        return events
    }

    /// Validates a sample and converts it to relative altitude in metres.
    private mutating func relativeAltitude(of sample: FloorSample) throws(FloorCountingError) -> Meters {
        let t = sample.time
        guard t.isFinite else { throw .timeNotFinite(t) }
        if let lastTime, !(t > lastTime) { throw .timeNotIncreasing(previous: lastTime, time: t) }
        switch sample.reading {
        case .relativeAltitude(let altitude):
            guard kind != .pressure else { throw .mixedReadings(time: t) }
            guard altitude.isFinite else { throw .altitudeNotFinite(altitude, time: t) }
            kind = .altitude
            return altitude
        case .pressure(let pressure):
            guard kind != .altitude else { throw .mixedReadings(time: t) }
            guard pressure.isFinite, pressure > 0 else { throw .pressureNotPositive(pressure, time: t) }
            let reference = referencePressure ?? pressure
            // h = H ln(p_ref / p): the hypsometric height above the stream's first pressure.
            let height: Meters
            do {
                height = try StandardAtmosphere.heightDifference(
                    from: reference, to: pressure,
                    meanTemperature: configuration.meanTemperature)
            } catch {
                throw .pressureNotPositive(pressure, time: t)
            }
            kind = .pressure
            referencePressure = reference
            return height
        }
    }

    /// Closes a stretch: counts it when it rounds to whole floors, and updates the confidence.
    private mutating func close(
        start: Seconds, startAltitude: Meters, end: Seconds, endAltitude: Meters,
        events: inout [FloorCounterEvent]
    ) {
        let c = configuration
        let change = endAltitude - startAltitude
        let floors = Int((change / c.floorHeight).rounded())
        guard floors != 0 else { return }  // a pulse or a small step: its samples stay still
        // The stretch's samples after its start were moving; those up to the start are already settled.
        while pendingHead < pending.count, pending[pendingHead].time < end { pendingHead += 1 }
        let residual = change - (weatherRate ?? 0) * (end - start) - Double(floors) * c.floorHeight
        let confident = abs(residual) <= c.transitionTolerance
        if confident { tracker.reset() } else { tracker.breakStretch(floor: floor) }
        floor += floors
        stillSince = end
        stillResidual = nil
        let transition = FloorTransition(
            time: start, endTime: end, floors: floors, floorAfter: floor, change: change,
            residual: residual, isConfident: confident)
        transitions.append(transition)
        events.append(.transition(transition))
        if confident {
            if confidence.isUncertain {
                confidence = .confident
                events.append(.uncertaintyCleared(time: end))
            }
        } else if !confidence.isUncertain {
            raise(
                FloorUncertainty(
                    time: end, reason: .ambiguousTransition, residual: residual,
                    suggestedFloor: floor + Int((residual / c.floorHeight).rounded())), events: &events)
        }
    }

    /// Hands pending samples up to `time` to the tracker and runs the still check on each completed block.
    private mutating func settle(through time: Seconds, now: Seconds, events: inout [FloorCounterEvent]) {
        while pendingHead < pending.count, pending[pendingHead].time <= time {
            let sample = pending[pendingHead]
            pendingHead += 1
            if tracker.add(time: sample.time, altitude: sample.altitude, floor: floor) {
                if let rate = tracker.medianRate { measuredWeatherRate = rate }
                checkStillResidual(now: now, events: &events)
            }
        }
        if pendingHead > 256, pendingHead * 2 > pending.count {
            pending.removeFirst(pendingHead)
            pendingHead = 0
        }
    }

    /// The seed's exercise: after long enough still, an unexplained residual makes the floor uncertain.
    private mutating func checkStillResidual(now: Seconds, events: inout [FloorCounterEvent]) {
        let c = configuration
        guard now - stillSince >= c.stillnessForUncertainty, let rate = weatherRate,
            let residual = tracker.residual(weatherRate: rate, floorHeight: c.floorHeight)
        else { return }
        stillResidual = residual
        guard !confidence.isUncertain, abs(residual) > c.uncertaintyResidual else { return }
        raise(
            FloorUncertainty(
                time: now, reason: .unexplainedAltitudeChange, residual: residual,
                suggestedFloor: floor + Int((residual / c.floorHeight).rounded())), events: &events)
    }

    private mutating func raise(_ uncertainty: FloorUncertainty, events: inout [FloorCounterEvent]) {
        confidence = .uncertain(uncertainty)
        events.append(.uncertaintyRaised(uncertainty))
    }
}
