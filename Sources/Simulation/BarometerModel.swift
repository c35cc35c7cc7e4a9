import Altimetry

/// The simulated barometer: station pressure plus white noise, at its own jittered times.
///
/// Each reading is p(h, 1013.25 + b) + ε, ε ~ N(0, σ_p²) independent, where p is `AirColumn`'s station
/// pressure at the true altitude h for the true weather offset b. The default σ_p = 0.012 hPa (about 0.1 m
/// near sea level) is the seed's illustrative value.
public struct BarometerModel: Sendable, Equatable, Codable {
    /// When readings arrive (default 1 Hz, delays up to 20 % of an interval).
    public var clock: SampleClock
    /// Standard deviation σ_p of the white noise, in hPa.
    public var noiseStandardDeviation: Hectopascals
    /// A temperature reading with every pressure, or `nil` for none.
    public var temperatureSensor: TemperatureSensor?
    /// Sensor faults (steps, spikes, a stuck value); none by default.
    public var faults: [BarometerFault] = []

    /// A barometer sampled on `clock` with white noise of `noiseStandardDeviation` hPa, and a thermometer.
    ///
    /// - Parameters:
    ///   - clock: when the barometer samples; 1 Hz with delays up to 20 % of an interval by default.
    ///   - noiseStandardDeviation: the standard deviation of the white noise on each pressure, in hPa.
    ///   - temperatureSensor: the thermometer read with each pressure, or nil for none.
    public init(
        clock: SampleClock = SampleClock(rate: 1, jitter: 0.2),
        noiseStandardDeviation: Hectopascals = 0.012, temperatureSensor: TemperatureSensor? = nil
    ) {
        self.clock = clock
        self.noiseStandardDeviation = noiseStandardDeviation
        self.temperatureSensor = temperatureSensor
    }
}
