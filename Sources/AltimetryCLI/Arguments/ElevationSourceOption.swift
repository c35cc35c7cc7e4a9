import AltimetryIO

extension ElevationSource {
    /// The command-line option, shared by the commands that read track files.
    static let option = ArgumentScanner.Option(
        "ele", .value, placeholder: "gps|barometric",
        help:
            "What a GPX, TCX or FIT elevation is (default: barometric for FIT records and for GPX or TCX from a device with a barometer, else gps)."
    )

    /// The option's value, or nil (the format's default) when it is absent.
    ///
    /// - Throws: `UsageError` for any other value.
    init?(optionValue: String?) throws(UsageError) {
        guard let optionValue else { return nil }
        guard let source = ElevationSource(rawValue: optionValue) else {
            throw UsageError("option '--ele' expects gps or barometric, got '\(optionValue)'")
        }
        self = source
    }
}
