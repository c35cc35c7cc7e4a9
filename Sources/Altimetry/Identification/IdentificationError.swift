/// Why a recording could not be used to identify the model's parameters.
public enum IdentificationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Too few samples for the statistic or fit asked for.
    case tooFewSamples(needed: Int, found: Int)
    /// A value outside its domain.
    case invalidValue(name: String, value: Double, expected: String)
    /// The recording has no GPS altitude, so the GPS error cannot be identified.
    case noGPS
    /// The filter refused the recording (a reading it could not process).
    case filter(AltitudeModelError)

    public var description: String {
        switch self {
        case .tooFewSamples(let needed, let found):
            return "too few samples: found \(found), expected at least \(needed)"
        case .invalidValue(let name, let value, let expected):
            return "invalid \(name): \(value); expected \(expected)"
        case .noGPS:
            return "no GPS altitude in the recording; expected fixes to identify the GPS error from"
        case .filter(let error):
            return "the filter refused the recording: \(error)"
        }
    }
}
