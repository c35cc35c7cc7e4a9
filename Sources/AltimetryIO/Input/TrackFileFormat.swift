import Foundation

/// The track file formats that watches, bike computers and phone apps upload, read whole.
///
/// `InputFormat` knows them by their content first, then by the extension.
package enum TrackFileFormat: String, Sendable, CaseIterable {
    case gpx, tcx, fit, igc

    /// The format `path`'s extension names (`.gpx`, `.tcx`, `.fit`, `.igc`, any case), or nil.
    package init?(path: String) {
        let lower = path.lowercased()
        guard let format = Self.allCases.first(where: { lower.hasSuffix("." + $0.rawValue) }) else { return nil }
        self = format
    }

    /// Reads `data` in this format, as the file named `file` in messages; elevations of exactly 0.0 that stand for
    /// none are taken out (`removeZeroElevationPlaceholders`; IGC's own zero fields are its reader's).
    ///
    /// - Throws: the reader's `InputError`.
    package func read(
        _ data: Data, file: String, elevation: ElevationSource?,
        skipInvalid: Bool = false
    ) throws(InputError) -> TrackFileReading {
        var reading: TrackFileReading
        switch self {
        case .gpx: reading = try GPXReader.read(data, file: file, elevation: elevation, skipInvalid: skipInvalid)
        case .tcx: reading = try TCXReader.read(data, file: file, elevation: elevation, skipInvalid: skipInvalid)
        case .fit: reading = try FITReader.read(data, file: file, elevation: elevation, skipInvalid: skipInvalid)
        case .igc: return try IGCReader.read(data, file: file, elevation: elevation, skipInvalid: skipInvalid)
        }
        reading.removeZeroElevationPlaceholders()
        return reading
    }

    /// Throws unless some valid row of `reading` carries an altitude reading (a pressure or a GPS altitude).
    ///
    /// - Throws: `InputError` (65) saying the file holds no altitude, and what would give one.
    static func requireAltitude(_ table: InputTable) throws(InputError) {
        guard !table.rows.contains(where: { $0.invalidReason == nil && ($0.pressure != nil || $0.gpsAltitude != nil) })
        else { return }
        throw InputError(
            file: table.file,
            message: "found no altitude in any of its \(table.rows.count) points or records (no elevation, "
                + "barometric altitude or pressure, or only placeholders of 0.0); expected a track with "
                + "elevations, or --pressure FILE with the barometer's readings")
    }
}
