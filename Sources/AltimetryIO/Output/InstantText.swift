/// A row's time in seconds as a reader wants it: an RFC 3339 date-time (UTC) when it is a date, else seconds.
///
/// Times are seconds since 1970-01-01T00:00:00Z when the input had dates (an ISO 8601 `time`, a GPX, TCX or FIT
/// file) and seconds from the recording's own start otherwise (a `t` column). No recording lasts from 1970 to
/// 2000, so a time from 2000-01-01T00:00:00Z (946,684,800 s) on is read as a date and anything earlier as a
/// relative time.
package enum InstantText {
    /// 2000-01-01T00:00:00Z, in seconds since 1970: the earliest time written as a date.
    package static let earliestDate = 946_684_800.0

    /// Whether `seconds` is read as a date (finite, from `earliestDate` on, and writable as one).
    package static func isDate(_ seconds: Double) -> Bool {
        seconds.isFinite && seconds >= earliestDate && ISO8601Parser.isWritable(seconds)
    }

    /// The RFC 3339 text of `seconds` (milliseconds when it has a fraction), or nil when it is not a date.
    package static func date(_ seconds: Double) -> String? {
        isDate(seconds) ? ISO8601Parser().text(seconds) : nil
    }

    /// The date's text, or the time in seconds with `decimals` decimals and " s" for a relative time.
    package static func text(_ seconds: Double, decimals: Int = 1) -> String {
        date(seconds) ?? "\(Fixed.text(seconds, decimals)) s"
    }
}
