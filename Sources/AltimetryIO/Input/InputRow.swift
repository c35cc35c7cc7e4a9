/// One data row of an input file, in the core's units, with where it came from.
///
/// Missing readings are `nil`. A row whose values could not be used under `--skip-invalid` keeps its line and
/// carries `invalidReason`; it still gets an output row (status `rejected: <reason>`), so nothing is dropped.
public struct InputRow: Sendable, Equatable {
    /// The 1-based line in the file (of the track point's start tag for GPX and TCX; the message's 1-based index
    /// among the data messages for FIT).
    public var line: Int
    /// Time, in seconds (column `t`, or seconds since 1970-01-01T00:00:00Z for an ISO 8601 `time`).
    public var time: Double
    /// Station pressure, in hPa.
    @NaNForNil public var pressure: Double?
    /// GPS altitude above mean sea level, in metres.
    @NaNForNil public var gpsAltitude: Double?
    /// The fix's vertical accuracy as one standard deviation, in metres.
    @NaNForNil public var gpsVerticalAccuracy: Double?
    /// Air temperature, in kelvin.
    @NaNForNil public var temperature: Double?
    /// The reference altitude (`true_alt_m` or `ref_alt_m`), in metres; never given to the filter.
    @NaNForNil public var reference: Double?
    /// Index of the row's track in `InputTable.trackNames` (0 when the file has no `track_id`).
    public var track: Int
    /// Latitude in degrees, north positive, when the input has positions (track files, or `lat`/`lon` columns).
    @NaNForNil public var latitude: Double?
    /// Longitude in degrees, east positive.
    @NaNForNil public var longitude: Double?
    /// Why the row cannot be used, when `--skip-invalid` kept it instead of stopping.
    public var invalidReason: String?

    /// A row from `line` at `time` (seconds), with the readings given, in the units of the properties.
    ///
    /// - Parameters:
    ///   - line: the 1-based line in the file (the track point's for GPX and TCX, the data message's index for FIT).
    ///   - time: the row's time, in seconds.
    ///   - pressure: the station pressure, in hPa.
    ///   - gpsAltitude: the GPS altitude above mean sea level, in metres.
    ///   - gpsVerticalAccuracy: the fix's vertical accuracy as one standard deviation, in metres.
    ///   - temperature: the air temperature, in kelvin.
    ///   - reference: the reference altitude, in metres.
    ///   - track: the index of the row's track in `InputTable.trackNames`.
    ///   - latitude: degrees, north positive.
    ///   - longitude: degrees, east positive.
    ///   - invalidReason: why the row cannot be used, or nil for a usable row.
    public init(
        line: Int, time: Double, pressure: Double? = nil, gpsAltitude: Double? = nil,
        gpsVerticalAccuracy: Double? = nil, temperature: Double? = nil, reference: Double? = nil,
        track: Int = 0, latitude: Double? = nil, longitude: Double? = nil, invalidReason: String? = nil
    ) {
        self.line = line
        self.time = time
        self.pressure = pressure
        self.gpsAltitude = gpsAltitude
        self.gpsVerticalAccuracy = gpsVerticalAccuracy
        self.temperature = temperature
        self.reference = reference
        self.track = track
        self.latitude = latitude
        self.longitude = longitude
        self.invalidReason = invalidReason
    }
}
