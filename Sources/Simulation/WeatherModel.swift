import Altimetry

/// How the weather moves the sea-level pressure: an offset b(t) from the standard 1013.25 hPa.
///
/// The true QNH is 1013.25 + b(t) hPa, with
///
///     b(t) = b₀ + trend · t / 3600 + Σ fronts(t) + W(t),
///
/// where W is a Wiener process (random walk) with W(0) = 0 and increments W(t₂) − W(t₁) ~ N(0, q (t₂ − t₁)).
/// The simulator draws W exactly at every row's time, whatever the spacing. All parts are optional and
/// combine freely. For scale: q = 1/3600 hPa²/s spreads b by 1 hPa per square-root hour, the fusion model's
/// default; 1 hPa is about 8.3 m of apparent height near sea level.
public struct WeatherModel: Sendable, Equatable, Codable {
    /// The offset at t = 0, b₀, in hPa.
    public var initialOffset: Hectopascals
    /// A steady change of sea-level pressure, in hPa per hour (the seed's building visit has −1).
    public var trendPerHour: Hectopascals
    /// The random walk's variance rate q, in hPa²/s (zero for none).
    public var randomWalkVariance: Double
    /// Fronts, each a smooth change of several hPa over tens of minutes.
    public var fronts: [PressureFront]

    public init(initialOffset: Hectopascals = 0, trendPerHour: Hectopascals = 0, randomWalkVariance: Double = 0,
                fronts: [PressureFront] = []) {
        self.initialOffset = initialOffset
        self.trendPerHour = trendPerHour
        self.randomWalkVariance = randomWalkVariance
        self.fronts = fronts
    }

    /// A still atmosphere at the standard sea-level pressure: b(t) = 0.
    public static let calm = WeatherModel()

    /// The deterministic part of the offset, b₀ + trend · t / 3600 + Σ fronts(t), in hPa.
    public func deterministicOffset(at time: Seconds) -> Hectopascals {
        var offset = initialOffset + trendPerHour * time / 3_600
        for front in fronts { offset += front.offset(at: time) }
        return offset
    }
}
