import Altimetry

/// What became of one track: the `--summary` JSON object and the summary on stderr.
///
/// Encoded with snake_case keys (`JSONEncoder.KeyEncodingStrategy.convertToSnakeCase`): `track`, `rows`,
/// `fixes_used`, `fixes_gated`, `predicted`, `rejected`, `rejections` (the first `rejectionsKept`, each with its
/// `line` and `reason`), `final` (`altitude_m`, `sigma_m`, `qnh_hpa`, `qnh_sigma_hpa`; null without a usable
/// reading), `fronts` (`start_time`, `end_time`, `size_hectopascals`) and, with `--smooth`, `ascent` (the
/// `altimetry ascent --json` document of the track, `AscentJSON`). A new figure is a new stored property.
struct TrackSummary: Sendable, Encodable {
    /// A rejected row: its line (or record) and why.
    struct Rejection: Sendable, Encodable {
        var line: Int
        var reason: String
    }

    /// The final estimate's figures.
    struct Final: Sendable, Encodable {
        var altitudeM: Double
        var sigmaM: Double
        var qnhHpa: Double
        var qnhSigmaHpa: Double

        init(_ e: AltitudeEstimate) {
            altitudeM = e.altitude
            sigmaM = e.altitudeStandardDeviation
            qnhHpa = e.seaLevelPressure
            qnhSigmaHpa = e.seaLevelPressureStandardDeviation
        }
    }

    /// The track's name (empty without `track_id`).
    var track: String
    /// Input rows in the track, whatever became of them.
    var rows = 0
    /// GPS fixes used and gated.
    var fixesUsed = 0
    var fixesGated = 0
    /// Rows with a time and no reading, given the filter's prediction.
    var predicted = 0
    /// Rows rejected (invalid, refused by the filter, or before any reading).
    var rejected = 0
    /// The first `rejectionsKept` rejected rows.
    var rejections: [Rejection] = []
    /// The estimate after the last usable row (the smoothed one with `--smooth`).
    var final: Final?
    /// Weather fronts detected.
    var fronts: [WeatherFront] = []
    /// The track's total ascent and descent, as `altimetry ascent --json` gives them; only with `--smooth` (the
    /// ascent needs the whole track smoothed), nil otherwise.
    var ascent: AscentJSON?
    /// Fault episodes: resets to the GPS (no lock-out), barometer steps, spikes and stuck spells, GPS jumps.
    var episodes: [FilterEpisode] = []
    /// The filter's state after the last row (not with `--smooth`); not part of the JSON.
    var checkpoint: AltitudeFilterCheckpoint?
    /// The final estimate as the filter gave it; not part of the JSON.
    var finalEstimate: AltitudeEstimate?

    static let rejectionsKept = 100

    init(track: String) {
        self.track = track
    }

    private enum CodingKeys: String, CodingKey {
        case track, rows, fixesUsed, fixesGated, predicted, rejected, rejections, final, fronts, ascent
    }

    /// Counts a rejected row.
    mutating func reject(line: Int, reason: String) {
        rejected += 1
        if rejections.count < Self.rejectionsKept { rejections.append(Rejection(line: line, reason: reason)) }
    }
}
