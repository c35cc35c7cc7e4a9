import StateEstimation

/// Why the floor counter refused a sample or a configuration.
public enum FloorCountingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A threshold that is not positive and finite.
    case invalidConfiguration(parameter: String, value: Double)
    /// A sample time, in seconds, that is not finite.
    case timeNotFinite(Seconds)
    /// A sample whose time, in seconds, is not after the previous sample's.
    case timeNotIncreasing(previous: Seconds, time: Seconds)
    /// A relative altitude, in metres, that is not finite, at the given time.
    case altitudeNotFinite(Meters, time: Seconds)
    /// A pressure, in hPa, that is not positive and finite, at the given time.
    case pressureNotPositive(Hectopascals, time: Seconds)
    /// A stream that mixes relative-altitude and pressure samples, first seen at the given time.
    case mixedReadings(time: Seconds)

    public var description: String {
        switch self {
        case .invalidConfiguration(let parameter, let value):
            return "floor counter parameter \(parameter) must be positive and finite, got \(value)"
        case .timeNotFinite(let time):
            return "sample time \(time) s is not finite"
        case .timeNotIncreasing(let previous, let time):
            return "sample time \(time) s is not after the previous sample's \(previous) s"
        case .altitudeNotFinite(let altitude, let time):
            return "relative altitude \(altitude) m at \(time) s is not finite"
        case .pressureNotPositive(let pressure, let time):
            return "pressure \(pressure) hPa at \(time) s is not positive and finite"
        case .mixedReadings(let time):
            return "sample at \(time) s mixes pressure with relative altitude; a stream must use one kind"
        }
    }
}
