/// Why a track's ascent cannot be measured.
public enum AscentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The track has no reading.
    case noReadings
    /// The fusion refused a reading or failed numerically.
    case fusion(AltitudeModelError)

    public var description: String {
        switch self {
        case .noReadings: return "the track has no reading; expected at least one pressure or GPS altitude"
        case .fusion(let error): return "\(error)"
        }
    }
}
