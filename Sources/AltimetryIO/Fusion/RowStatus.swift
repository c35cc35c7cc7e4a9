import Altimetry

/// What became of an input row: the output's `status` column.
package enum RowStatus: Sendable, Equatable {
    /// Used (any GPS fix in it accepted or softly inflated).
    case ok
    /// Its GPS fix was gated: normalised innovation squared `nis` above `threshold`.
    case gated(nis: Double, threshold: Double)
    /// Used, at a fault episode of the filter's (a reset to the GPS, a barometer step or stuck barometer, a GPS jump
    /// held off): the flags of `AltitudeFilterStatus`.
    case episode(AltitudeFilterStatus)
    /// The row has a time and no reading: its estimate is the filter's prediction at that time.
    case predicted
    /// Not used, with the reason; the estimate fields are empty.
    case rejected(String)

    /// The status of a row the filter processed, from the estimate after it.
    init(_ estimate: AltitudeEstimate) {
        if let record = estimate.gpsUpdate, case .rejected(.innovationGate(let threshold)) = record.decision {
            self = .gated(nis: record.normalizedInnovationSquared, threshold: threshold)
        } else if !estimate.status.isEmpty {
            self = .episode(estimate.status)
        } else {
            self = .ok
        }
    }

    /// The text of the `status` column.
    package var text: String {
        switch self {
        case .ok: return "ok"
        case .gated(let nis, let threshold): return "gated: NIS \(Fixed.text(nis, 1)) > \(Fixed.text(threshold, 1))"
        case .episode(let status): return status.description
        case .predicted: return "predicted"
        case .rejected(let reason): return "rejected: \(reason)"
        }
    }

    /// Whether the row was rejected.
    var isRejected: Bool { if case .rejected = self { return true } else { return false } }
}
