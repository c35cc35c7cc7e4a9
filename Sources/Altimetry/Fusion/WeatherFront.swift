/// A weather front the filter detected: a change of sea-level pressure too fast for ordinary weather.
public struct WeatherFront: Sendable, Equatable, Codable {
    /// When the pressure began to move, in seconds.
    public var startTime: Double
    /// When it stopped moving, in seconds (the detection time while the front is still under way).
    public var endTime: Double
    /// Change of sea-level pressure (QNH) from start to end, in hPa; negative for a falling barometer.
    public var sizeHectopascals: Double

    /// A front from `startTime` to `endTime` (seconds) of `sizeHectopascals` hPa.
    ///
    /// - Parameters:
    ///   - startTime: when the front began, in seconds.
    ///   - endTime: when it ended, in seconds.
    ///   - sizeHectopascals: its change of sea-level pressure, in hPa.
    public init(startTime: Double, endTime: Double, sizeHectopascals: Double) {
        self.startTime = startTime
        self.endTime = endTime
        self.sizeHectopascals = sizeHectopascals
    }
}
