import Foundation
import StateEstimation

/// Calibrates a barometer against GPS: the reference pressure (QNH) and the altitude offset, each with an
/// honest one sigma, and how much more GPS a target accuracy needs.
///
/// Feed it pressures and fixes as they come; ask at any time. Underneath is the `AltitudeFilter`, so the
/// answer accounts for the GPS error's correlation (ten minutes of a 10 m, 60 s GPS buy about 4 m, never the
/// 0.4 m that σ/√N promises) and for the weather, which keeps moving QNH while you average.
///
/// The forecast of the minutes still needed is exact under the model: a Kalman filter's covariance does not
/// depend on the measured values, so the calibration copies its filter and feeds it synthetic readings, at the
/// rates seen so far, whose values equal the filter's own predictions, until the altitude sigma reaches the
/// target. With weather noise the sigma has a floor (GPS information is forgotten as fast as the weather
/// moves), and a target below it is reported as unreachable.
public struct BarometerCalibration: Sendable {
    /// What the calibration knows now.
    public struct Status: Sendable, Equatable, Codable {
        /// Time of the latest reading, in seconds.
        public var time: Double
        /// Estimated sea-level pressure (QNH), in hPa.
        public var seaLevelPressure: Hectopascals
        /// One sigma of the QNH, in hPa.
        public var seaLevelPressureStandardDeviation: Hectopascals
        /// Altitude offset to add to the barometer's standard-atmosphere altitude (QNH 1013.25), in metres.
        public var altitudeOffset: Meters
        /// One sigma of the offset, in metres (equal to the absolute altitude's).
        public var altitudeOffsetStandardDeviation: Meters
        /// Calibrated absolute altitude now, in metres.
        public var altitude: Meters
        /// The target one sigma, in metres.
        public var targetStandardDeviation: Meters
        /// Whether the offset's sigma is at or below the target.
        public var isTargetReached: Bool
        /// Further minutes of GPS the target needs under the model; 0 if reached, nil if not reachable within
        /// the forecast horizon.
        public var minutesNeeded: Double?
        /// GPS fixes used so far.
        public var fixCount: Int
    }

    /// The underlying filter.
    public private(set) var filter: AltitudeFilter
    /// The target one sigma of the altitude offset, in metres.
    public var targetStandardDeviation: Meters
    /// How far ahead the forecast looks, in seconds (6 h by default).
    public var forecastHorizon: Double = 6 * 3_600

    private var lastPressure: Hectopascals?
    private var lastTime: Double?
    private var barometerInterval = RunningInterval()
    private var gpsInterval = RunningInterval()

    /// A calibration with the model's parameters and a target sigma in metres.
    ///
    /// - Parameters:
    ///   - parameters: the fusion model's parameters.
    ///   - targetStandardDeviation: the altitude sigma at which the calibration is done, in metres; 5 by default.
    /// - Throws: `AltitudeModelError.invalidParameter` for bad parameters or a target that is not positive.
    public init(parameters: AltitudeModelParameters = AltitudeModelParameters(), targetStandardDeviation: Meters = 5)
        throws(AltitudeModelError)
    {
        guard targetStandardDeviation.isFinite, targetStandardDeviation > 0 else {
            throw .invalidParameter(
                name: "target sigma", value: targetStandardDeviation, expected: "a positive number of metres")
        }
        // Without the fault monitor: the forecast of the minutes needed holds only while the covariance follows the
        // model, and a reset (which the forecast cannot foresee) would break it; a calibration is a still, watched
        // session, not a track whose faults must be caught.
        var calibrating = parameters
        calibrating.detectsFaults = false
        filter = try AltitudeFilter(parameters: calibrating)
        self.targetStandardDeviation = targetStandardDeviation
    }

    /// Adds a reading (a pressure, a fix, or both).
    ///
    /// - Throws: as `AltitudeFilter.process(_:)`.
    public mutating func add(_ reading: AltitudeReading) throws(AltitudeModelError) {
        _ = try filter.process(reading)
        if let p = reading.pressure {
            barometerInterval.add(reading.time)
            lastPressure = p
        }
        if reading.gpsAltitude != nil { gpsInterval.add(reading.time) }
        lastTime = reading.time
    }

    /// Adds a pressure in any unit (platforms report kPa or hPa), converted here.
    ///
    /// - Parameters:
    ///   - pressure: the station pressure, in any pressure unit.
    ///   - time: the reading's time, in seconds.
    /// - Throws: `AltitudeModelError.invalidReading` for a pressure that is not positive and finite.
    public mutating func addPressure(_ pressure: Foundation.Measurement<UnitPressure>, at time: Double)
        throws(AltitudeModelError)
    {
        try add(AltitudeReading(time: time, pressure: pressure.converted(to: .hectopascals).value))
    }

    /// Adds a GPS fix: altitude above mean sea level and, optionally, its reported accuracy, in metres.
    ///
    /// - Parameters:
    ///   - altitude: the fix's altitude above mean sea level, in metres.
    ///   - verticalAccuracy: the fix's reported vertical accuracy, in metres, or nil for none.
    ///   - convention: what the reported accuracy means (one sigma by default).
    ///   - time: the fix's time, in seconds.
    /// - Throws: `AltitudeModelError.invalidReading` for a value out of range (an accuracy must be positive and below
    ///   100 km); otherwise as `AltitudeFilter.process(_:)`.
    public mutating func addFix(
        altitude: Meters, verticalAccuracy: Meters? = nil,
        convention: VerticalAccuracyConvention = .oneSigma, at time: Double
    ) throws(AltitudeModelError) {
        try add(
            AltitudeReading(
                time: time, gpsAltitude: altitude,
                gpsVerticalAccuracy: verticalAccuracy.map { convention.standardDeviation(ofReported: $0) }))
    }

    /// The calibration now; nil before the first pressure.
    ///
    /// - Complexity: while the target is not reached, each access runs the forecast of `minutesNeeded(toReach:)`
    ///   (up to `forecastHorizon` of synthetic readings), so read it once per report rather than per reading.
    public var status: Status? {
        guard let e = filter.currentEstimate, let p = lastPressure, let time = lastTime else { return nil }
        let offset = e.altitude - NaiveAveragingBaseline.pressureAltitude(p)
        let reached = e.altitudeStandardDeviation <= targetStandardDeviation
        return Status(
            time: time, seaLevelPressure: e.seaLevelPressure,
            seaLevelPressureStandardDeviation: e.seaLevelPressureStandardDeviation, altitudeOffset: offset,
            altitudeOffsetStandardDeviation: e.altitudeStandardDeviation, altitude: e.altitude,
            targetStandardDeviation: targetStandardDeviation, isTargetReached: reached,
            minutesNeeded: reached ? 0 : minutesNeeded(toReach: targetStandardDeviation), fixCount: filter.fixCount)
    }

    /// Minutes of further GPS (at the rates seen so far, 1 Hz if none) until the altitude sigma reaches `target`
    /// metres, under the model; nil if not within `forecastHorizon`.
    ///
    /// - Parameter target: the altitude sigma to reach, in metres.
    public func minutesNeeded(toReach target: Meters) -> Double? {
        var forecast = filter
        guard let start = forecast.currentEstimate, let p0 = lastPressure else { return nil }
        if start.altitudeStandardDeviation <= target { return 0 }
        let baroStep = barometerInterval.median ?? 1
        let gpsStep = gpsInterval.median ?? 1
        var t = start.time
        var nextBaro = t + baroStep
        var nextFix = t + gpsStep
        var pressure = p0
        while t - start.time < forecastHorizon {
            t = min(nextBaro, nextFix)
            var reading = AltitudeReading(time: t)
            guard let predicted = forecast.predictedMeasurements(at: t) else { return nil }
            if nextBaro <= t {
                pressure = predicted.pressure
                reading.pressure = pressure
                nextBaro += baroStep
            }
            if nextFix <= t {
                reading.gpsAltitude = predicted.gpsAltitude
                nextFix += gpsStep
            }
            guard let e = try? forecast.process(reading) else { return nil }
            if e.altitudeStandardDeviation <= target { return (t - start.time) / 60 }
        }
        return nil
    }
}

/// The median of the last intervals between event times, in seconds.
struct RunningInterval: Sendable {
    private var last: Double?
    private var intervals: [Double] = []

    mutating func add(_ time: Double) {
        if let last, time > last {
            intervals.append(time - last)
            if intervals.count > 64 { intervals.removeFirst() }
        }
        last = time
    }

    var median: Double? {
        guard !intervals.isEmpty else { return nil }
        return intervals.sorted()[intervals.count / 2]
    }
}
