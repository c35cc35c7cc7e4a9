/// One data row of an input file, in the core's units, with where it came from.
///
/// Missing readings are `nil`. A row whose values could not be used under `--skip-invalid` keeps its line and
/// carries `invalidReason`; it still gets an output row (status `rejected: <reason>`), so nothing is dropped.
public struct InputRow: Sendable {
    /// The 1-based line in the file (the track point's index for GPX).
    public var line: Int
    /// Time, in seconds (column `t`, or seconds since 1970-01-01T00:00:00Z for an ISO 8601 `time`).
    public var time: Double
    /// Index of the row's track in `InputTable.trackNames` (0 when the file has no `track_id`).
    public var track: Int
    /// Why the row cannot be used, when `--skip-invalid` kept it instead of stopping.
    public var invalidReason: String?

    // The optional readings are stored as plain doubles with NaN for "none": a `Double?` takes 16 bytes in an
    // array, so seven of them made a row 152 bytes instead of 96, and a million-row table 56 MB larger. Readers
    // never store NaN as a value (a NaN cell is an error), so the encoding loses nothing.
    private var storedPressure = Double.nan
    private var storedGPSAltitude = Double.nan
    private var storedGPSVerticalAccuracy = Double.nan
    private var storedTemperature = Double.nan
    private var storedReference = Double.nan
    private var storedLatitude = Double.nan
    private var storedLongitude = Double.nan

    @inline(__always) private static func optional(_ value: Double) -> Double? { value.isNaN ? nil : value }

    /// Station pressure, in hPa.
    public var pressure: Double? {
        get { Self.optional(storedPressure) }
        set { storedPressure = newValue ?? .nan }
    }
    /// GPS altitude above mean sea level, in metres.
    public var gpsAltitude: Double? {
        get { Self.optional(storedGPSAltitude) }
        set { storedGPSAltitude = newValue ?? .nan }
    }
    /// The fix's vertical accuracy as one standard deviation, in metres.
    public var gpsVerticalAccuracy: Double? {
        get { Self.optional(storedGPSVerticalAccuracy) }
        set { storedGPSVerticalAccuracy = newValue ?? .nan }
    }
    /// Air temperature, in kelvin.
    public var temperature: Double? {
        get { Self.optional(storedTemperature) }
        set { storedTemperature = newValue ?? .nan }
    }
    /// The reference altitude (`true_alt_m` or `ref_alt_m`), in metres; never given to the filter.
    public var reference: Double? {
        get { Self.optional(storedReference) }
        set { storedReference = newValue ?? .nan }
    }
    /// Latitude and longitude in degrees, when the input has them (GPX, or `lat`/`lon` columns).
    public var latitude: Double? {
        get { Self.optional(storedLatitude) }
        set { storedLatitude = newValue ?? .nan }
    }
    public var longitude: Double? {
        get { Self.optional(storedLongitude) }
        set { storedLongitude = newValue ?? .nan }
    }

    public init(line: Int, time: Double, pressure: Double? = nil, gpsAltitude: Double? = nil,
                gpsVerticalAccuracy: Double? = nil, temperature: Double? = nil, reference: Double? = nil,
                track: Int = 0, latitude: Double? = nil, longitude: Double? = nil, invalidReason: String? = nil) {
        self.line = line
        self.time = time
        self.track = track
        self.invalidReason = invalidReason
        self.pressure = pressure
        self.gpsAltitude = gpsAltitude
        self.gpsVerticalAccuracy = gpsVerticalAccuracy
        self.temperature = temperature
        self.reference = reference
        self.latitude = latitude
        self.longitude = longitude
    }
}

extension InputRow: Equatable {
    /// Equal when every field is, missing readings comparing equal (as the optionals they stand for).
    public static func == (a: InputRow, b: InputRow) -> Bool {
        a.line == b.line && a.time == b.time && a.track == b.track && a.invalidReason == b.invalidReason
            && a.pressure == b.pressure && a.gpsAltitude == b.gpsAltitude
            && a.gpsVerticalAccuracy == b.gpsVerticalAccuracy && a.temperature == b.temperature
            && a.reference == b.reference && a.latitude == b.latitude && a.longitude == b.longitude
    }
}
