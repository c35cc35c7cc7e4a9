/// What a track file reader (GPX, TCX, FIT) gives: the rows, what their elevation was taken as and why, and for
/// GPX the document that GPX output gives back.
package struct TrackFileReading: Sendable, Equatable {
    /// The rows, one per track point or record, in file order.
    package var table: InputTable
    /// What the file's elevation was read as.
    package var elevation: ElevationSource
    /// Why: the option, or the default the format and device made likely (for the summary).
    package var elevationReason: String
    /// The GPX document, when the file is GPX.
    package var gpx: GPXDocument?

    /// The summary's line about the elevation, such as `elevation read as barometric (FIT records; --ele gps ...)`.
    package var elevationNote: String {
        "\(table.file): elevation read as \(elevation.rawValue) (\(elevationReason))"
    }
}

extension ElevationSource {
    /// Device families whose files' elevation is barometric: every model of these has a barometric altimeter
    /// and records its altitude (Garmin fēnix, epix, Enduro, Instinct, Edge, Descent, tactix, MARQ; Wahoo
    /// ELEMNT; Coros; Suunto). Matched case-insensitively in the creator the file names.
    static let barometricDeviceNames = [
        "fenix", "fēnix", "epix", "enduro", "instinct", "edge", "descent", "tactix",
        "marq", "elemnt", "coros", "suunto",
    ]

    /// Models without a barometric altimeter whose names a creator may hold (spaces ignored, so `Edge 200` and
    /// `EDGE200` match; a model matches only where no digit or letter follows, so `edge20` is not `edge200`):
    /// matched before the barometric families, which would take an Edge 200 for an Edge with a barometer.
    static let gpsOnlyDeviceNames = [
        "forerunner10", "forerunner15", "forerunner25", "forerunner30", "forerunner35", "forerunner45",
        "forerunner50", "forerunner55", "forerunner60", "forerunner70", "forerunner110", "forerunner205",
        "forerunner210", "forerunner220", "forerunner225", "forerunner230", "forerunner235", "forerunner245",
        "forerunner305", "forerunner310xt", "forerunner405", "forerunner410", "forerunner610", "forerunner620",
        "forerunner630", "forerunner735xt", "edge200", "edge205", "edge20", "edge25", "edgetouring", "venusq",
    ]

    /// The GPS-only model `creator` names, or nil.
    static func gpsOnlyModel(in creator: String) -> String? {
        let compact = creator.lowercased().filter { $0 != " " && $0 != "-" && $0 != "_" }
        return gpsOnlyDeviceNames.first { name in
            var rest = compact[...]
            while let found = rest.range(of: name) {
                let next = rest[found.upperBound...].first
                if next.map({ !$0.isLetter && !$0.isNumber }) ?? true { return true }
                rest = rest[found.upperBound...]
            }
            return false
        }
    }

    /// The elevation `option` gives, or the default for a GPX or TCX file whose creator is `creator`, with why.
    static func resolved(_ option: ElevationSource?, creator: String) -> (ElevationSource, String) {
        if let option { return (option, "--ele \(option.rawValue)") }
        let lower = creator.lowercased()
        if let model = gpsOnlyModel(in: creator) {
            return (.gps, "the creator '\(creator)' is a \(model) without a barometer; --ele barometric to override")
        }
        if let family = barometricDeviceNames.first(where: { lower.contains($0) }) {
            return (
                .barometric, "the creator '\(creator)' is a \(family) device with a barometer; --ele gps to override"
            )
        }
        let named = creator.isEmpty ? "no creator named" : "creator '\(creator)'"
        return (.gps, "\(named), not a device known to record barometric elevation; --ele barometric to override")
    }
}
