/// The formats `fuse` writes: CSV (the default), NDJSON, or GPX.
public enum OutputFormat: String, Sendable, CaseIterable {
    /// CSV, NDJSON or GPX 1.1, with the fields of `Docs/formats.md`.
    case csv, ndjson, gpx
}
