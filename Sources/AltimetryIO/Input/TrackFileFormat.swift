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

    /// Reads `data` in this format, as the file named `file` in messages.
    ///
    /// - Throws: the reader's `InputError`.
    package func read(
        _ data: Data, file: String, elevation: ElevationSource?,
        skipInvalid: Bool = false
    ) throws(InputError) -> TrackFileReading {
        switch self {
        case .gpx: return try GPXReader.read(data, file: file, elevation: elevation, skipInvalid: skipInvalid)
        case .tcx: return try TCXReader.read(data, file: file, elevation: elevation, skipInvalid: skipInvalid)
        case .fit: return try FITReader.read(data, file: file, elevation: elevation, skipInvalid: skipInvalid)
        case .igc: return try IGCReader.read(data, file: file, elevation: elevation, skipInvalid: skipInvalid)
        }
    }
}
