/// One IGC B record (a fix), decoded field by field at the columns the IGC specification fixes.
///
/// The layout (FAI IGC Flight Recorder Specification, Appendix A, "B Record"; columns 1-based):
///
///     B HHMMSS DDMMmmm N DDDMMmmm E V PPPPP GGGGG [extensions]
///     1 2    7 8    14 15 16   23 24 25 26 30 31 35 36...
///
/// time UTC; latitude and longitude in degrees and thousandths of minutes; the fix validity (`A` a 3D fix, `V` no
/// valid GNSS altitude); the pressure altitude in whole metres above the ISA 1013.25 hPa level (negative as
/// `-0012`); the GNSS altitude in whole metres above the WGS 84 ellipsoid or the geoid. The I record's
/// extensions follow at the columns it declares; `LAD` and `LOD` add digits to the latitude's and longitude's
/// minutes.
struct IGCFix: Sendable, Equatable {
    /// Seconds since midnight UTC, 0 to 86,399.
    var secondsOfDay: Int
    /// Degrees, north positive.
    var latitude: Double
    /// Degrees, east positive.
    var longitude: Double
    /// Whether the fix is a valid 3D fix (`A`); a `V` fix's GNSS altitude is not usable.
    var isValid: Bool
    /// The pressure altitude, in whole metres above the 1013.25 hPa level of the ISA.
    var pressureAltitude: Int
    /// The GNSS altitude, in whole metres.
    var gnssAltitude: Int

    /// The shortest B record: up to the GNSS altitude's last column.
    static let minimumLength = 35

    /// A field of the record: its name in messages and its columns (1-based, inclusive).
    struct Field: Sendable {
        let name: String
        let columns: ClosedRange<Int>
        /// What a valid value looks like, for messages.
        let expected: String
    }

    static let time = Field(name: "time", columns: 2...7, expected: "HHMMSS, a UTC time of day")
    static let latitude = Field(
        name: "latitude", columns: 8...15, expected: "DDMMmmmN or S (degrees 0-90, minutes below 60)")
    static let longitude = Field(
        name: "longitude", columns: 16...24, expected: "DDDMMmmmE or W (degrees 0-180, minutes below 60)")
    static let validity = Field(name: "fix validity", columns: 25...25, expected: "A (3D fix) or V (no GNSS altitude)")
    static let pressureAltitude = Field(
        name: "pressure altitude", columns: 26...30, expected: "five digits, or '-' and four, in metres")
    static let gnssAltitude = Field(
        name: "GNSS altitude", columns: 31...35, expected: "five digits, or '-' and four, in metres")

    /// Decodes the record `line` (its bytes without the line break), with the latitude and longitude digits the
    /// I record's `LAD` and `LOD` extensions add.
    ///
    /// - Throws: `IGCFixError`: a record too short, or the first field that does not hold what the layout says.
    init(_ line: ArraySlice<UInt8>, extensions: IGCExtensions) throws(IGCFixError) {
        let bytes = Array(line)
        guard bytes.count >= Self.minimumLength else { throw .short(length: bytes.count) }
        func digits(_ range: ClosedRange<Int>) -> Int? {
            var value = 0
            for k in range {
                let byte = bytes[k - 1]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        func text(_ field: Field) -> String {
            String(decoding: bytes[(field.columns.lowerBound - 1)...(field.columns.upperBound - 1)], as: UTF8.self)
        }
        func signed(_ field: Field) -> Int? {
            let c = field.columns
            if bytes[c.lowerBound - 1] == UInt8(ascii: "-") {
                return digits((c.lowerBound + 1)...c.upperBound).map { -$0 }
            }
            return digits(c)
        }
        guard let hours = digits(2...3), let minutes = digits(4...5), let seconds = digits(6...7), hours < 24,
            minutes < 60, seconds < 60
        else { throw .field(Self.time, found: text(Self.time)) }
        secondsOfDay = hours * 3_600 + minutes * 60 + seconds
        func angle(_ field: Field, degreeDigits: Int, positive: UInt8, negative: UInt8, extra: Int?, maximum: Double)
            throws(IGCFixError) -> Double
        {
            let start = field.columns.lowerBound
            let hemisphere = bytes[field.columns.upperBound - 1]
            guard let degrees = digits(start...(start + degreeDigits - 1)),
                let thousandths = digits((start + degreeDigits)...(start + degreeDigits + 4)),
                thousandths < 60_000, hemisphere == positive || hemisphere == negative
            else { throw .field(field, found: text(field)) }
            let minutes = (Double(thousandths) + Double(extra ?? 0) / 10) / 1_000
            let value = Double(degrees) + minutes / 60
            guard value <= maximum else { throw .field(field, found: text(field)) }
            return hemisphere == positive ? value : -value
        }
        latitude = try angle(
            Self.latitude, degreeDigits: 2, positive: UInt8(ascii: "N"), negative: UInt8(ascii: "S"),
            extra: extensions.latitudeDigit(bytes), maximum: 90)
        longitude = try angle(
            Self.longitude, degreeDigits: 3, positive: UInt8(ascii: "E"), negative: UInt8(ascii: "W"),
            extra: extensions.longitudeDigit(bytes), maximum: 180)
        switch bytes[24] {
        case UInt8(ascii: "A"): isValid = true
        case UInt8(ascii: "V"): isValid = false
        default: throw .field(Self.validity, found: text(Self.validity))
        }
        guard let pressure = signed(Self.pressureAltitude) else {
            throw .field(Self.pressureAltitude, found: text(Self.pressureAltitude))
        }
        guard let gnss = signed(Self.gnssAltitude) else {
            throw .field(Self.gnssAltitude, found: text(Self.gnssAltitude))
        }
        pressureAltitude = pressure
        gnssAltitude = gnss
    }
}

/// Why a B record could not be decoded.
enum IGCFixError: Error, Sendable {
    /// The record is shorter than `IGCFix.minimumLength`.
    case short(length: Int)
    /// A field does not hold what the layout says; `found` is its text.
    case field(IGCFix.Field, found: String)
}
