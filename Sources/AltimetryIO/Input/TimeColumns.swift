/// The rule for an input with both time columns (CSV) or fields (NDJSON), `t` and `time`, as `fuse` writes its
/// output: the row's time is `time` (ISO 8601, the one a person reads), and `t` must be the same instant in seconds
/// since 1970-01-01T00:00:00Z, so that `fuse` reads its own output back.
enum TimeColumns {
    /// How far `t` may be from `time`, in seconds: `fuse` writes `t` with millisecond decimals.
    static let tolerance = 0.000_5

    /// Why a row's `t` value `seconds` (nil when absent or not a number) disagrees with its `time`, `time`
    /// seconds since 1970; nil when they agree.
    static func disagreement(seconds: Double?, time: Double) -> String? {
        guard let seconds, seconds.isFinite else {
            return "found no number of seconds beside 'time'; expected 't' to be the time in seconds since "
                + "1970-01-01T00:00:00Z (or no 't' column)"
        }
        guard abs(seconds - time) > tolerance else { return nil }
        return "found \(seconds) s, which is not the row's 'time' (\(time) s since 1970-01-01T00:00:00Z); "
            + "expected 't' and 'time' to be the same instant, as fuse writes them (or only one of the two columns)"
    }
}
