import Altimetry

/// Rows read from an input, in input order, with what the input's header said: a whole file (`InputLoader.table`)
/// or one chunk of it (`RowReader.next`).
public struct InputTable: Sendable, Equatable {
    /// The file as named in messages.
    public var file: String
    /// Data rows, in input order.
    public var rows: [InputRow] = []
    /// Track names by index; `[""]` when the input has no `track_id`. In a chunk: every name seen so far.
    public var trackNames: [String] = [""]
    /// Whether the input has a `track_id` column or field.
    public var hasTrackColumn = false
    /// The reference column's name (`true_alt_m` or `ref_alt_m`), when present.
    public var referenceColumn: String?
    /// The original ISO 8601 time text per row, when the input used `time` instead of `t`.
    package var timeTexts: TimeTexts?
    /// The names of the columns passed through to the output unchanged (`lat`, `lon` and every unknown one).
    public var passThroughColumns: [String] = []
    /// Their values, row by row (`passThroughColumns.count` per row).
    public var passThrough: [PassThroughValue] = []
    /// Notices for stderr (unknown columns), each once.
    public var notices: [String] = []
    /// Rows kept with `invalidReason` under `--skip-invalid`, and lines skipped whole (a malformed NDJSON line),
    /// with their messages for stderr, in input order.
    public var skipped: [InputError] = []
    /// The row error that ended the input early (without `--skip-invalid`): `rows` are those before it.
    public var stoppedBy: InputError?
    /// A GPX input's document, which GPX output gives back with the fused elevation.
    package var gpx: GPXDocument?
    /// Whether rows carry a position (`InputRow.latitude` and `longitude`): set by `header` from the rows, so that
    /// a track file's positions, which no pass-through column holds, get `lat` and `lon` output columns.
    package var hasPositions = false

    /// An empty table of the input named `file`.
    public init(file: String) {
        self.file = file
    }

    /// The header alone: the same fields, no rows.
    var header: InputTable {
        var header = self
        header.hasPositions = hasPositions || rows.contains { $0.latitude != nil && $0.longitude != nil }
        header.rows = []
        header.timeTexts = timeTexts == nil ? nil : []
        header.passThrough = []
        header.skipped = []
        header.stoppedBy = nil
        return header
    }

    /// Empties the rows and what goes with them, keeping their storage.
    mutating func removeRows() {
        rows.removeAll(keepingCapacity: true)
        if timeTexts != nil { timeTexts?.removeAll(keepingCapacity: true) }
        passThrough.removeAll(keepingCapacity: true)
        skipped.removeAll()
        stoppedBy = nil
    }

    /// Appends `chunk`'s rows and problems (a chunk of the same input, read after this table's rows).
    mutating func append(_ chunk: InputTable) {
        rows.append(contentsOf: chunk.rows)
        timeTexts?.append(contentsOf: chunk.timeTexts ?? [])
        passThrough.append(contentsOf: chunk.passThrough)
        skipped.append(contentsOf: chunk.skipped)
        notices.append(contentsOf: chunk.notices)
        trackNames = chunk.trackNames
        hasTrackColumn = chunk.hasTrackColumn
    }
}

/// A value of a column passed through from input to output unchanged.
public enum PassThroughValue: Sendable, Equatable {
    /// No value (an empty CSV cell, an absent or null NDJSON field).
    case none
    /// Text: a CSV cell, or an NDJSON string (decoded).
    case text(String)
    /// An NDJSON number or boolean, as written.
    case literal(String)
}

/// How a reader treats bad values and what conventions the file follows.
public struct ReadOptions: Sendable, Equatable {
    /// Keep going past an invalid row, marking it rejected, instead of stopping.
    public var skipInvalid = false
    /// How `gps_vacc_m` is to be read (one sigma, or a 95 % bound).
    public var verticalAccuracy: VerticalAccuracyConvention = .oneSigma
    /// A column (or NDJSON field) to read as the reference altitude in metres, in place of `true_alt_m` and
    /// `ref_alt_m`, which are then ignored; nil reads those two.
    public var referenceColumn: String?
    /// What a GPX, TCX or FIT file's elevation is (`--ele`); nil for the format's default.
    public var elevation: ElevationSource?

    /// Options with the given values; the defaults read as `altimetry fuse` does without options.
    ///
    /// - Parameters:
    ///   - skipInvalid: keep going past an invalid row, marking it rejected, instead of stopping.
    ///   - verticalAccuracy: how `gps_vacc_m` is to be read (one sigma, or a 95 % bound).
    ///   - referenceColumn: a column (or NDJSON field) to read as the reference altitude in metres, or nil.
    ///   - elevation: what a GPX, TCX or FIT file's elevation is; nil for the format's default.
    public init(
        skipInvalid: Bool = false, verticalAccuracy: VerticalAccuracyConvention = .oneSigma,
        referenceColumn: String? = nil, elevation: ElevationSource? = nil
    ) {
        self.skipInvalid = skipInvalid
        self.verticalAccuracy = verticalAccuracy
        self.referenceColumn = referenceColumn
        self.elevation = elevation
    }

    /// The field a column or NDJSON key `name` (lower case) is read as: `referenceColumn` is the reference,
    /// and with one named, `true_alt_m` and `ref_alt_m` are not read (nil, like any unknown name).
    func field(named name: String) -> InputField? {
        guard let wanted = referenceColumn?.lowercased() else { return InputField(rawValue: name) }
        if name == wanted { return .referenceAltitude }
        let field = InputField(rawValue: name)
        return field == .trueAltitude || field == .referenceAltitude ? nil : field
    }
}
