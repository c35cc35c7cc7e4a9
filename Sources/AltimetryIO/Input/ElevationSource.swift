import Altimetry

/// What a track file's elevation is: a GPS (GNSS) altitude, or a barometric altitude the device computed from
/// its own pressure sensor (`--ele gps|barometric`).
///
/// A barometric elevation is read as the barometer it came from: it is turned back into a pressure through the
/// standard atmosphere (`StandardAtmosphere.pressure(atAltitude:)` with QNH 1013.25 hPa), and the device's
/// unknown calibration offset becomes part of the weather state (QNH), which GPS fixes, where there are any,
/// then estimate. It is never also used as a GPS fix, so the same sensor is not counted twice.
public enum ElevationSource: String, Sendable, Equatable, CaseIterable {
    /// A GPS (GNSS) altitude above mean sea level, in metres: read as a GPS fix.
    case gps
    /// An altitude in metres the device computed from its own barometer: read back as a pressure.
    case barometric

    /// The station pressure, in hPa, that the standard atmosphere gives at a barometric altitude in metres, or
    /// nil outside the standard atmosphere's troposphere (−1,000 to 11,000 m).
    static func pressure(atBarometricAltitude altitude: Double) -> Double? {
        try? StandardAtmosphere.pressure(atAltitude: altitude)
    }
}
