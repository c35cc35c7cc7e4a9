/// A column of the CSV input or a field of an NDJSON object, by its name.
///
/// Units are in the names: `pressure_hpa` (hPa), `pressure_kpa` (kPa), `pressure_pa` (Pa), metres for `_m`,
/// degrees Celsius for `temperature_c`, seconds for `t`.
package enum InputField: String, Sendable, CaseIterable {
    case t, time
    case pressureHectopascals = "pressure_hpa", pressureKilopascals = "pressure_kpa", pressurePascals = "pressure_pa"
    /// A barometric altitude in metres (a watch's or Core Motion's), read through the standard atmosphere as a
    /// pressure; see `ElevationSource`.
    case barometricAltitude = "baro_alt_m"
    /// Another name of `baro_alt_m`: an altitude relative to where the recording started (Core Motion's
    /// `relativeAltitude`, a floor counter's input); it is a barometric altitude whose offset is unknown.
    case relativeAltitude = "relative_alt_m"
    case gpsAltitude = "gps_alt_m", gpsEllipsoidAltitude = "gps_alt_ellipsoid_m", geoidSeparation = "geoid_sep_m"
    case gpsVerticalAccuracy = "gps_vacc_m"
    case temperatureCelsius = "temperature_c"
    case trackID = "track_id"
    case trueAltitude = "true_alt_m", referenceAltitude = "ref_alt_m"
    case latitude = "lat", longitude = "lon"

    /// Whether the column is passed through to the output unchanged (the filter does not use it).
    var passesThrough: Bool { self == .latitude || self == .longitude }

    /// The notice for columns or fields no reader knows, which are passed through to the output.
    static func unknownNotice(file: String, names: [String], kind: String) -> String {
        "notice: \(file): passing unknown \(kind)\(names.count == 1 ? "" : "s") "
            + names.map { "'\($0)'" }.joined(separator: ", ") + " through to the output unchanged"
    }

    /// Whether the field is a pressure column.
    var isPressure: Bool { self == .pressureHectopascals || self == .pressureKilopascals || self == .pressurePascals }

    /// Whether the field is the barometer's reading: a pressure column or `baro_alt_m`.
    var isBarometer: Bool { isPressure || self == .barometricAltitude || self == .relativeAltitude }

    /// Hectopascals per unit of the column.
    var hectopascalsPerUnit: Double {
        switch self {
        case .pressureKilopascals: return 10
        case .pressurePascals: return 0.01
        default: return 1
        }
    }
}

/// The checks every reader applies to one value, so CSV, NDJSON and GPX say the same thing about the same mistake.
enum ValueCheck {
    /// The range of station pressure accepted, in hPa: from airliner cruising levels to the deepest valleys.
    static var pressureRange: ClosedRange<Double> { 250.0...1_100.0 }

    /// Why a value of `field` (already a finite number in the column's unit) is unusable, or nil if it is fine.
    static func problem(_ field: InputField, _ value: Double) -> String? {
        switch field {
        case .pressureHectopascals, .pressureKilopascals, .pressurePascals:
            if field == .pressureHectopascals, value >= 25, value <= 110 {
                return "found \(value), which looks like kPa, not hPa; expected a pressure in hPa between 250 and 1100 "
                    + "(rename the column to pressure_kpa if the file is in kPa)"
            }
            let hPa = value * field.hectopascalsPerUnit
            if !pressureRange.contains(hPa) {
                return "found \(value) (\(hPa) hPa), expected a station pressure between 250 and 1100 hPa"
            }
        case .barometricAltitude, .relativeAltitude:
            if ElevationSource.pressure(atBarometricAltitude: value) == nil {
                return
                    "found \(value), expected a barometric altitude in metres within the standard atmosphere (-1000 to 11000)"
            }
        case .gpsAltitude, .gpsEllipsoidAltitude, .trueAltitude, .referenceAltitude:
            if abs(value) >= 20_000 { return "found \(value), expected an altitude in metres within ±20,000" }
        case .geoidSeparation:
            if abs(value) > 200 { return "found \(value), expected a geoid separation in metres within ±200" }
        case .gpsVerticalAccuracy:
            if value <= 0 { return "found \(value), expected a positive vertical accuracy in metres" }
        case .temperatureCelsius:
            if value < -120 || value > 75 {
                return "found \(value), expected an air temperature between -120 and 75 °C"
            }
        case .latitude:
            if abs(value) > 90 { return "found \(value), expected a latitude in degrees within ±90" }
        case .longitude:
            if abs(value) > 180 { return "found \(value), expected a longitude in degrees within ±180" }
        case .t, .time, .trackID:
            break
        }
        return nil
    }
}

extension InputRow {
    /// Stores a numeric `field`'s `value` (finite, already checked by `ValueCheck`) in the row, in the core's
    /// units; an ellipsoidal altitude and a geoid separation go to `ellipsoid` and `separation`, to be combined
    /// once the whole row is read. Time texts and track names are the readers' own.
    @inline(__always)
    mutating func store(
        _ field: InputField, _ value: Double, options: ReadOptions, ellipsoid: inout Double?,
        separation: inout Double?
    ) {
        switch field {
        case .t: time = value
        case .pressureHectopascals, .pressureKilopascals, .pressurePascals:
            pressure = value * field.hectopascalsPerUnit
        case .barometricAltitude, .relativeAltitude: pressure = ElevationSource.pressure(atBarometricAltitude: value)
        case .gpsAltitude: gpsAltitude = value
        case .gpsEllipsoidAltitude: ellipsoid = value
        case .geoidSeparation: separation = value
        case .gpsVerticalAccuracy: gpsVerticalAccuracy = options.verticalAccuracy.standardDeviation(ofReported: value)
        case .temperatureCelsius: temperature = value + 273.15
        case .trueAltitude, .referenceAltitude: reference = value
        case .latitude: latitude = value
        case .longitude: longitude = value
        case .time, .trackID: break
        }
    }
}
