import Altimetry
import StateEstimation

/// A complete description of a simulated outing: the true altitude, the weather, the air, the sensors,
/// how long it lasts, and the seed that fixes every random draw.
///
/// `simulate()` turns it into a `SimulatedRecording`. The same scenario (same seed) gives bit-identical
/// rows on every platform, since every draw comes from `SeededGenerator`. `Scenario.named(_:seed:duration:)`
/// is the catalogue of the benchmark's scenarios; every property is a `var`, so a caller can start from a
/// named scenario and change what it studies.
public struct Scenario: Sendable, Equatable, Codable {
    /// A short name for reports (the `ScenarioName` raw value for catalogue scenarios).
    public var name: String
    /// The seed of every random draw in the simulation.
    public var seed: UInt64
    /// Length of the recording, in seconds: rows have 0 ≤ t < duration. The profile holds its last
    /// altitude after its own end, and is cut short if the duration is shorter than the plan.
    public var duration: Seconds
    /// The true altitude against time.
    public var profile: AltitudeProfile
    /// The sea-level pressure offset b(t).
    public var weather: WeatherModel
    /// The true temperature of the air column.
    public var air: AirColumn
    /// The barometer.
    public var barometer: BarometerModel
    /// The GPS receiver.
    public var gps: GPSModel

    /// A scenario of `duration` seconds from `seed` with the given profile, weather, air column and sensors.
    ///
    /// - Parameters:
    ///   - name: a short name for reports.
    ///   - seed: the seed of every random draw in the simulation.
    ///   - duration: the recording's length, in seconds.
    ///   - profile: the true altitude against time.
    ///   - weather: the sea-level pressure offset b(t); calm by default.
    ///   - air: the true temperature of the air column; the standard atmosphere by default.
    ///   - barometer: the barometer.
    ///   - gps: the GPS receiver.
    public init(
        name: String, seed: UInt64, duration: Seconds, profile: AltitudeProfile,
        weather: WeatherModel = .calm, air: AirColumn = .standard,
        barometer: BarometerModel = BarometerModel(), gps: GPSModel = GPSModel()
    ) {
        self.name = name
        self.seed = seed
        self.duration = duration
        self.profile = profile
        self.weather = weather
        self.air = air
        self.barometer = barometer
        self.gps = gps
    }

    /// Checks every parameter the simulator relies on.
    ///
    /// - Throws: `ScenarioError` naming the first parameter out of its domain.
    public func validate() throws(ScenarioError) {
        try Self.require(duration, "duration", "a positive, finite number of seconds") { $0 > 0 && $0.isFinite }
        for (clock, sensor) in [(barometer.clock, "barometer"), (gps.clock, "gps")] {
            try Self.require(clock.rate, "\(sensor) rate", "a positive, finite rate in Hz") { $0 > 0 && $0.isFinite }
            try Self.require(clock.jitter, "\(sensor) jitter", "a fraction in [0, 1)") { $0 >= 0 && $0 < 1 }
            try Self.require(clock.phase, "\(sensor) phase", "a non-negative, finite time in s") {
                $0 >= 0 && $0.isFinite
            }
        }
        try Self.require(barometer.noiseStandardDeviation, "barometer noise", "a non-negative hPa") {
            $0 >= 0 && $0.isFinite
        }
        if let sensor = barometer.temperatureSensor {
            try Self.require(sensor.noiseStandardDeviation, "temperature noise", "a non-negative K") {
                $0 >= 0 && $0.isFinite
            }
            try Self.require(sensor.bias, "temperature bias", "a finite K") { $0.isFinite }
        }
        try Self.require(gps.correlatedErrorStandardDeviation, "gps correlated sigma", "a non-negative m") {
            $0 >= 0 && $0.isFinite
        }
        try Self.require(gps.correlationTime, "gps correlation time", "a positive, finite s") { $0 > 0 && $0.isFinite }
        try Self.require(gps.whiteNoiseStandardDeviation, "gps white sigma", "a non-negative m") {
            $0 >= 0 && $0.isFinite
        }
        for outage in gps.outages {
            try Self.require(outage.duration, "gps outage duration", "a non-negative, finite s") {
                $0 >= 0 && $0.isFinite
            }
            try Self.require(outage.start, "gps outage start", "a finite s") { $0.isFinite }
        }
        if let outliers = gps.outliers {
            try Self.require(Double(outliers.count), "outlier count", "non-negative") { $0 >= 0 }
            try Self.require(outliers.minimumOffset, "outlier minimum offset", "finite m") { $0.isFinite }
            try Self.require(outliers.maximumOffset, "outlier maximum offset", "finite m, at least the minimum") {
                $0.isFinite && $0 >= outliers.minimumOffset
            }
        }
        switch gps.reportedAccuracy {
        case .none: break
        case .constant(let value):
            try Self.require(value, "reported accuracy", "a positive m") { $0 > 0 && $0.isFinite }
        case .modelStandardDeviation(let k):
            try Self.require(k, "accuracy coverage factor", "positive") { $0 > 0 && $0.isFinite }
        }
        try Self.require(weather.randomWalkVariance, "weather random walk", "a non-negative hPa²/s") {
            $0 >= 0 && $0.isFinite
        }
        try Self.require(weather.initialOffset, "weather initial offset", "finite hPa, above −1013.25") {
            $0.isFinite && $0 > -StandardAtmosphere.seaLevelPressure
        }
        try Self.require(weather.trendPerHour, "weather trend", "finite hPa/h") { $0.isFinite }
        try Self.require(weather.randomTrendStandardDeviation, "weather random trend", "a non-negative, finite hPa/h") {
            $0 >= 0 && $0.isFinite
        }
        if let swells = weather.swells {
            try Self.require(swells.rootMeanSquare, "swell rms", "a non-negative, finite hPa") {
                $0 >= 0 && $0.isFinite
            }
            try Self.require(swells.shortestPeriod, "swell shortest period", "a positive, finite s") {
                $0 > 0 && $0.isFinite
            }
            try Self.require(swells.longestPeriod, "swell longest period", "a finite s, at least the shortest") {
                $0.isFinite && $0 >= swells.shortestPeriod
            }
            try Self.require(Double(swells.count), "swell count", "non-negative") { $0 >= 0 }
        }
        if let gusts = weather.gusts {
            try Self.require(gusts.standardDeviation, "gust sigma", "a non-negative, finite hPa") {
                $0 >= 0 && $0.isFinite
            }
            try Self.require(gusts.correlationTime, "gust correlation time", "a positive, finite s") {
                $0 > 0 && $0.isFinite
            }
        }
        for front in weather.fronts {
            try Self.require(front.duration, "front duration", "a positive, finite s") { $0 > 0 && $0.isFinite }
            try Self.require(front.change, "front change", "finite hPa") { $0.isFinite }
            try Self.require(front.start, "front start", "finite s") { $0.isFinite }
        }
        try Self.require(air.temperatureOffset, "temperature offset", "finite K") { $0.isFinite }
        try Self.require(air.lapseRate, "lapse rate", "finite K/m") { $0.isFinite }
        for knot in profile.knots {
            guard knot.altitude >= StandardAtmosphere.minimumAltitude,
                knot.altitude <= StandardAtmosphere.tropopauseAltitude
            else {
                throw .altitudeOutOfRange(knot.altitude)
            }
            // T is linear in h and h is linear between knots, so checking the knots checks the whole profile.
            let temperature = air.temperature(atAltitude: knot.altitude)
            guard temperature > 0 else {
                throw .temperatureNotPositive(altitude: knot.altitude, temperature: temperature)
            }
        }
    }

    private static func require(
        _ value: Double, _ name: String, _ expectation: String,
        _ valid: (Double) -> Bool
    ) throws(ScenarioError) {
        guard valid(value) else { throw .invalidParameter(name: name, value: value, expectation: expectation) }
    }
}
