/// A value outside the domain of the atmosphere model.
public enum AtmosphereError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A pressure, in hPa, that is zero, negative, NaN or infinite.
    case pressureNotPositive(Hectopascals)
    /// A temperature, in kelvin, at or below absolute zero, or not finite.
    case temperatureNotAboveAbsoluteZero(Kelvin)
    /// An altitude, in metres, outside the troposphere model (−1,000 m to 11,000 m), or not finite.
    case altitudeOutOfRange(Meters)

    public var description: String {
        switch self {
        case .pressureNotPositive(let p):
            return "pressure \(p) hPa is not a positive, finite number"
        case .temperatureNotAboveAbsoluteZero(let t):
            return "temperature \(t) K is not above absolute zero"
        case .altitudeOutOfRange(let h):
            return
                "altitude \(h) m is outside the troposphere model (\(StandardAtmosphere.minimumAltitude) to \(StandardAtmosphere.tropopauseAltitude) m)"
        }
    }
}
