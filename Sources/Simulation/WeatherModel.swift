import Altimetry
import StateEstimation

/// How the weather moves the sea-level pressure: an offset b(t) from the standard 1013.25 hPa.
///
/// The true QNH is 1013.25 + b(t) hPa, with
///
///     b(t) = b₀ + (trend + r) · t / 3600 + Σ fronts(t) + s(t) + g(t) + W(t),
///
/// where r ~ N(0, σ_r²) is a trend drawn once per seed (`randomTrendStandardDeviation`), s the slow swells
/// (`WeatherSwells`, smooth sinusoids of 20 min to 3 h), g the gust noise (`WeatherGusts`, a Gauss-Markov process
/// of hundredths of a hPa and tens of seconds) and W a Wiener process (random walk) with W(0) = 0 and increments
/// W(t₂) − W(t₁) ~ N(0, q (t₂ − t₁)). All parts are optional and combine freely; the simulator draws g and W
/// exactly at every row's time, whatever the spacing.
///
/// `outdoor(initialOffset:)` is the weather of the outdoor scenarios: a real day's barograph is smooth over
/// minutes (a trend of up to a few hPa per hour, slow swells, small gust noise). A random walk at one-second
/// steps is not: its increments over a minute are as large as a 10-minute swell's, so it puts metres of false
/// climbing into every hour that no real barometer sees. For scale, 1 hPa is about 8.3 m of apparent height near
/// sea level.
public struct WeatherModel: Sendable, Equatable, Codable {
    /// The offset at t = 0, b₀, in hPa.
    public var initialOffset: Hectopascals
    /// A steady change of sea-level pressure, in hPa per hour (the seed's building visit has −1).
    public var trendPerHour: Hectopascals
    /// The random walk's variance rate q, in hPa²/s (zero for none).
    public var randomWalkVariance: Double
    /// Fronts, each a smooth change of several hPa over tens of minutes.
    public var fronts: [PressureFront]
    /// The spread σ_r of a trend drawn once per seed and added to `trendPerHour`, in hPa per hour (zero for none).
    public var randomTrendStandardDeviation: Double
    /// Slow swells, drawn once per seed; nil for none.
    public var swells: WeatherSwells?
    /// Gust noise; nil for none.
    public var gusts: WeatherGusts?

    /// Weather with the given offset (hPa), trend (hPa/h), random walk (hPa²/s), fronts, swells, gusts.
    ///
    /// - Parameters:
    ///   - initialOffset: b₀, the offset at t = 0, in hPa.
    ///   - trendPerHour: a steady change of sea-level pressure, in hPa per hour.
    ///   - randomWalkVariance: the random walk's variance rate q, in hPa²/s (zero for none).
    ///   - fronts: the fronts, each a smooth change over tens of minutes.
    ///   - randomTrendStandardDeviation: σ_r of a trend drawn once per seed, in hPa per hour (zero for none).
    ///   - swells: slow swells drawn once per seed, or nil for none.
    ///   - gusts: gust noise, or nil for none.
    public init(
        initialOffset: Hectopascals = 0, trendPerHour: Hectopascals = 0, randomWalkVariance: Double = 0,
        fronts: [PressureFront] = [], randomTrendStandardDeviation: Double = 0, swells: WeatherSwells? = nil,
        gusts: WeatherGusts? = nil
    ) {
        self.initialOffset = initialOffset
        self.trendPerHour = trendPerHour
        self.randomWalkVariance = randomWalkVariance
        self.fronts = fronts
        self.randomTrendStandardDeviation = randomTrendStandardDeviation
        self.swells = swells
        self.gusts = gusts
    }

    /// A still atmosphere at the standard sea-level pressure: b(t) = 0.
    public static let calm = WeatherModel()

    /// The outdoor scenarios' weather: a trend drawn per seed with σ_r = 1 hPa/h (so up to about 3 hPa/h), swells
    /// of 0.1 hPa rms at periods of 20 min to 3 h, gusts of 0.01 hPa over 20 s, and no random walk.
    ///
    /// One hPa/h is the spread of three-hour tendencies on ordinary days (a barometric tendency beyond 3 hPa in
    /// three hours is already reported as "rapid"); 0.1 hPa of swells is about 0.8 m of slow apparent height;
    /// 0.01 hPa of gusts is about the barometer's own noise.
    ///
    /// - Parameters:
    ///   - initialOffset: b₀, the offset at t = 0, in hPa.
    ///   - fronts: fronts on top of the day's weather; none by default.
    public static func outdoor(initialOffset: Hectopascals, fronts: [PressureFront] = []) -> WeatherModel {
        WeatherModel(
            initialOffset: initialOffset, fronts: fronts, randomTrendStandardDeviation: 1,
            swells: WeatherSwells(), gusts: WeatherGusts())
    }

    /// The deterministic part of the offset, b₀ + trend · t / 3600 + Σ fronts(t), in hPa.
    ///
    /// - Parameter time: t, in seconds since the start of the scenario.
    public func deterministicOffset(at time: Seconds) -> Hectopascals {
        var offset = initialOffset + trendPerHour * time / 3_600
        for front in fronts { offset += front.offset(at: time) }
        return offset
    }
}
