/// The formats `fuse` writes: CSV (the default), NDJSON, or GPX.
public enum OutputFormat: String, Sendable, CaseIterable {
    case csv, ndjson, gpx
}
