import Altimetry

/// A scenario whose parameters cannot be simulated.
public enum ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A parameter outside its domain: its name, the value, and what was expected.
    case invalidParameter(name: String, value: Double, expectation: String)
    /// More outliers were asked for than there are eligible fixes.
    case tooManyOutliers(requested: Int, eligibleFixes: Int)
    /// The profile leaves the troposphere model (−1,000 m to 11,000 m), in metres.
    case altitudeOutOfRange(Meters)
    /// The air column is at or below 0 K at some altitude of the profile: the altitude in metres and the temperature in kelvin.
    case temperatureNotPositive(altitude: Meters, temperature: Kelvin)

    public var description: String {
        switch self {
        case .invalidParameter(let name, let value, let expectation):
            return "\(name) is \(value); expected \(expectation)"
        case .tooManyOutliers(let requested, let eligible):
            return "\(requested) outliers requested but only \(eligible) fixes are eligible"
        case .altitudeOutOfRange(let altitude):
            return
                "altitude \(altitude) m is outside the troposphere model (\(StandardAtmosphere.minimumAltitude) to \(StandardAtmosphere.tropopauseAltitude) m)"
        case .temperatureNotPositive(let altitude, let temperature):
            return "air temperature \(temperature) K at \(altitude) m is not above absolute zero"
        }
    }
}
