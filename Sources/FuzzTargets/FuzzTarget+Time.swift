import AltimetryIO

extension FuzzTarget {
    /// The ISO 8601 time parser every reader calls for a `time` (CSV, NDJSON, GPX, TCX and `--pressure`), on the
    /// bytes themselves.
    ///
    /// The promises: any bytes give a time or nil, never a trap; an accepted time is finite and within the years
    /// 0000 to 9999; and it survives the writer's round trip, parsed again from the text the writers put in their
    /// output, to the millisecond the writer keeps. The readers' own targets (`csv`, `ndjson`, `gpx`, `tcx`) reach
    /// the same parser through a row, with times in their dictionaries; this target spends no execution on a
    /// reader's framing, so it runs a few hundred thousand inputs a second.
    public static let time = FuzzTarget(
        name: "time",
        summary: "the ISO 8601 parser: no crash; an accepted time is within years 0 to 9999 and survives the writer"
    ) { bytes in
        let parser = ISO8601Parser()
        let text = String(decoding: bytes, as: UTF8.self)
        guard let seconds = parser.seconds(text) else { return nil }
        // 0000-01-01 and the end of 9999, in seconds since 1970 (a time in 9999's last microsecond rounds to it).
        guard seconds.isFinite, seconds >= -62_167_219_200, seconds <= 253_402_300_800 else {
            return FuzzFinding("time '\(text)' read as \(seconds) s")
        }
        let written = parser.text(seconds)
        let millisecond = (seconds * 1_000).rounded() / 1_000
        // A time near 9999-12-31T23:59:59.9995Z rounds past the last writable time and is written as a number.
        guard let again = parser.seconds(written) else {
            return millisecond < 253_402_300_800 ? FuzzFinding("'\(text)' written as '\(written)', not read back") : nil
        }
        // The text carries milliseconds; its reading is exact to a double's spacing at 10¹¹ s (15 µs).
        guard abs(again - millisecond) <= 1e-4 else {
            return FuzzFinding("'\(text)' (\(seconds) s) written as '\(written)', read back as \(again) s")
        }
        return nil
    }
}
