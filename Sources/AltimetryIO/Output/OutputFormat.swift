/// The formats `fuse` writes: CSV (the default), NDJSON, or GPX.
public enum OutputFormat: String, Sendable, CaseIterable {
    /// Comma-separated values: a header line, then one line per input row (`Docs/formats.md`).
    case csv
    /// Newline-delimited JSON: one object per input row.
    case ndjson
    /// A GPX 1.1 document: one `trk` per track, each point with its fused elevation in metres.
    case gpx
}
