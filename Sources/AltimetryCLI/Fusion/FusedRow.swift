/// The filter's result for one input row, in display units, and what happened to the row.
public struct FusedRow: Sendable, Equatable {
    /// What became of the row.
    public enum Status: Sendable, Equatable {
        /// Used (any GPS fix in it accepted or softly inflated).
        case ok
        /// Its GPS fix was gated: normalised innovation squared `nis` above `threshold`.
        case gated(nis: Double, threshold: Double)
        /// Not used, with the reason; the estimate fields are empty.
        case rejected(String)

        /// The text of the `status` column.
        public var text: String {
            switch self {
            case .ok: return "ok"
            case .gated(let nis, let threshold): return "gated: NIS \(Fixed.text(nis, 1)) > \(Fixed.text(threshold, 1))"
            case .rejected(let reason): return "rejected: \(reason)"
            }
        }
    }

    /// Altitude above mean sea level, in metres (NaN when rejected).
    public var altitude: Double = .nan
    /// Its one-sigma, in metres.
    public var altitudeStandardDeviation: Double = .nan
    /// The display precision, in metres.
    public var precision: Double = .nan
    /// Altitude relative to the first pressure reading, in metres.
    public var relativeAltitude: Double = .nan
    /// Sea-level pressure (QNH), in hPa.
    public var seaLevelPressure: Double = .nan
    /// Its one-sigma, in hPa.
    public var seaLevelPressureStandardDeviation: Double = .nan
    /// The estimated GPS altitude error, in metres.
    public var gpsError: Double = .nan
    /// The row's status.
    public var status: Status = .ok

    public init() {}
}
