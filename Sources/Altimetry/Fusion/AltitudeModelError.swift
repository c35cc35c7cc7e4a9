/// A reading or a parameter the altitude model cannot use.
public enum AltitudeModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A parameter outside its physical range.
    case invalidParameter(name: String, value: Double, expected: String)
    /// A reading whose value is not finite or is physically impossible; `field` names it.
    case invalidReading(time: Double, field: String, value: Double, expected: String)
    /// A reading earlier than the one before it.
    case timeWentBackwards(previous: Double, current: Double)
    /// The numerical engine failed (a covariance lost positive definiteness); the text says how.
    case numerical(String)
    /// A reading with neither a pressure nor a GPS altitude.
    case emptyReading(time: Double)

    public var description: String {
        switch self {
        case .invalidParameter(let name, let value, let expected):
            return "parameter \(name) = \(value): expected \(expected)"
        case .invalidReading(let time, let field, let value, let expected):
            return "reading at t = \(time) s: \(field) = \(value), expected \(expected)"
        case .timeWentBackwards(let previous, let current):
            return "time went backwards from \(previous) s to \(current) s"
        case .numerical(let detail):
            return "numerical failure in the filter: \(detail)"
        case .emptyReading(let time):
            return "reading at t = \(time) s has neither a pressure nor a GPS altitude"
        }
    }
}
