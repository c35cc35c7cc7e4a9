import Altimetry

/// What became of one track: the `--summary` JSON object and the summary on stderr.
///
/// Encoded with snake_case keys (`JSONEncoder.KeyEncodingStrategy.convertToSnakeCase`): `track`, `rows`,
/// `fixes_used`, `fixes_gated`, `predicted`, `rejected`, `rejections` (the first `rejectionsKept`, each with its
/// `line` and `reason`), `final` (`altitude_m`, `sigma_m`, `qnh_hpa`, `qnh_sigma_hpa`, these two null without a
/// barometer reading; null without a usable reading), `fronts` (`start_time`, `end_time`, `size_hectopascals`), `episodes` (`FilterEpisode`: each fault
/// episode's kind and times) and, with `--smooth`, `ascent` (the `altimetry ascent --json` document of the track,
/// `AscentJSON`). A new figure is a new stored property.
public struct TrackSummary: Sendable, Encodable {
    /// A rejected row: its line (or record) and why.
    public struct Rejection: Sendable, Encodable {
        /// The 1-based line (a FIT record's 1-based index).
        public var line: Int
        /// Why the row was rejected.
        public var reason: String
    }

    /// The final estimate's figures.
    public struct Final: Sendable, Encodable {
        /// Altitude above mean sea level, in metres.
        public var altitudeM: Double
        /// The altitude's one sigma, in metres.
        public var sigmaM: Double
        /// Sea-level pressure (QNH), in hPa; nil (`null`) for a track without a barometer reading, where
        /// there is no pressure to reduce to sea level and the state's QNH is only its prior.
        public var qnhHpa: Double?
        /// QNH's one sigma, in hPa; nil with `qnhHpa`.
        public var qnhSigmaHpa: Double?

        /// The figures of `e`, with QNH only when the track had a barometer reading.
        init(_ e: AltitudeEstimate, hasBarometer: Bool) {
            altitudeM = e.altitude
            sigmaM = e.altitudeStandardDeviation
            qnhHpa = hasBarometer ? e.seaLevelPressure : nil
            qnhSigmaHpa = hasBarometer ? e.seaLevelPressureStandardDeviation : nil
        }

        enum CodingKeys: String, CodingKey { case altitudeM, sigmaM, qnhHpa, qnhSigmaHpa }

        /// Encodes every key, QNH as `null` without a barometer.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(altitudeM, forKey: .altitudeM)
            try container.encode(sigmaM, forKey: .sigmaM)
            try container.encode(qnhHpa, forKey: .qnhHpa)
            try container.encode(qnhSigmaHpa, forKey: .qnhSigmaHpa)
        }
    }

    /// The track's name (empty without `track_id`).
    public var track: String
    /// The rows whose barometer reading (a pressure) reached the filter; with none, the track has no QNH.
    package var barometerReadings = 0
    /// Input rows in the track, whatever became of them.
    public var rows = 0
    /// GPS fixes the filter used.
    public var fixesUsed = 0
    /// GPS fixes the innovation gate rejected.
    public var fixesGated = 0
    /// Rows with a time and no reading, given the filter's prediction.
    public var predicted = 0
    /// Rows rejected (invalid, refused by the filter, or before any reading).
    public var rejected = 0
    /// The first `rejectionsKept` rejected rows.
    public var rejections: [Rejection] = []
    /// The estimate after the last usable row (the smoothed one with `--smooth`).
    public var final: Final?
    /// Weather fronts detected.
    public var fronts: [WeatherFront] = []
    /// The track's total ascent and descent, as `altimetry ascent --json` gives them; only with `--smooth` (the
    /// ascent needs the whole track smoothed), nil otherwise.
    package var ascent: AscentJSON?
    /// Fault episodes: resets to the GPS (no lock-out), barometer steps, spikes and stuck spells, GPS jumps.
    public var episodes: [FilterEpisode] = []
    /// The filter's state after the last row (not with `--smooth`); not part of the JSON.
    public var checkpoint: AltitudeFilterCheckpoint?
    /// The final estimate as the filter gave it; not part of the JSON.
    public var finalEstimate: AltitudeEstimate?

    /// The most rejected rows `rejections` lists (all are counted in `rejected`).
    public static let rejectionsKept = 100

    init(track: String) {
        self.track = track
    }

    private enum CodingKeys: String, CodingKey {
        case track, rows, fixesUsed, fixesGated, predicted, rejected, rejections, final, fronts, episodes, ascent
    }

    /// Encodes every key, `final` and `ascent` as `null` when there are none (a key left out reads as a schema
    /// change to a strict consumer), except `ascent` without `--smooth`, which is not part of the run.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(track, forKey: .track)
        try container.encode(rows, forKey: .rows)
        try container.encode(fixesUsed, forKey: .fixesUsed)
        try container.encode(fixesGated, forKey: .fixesGated)
        try container.encode(predicted, forKey: .predicted)
        try container.encode(rejected, forKey: .rejected)
        try container.encode(rejections, forKey: .rejections)
        try container.encode(final, forKey: .final)
        try container.encode(fronts, forKey: .fronts)
        try container.encode(episodes, forKey: .episodes)
        try container.encodeIfPresent(ascent, forKey: .ascent)
    }

    /// Counts a rejected row.
    mutating func reject(line: Int, reason: String) {
        rejected += 1
        if rejections.count < Self.rejectionsKept { rejections.append(Rejection(line: line, reason: reason)) }
    }
}
