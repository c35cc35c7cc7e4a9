import Altimetry

/// Why a recording could not be evaluated.
public enum RecordingEvaluationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The model's parameters cannot start a filter.
    case invalidParameters(AltitudeModelError)
    /// The filter refused the row at `rowIndex` (0-based, in the rows given).
    case refused(rowIndex: Int, AltitudeModelError)
    /// A static truth needs at least `needed` fixes after the warm-up; `found` were there.
    case tooFewFixesForStaticTruth(found: Int, needed: Int)
    /// No row after the warm-up had both a reading and a truth.
    case nothingToScore(duration: Double, scoringStart: Double, hasReference: Bool)

    public var description: String {
        switch self {
        case .invalidParameters(let error):
            return "cannot start the filter: \(error)"
        case .refused(_, let error):
            return "the filter refused the row: \(error)"
        case .tooFewFixesForStaticTruth(let found, let needed):
            return "found \(found) GPS fixes after the warm-up; a static truth needs at least \(needed)"
        case .nothingToScore(let duration, let start, let hasReference):
            if start >= duration {
                return "found nothing to score: the recording lasts \(duration) s and scoring starts at \(start) s "
                    + "(lower it with --from)"
            }
            return hasReference
                ? "found no row after \(start) s with both a reading and a reference"
                : "found no reference value at or before any reading after \(start) s"
        }
    }
}
