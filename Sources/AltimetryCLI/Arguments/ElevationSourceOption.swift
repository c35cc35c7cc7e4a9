import AltimetryIO

extension ElevationSource {
    /// The command-line option, shared by the commands that read track files.
    static let option = ArgumentScanner.Option(
        "ele", .value, placeholder: "gps|barometric",
        help:
            "What a GPX, TCX or FIT elevation is (default: from the device where known, else from the data; the notice says which)."
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
