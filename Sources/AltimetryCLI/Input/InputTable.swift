import Altimetry

/// Everything read from an input: the rows in file order and what the header said.
public struct InputTable: Sendable, Equatable {
    /// The file as named in messages.
    public var file: String
    /// Data rows, in input order.
    public var rows: [InputRow] = []
    /// Track names by index; `[""]` when the input has no `track_id`.
    public var trackNames: [String] = [""]
    /// Whether the input has a `track_id` column or field.
    public var hasTrackColumn = false
    /// The reference column's name (`true_alt_m` or `ref_alt_m`), when present.
    public var referenceColumn: String?
    /// The original ISO 8601 time text per row, when the input used `time` instead of `t`.
    public var timeTexts: [String]?
    /// Notices for stderr (unknown columns), each once.
    public var notices: [String] = []
    /// Rows kept with `invalidReason` under `--skip-invalid`, with their messages for stderr.
    public var skipped: [InputError] = []

    public init(file: String) {
        self.file = file
    }
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

    public init(skipInvalid: Bool = false, verticalAccuracy: VerticalAccuracyConvention = .oneSigma,
                referenceColumn: String? = nil) {
        self.skipInvalid = skipInvalid
        self.verticalAccuracy = verticalAccuracy
        self.referenceColumn = referenceColumn
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
