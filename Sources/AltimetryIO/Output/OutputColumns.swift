import Altimetry

/// The columns of `fuse`'s output, described once: the CSV header and lines, the NDJSON objects and the GPX
/// points are all written from this description.
///
/// In order: `t` (s); `time` (the input's ISO 8601 text, when it had one); `track_id` (when it had one, or had
/// more than one track, as a multi-track GPX or TCX); the estimate columns (`estimates`); the reference column
/// (`true_alt_m` or `ref_alt_m`, when the input had one); `lat` and `lon` (degrees, from a track file's points:
/// GPX, TCX, FIT); the pass-through columns (`lat`, `lon` of a CSV or NDJSON input and every column the readers
/// do not know, with the input's values unchanged, named as in the input, or `input_NAME` where the name is one
/// of the output's own); `status`. GPX points carry the altitude as `ele` and the other estimate columns, `t` and
/// `status` as `altimetry:` extensions.
///
/// A value that is missing or not finite (a row without a time, a rejected row's estimate) is an empty CSV cell,
/// a JSON `null`, and no element in GPX: no line ever holds `nan` or `inf`.
struct OutputColumns: Sendable {
    /// A column computed from the estimate after a row: its name, its decimals, and the quantity it shows.
    struct EstimateColumn: Sendable {
        let name: String
        let decimals: Int
        let quantity: EstimateQuantity

        init(_ name: String, _ decimals: Int, _ quantity: EstimateQuantity) {
            self.name = name
            self.decimals = decimals
            self.quantity = quantity
        }

        /// The column's value in the estimate `e` (NaN for none).
        @inline(__always)
        func value(_ e: AltitudeEstimate) -> Double { quantity.value(e) }
    }

    /// What an estimate column shows, read from the estimate by a switch (a closure per column would be retained
    /// and released at every call: a tenth of the line's cost).
    enum EstimateQuantity: Sendable {
        case altitude, altitudeSigma, seaLevelPressure, seaLevelPressureSigma, gpsError, displayPrecision,
            relativeAltitude, columnTemperatureCelsius, columnTemperatureSigma

        /// The quantity in `e`, in the column's unit.
        @inline(__always)
        func value(_ e: AltitudeEstimate) -> Double {
            switch self {
            case .altitude: e.altitude
            case .altitudeSigma: e.altitudeStandardDeviation
            case .seaLevelPressure: e.seaLevelPressure
            case .seaLevelPressureSigma: e.seaLevelPressureStandardDeviation
            case .gpsError: e.gpsError
            case .displayPrecision: e.displayPrecision
            case .relativeAltitude: e.relativeAltitude
            case .columnTemperatureCelsius: e.columnTemperature - 273.15
            case .columnTemperatureSigma: e.columnTemperatureStandardDeviation
            }
        }
    }

    /// The estimate columns in output order, with their decimals: metres 3 (1 mm), hPa 3 (0.001 hPa is 1 cm of
    /// altitude) and its sigma 4, the display precision 2. Adding a column is adding a line here (and its
    /// quantity, when new, to `EstimateQuantity`).
    static let estimates: [EstimateColumn] = [
        EstimateColumn("altitude_m", 3, .altitude),
        EstimateColumn("sigma_m", 3, .altitudeSigma),
        EstimateColumn("qnh_hpa", 3, .seaLevelPressure),
        EstimateColumn("qnh_sigma_hpa", 4, .seaLevelPressureSigma),
        EstimateColumn("gps_error_m", 3, .gpsError),
        EstimateColumn("precision_m", 2, .displayPrecision),
        EstimateColumn("relative_alt_m", 3, .relativeAltitude),
        EstimateColumn("column_temp_c", 2, .columnTemperatureCelsius),
        EstimateColumn("column_temp_sigma_c", 2, .columnTemperatureSigma),
    ]

    /// The position columns' names (latitude, longitude; degrees, north and east positive).
    static let positions = ["lat", "lon"]

    /// The estimate column GPX writes as `ele`.
    static let elevation = "altitude_m"

    /// Whether lines carry the input's `time` text.
    let hasTime: Bool
    /// Whether lines carry `track_id`.
    let hasTrackColumn: Bool
    /// Whether lines carry `lat` and `lon` from the rows' positions (a track file's; a CSV or NDJSON input's
    /// `lat` and `lon` pass through as they were written).
    let hasPositionColumns: Bool
    /// The reference column's name (`true_alt_m` or `ref_alt_m`), when the input has one.
    let referenceColumn: String?
    /// The pass-through columns' output names, in input order.
    let passThrough: [String]
    /// A GPX input's document, for GPX output.
    let gpx: GPXDocument?
    /// The number of tracks the header names.
    let trackCount: Int

    /// The columns for the input whose header is `header`.
    init(_ header: InputTable) {
        hasTime = header.timeTexts != nil
        hasTrackColumn = header.hasTrackColumn || header.trackNames.count > 1
        hasPositionColumns =
            header.hasPositions
            && !header.passThroughColumns.contains { $0.lowercased() == "lat" || $0.lowercased() == "lon" }
        referenceColumn = header.referenceColumn
        gpx = header.gpx
        trackCount = header.trackNames.count
        let own = Set(
            ["t", "time", "track_id", "status"] + Self.estimates.map(\.name)
                + (header.referenceColumn.map { [$0] } ?? []) + (hasPositionColumns ? Self.positions : []))
        passThrough = header.passThroughColumns.map { own.contains($0) ? "input_" + $0 : $0 }
    }

    /// Every column's name, in order.
    var names: [String] {
        var names = ["t"]
        if hasTime { names.append("time") }
        if hasTrackColumn { names.append("track_id") }
        names += Self.estimates.map(\.name)
        if let referenceColumn { names.append(referenceColumn) }
        if hasPositionColumns { names += Self.positions }
        return names + passThrough + ["status"]
    }
}
