/// What a `FusePipeline` run reports besides its output, as it goes: the lines `altimetry fuse` writes on
/// standard error.
public enum FuseDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// A notice about the input, once: an unknown column passed through, what a track file's elevation was read
    /// as. The text starts with `notice: `.
    case notice(String)
    /// A row the reader could not use or the filter refused, kept in the output as `rejected` (with
    /// `ReadOptions.skipInvalid` or `FusePipeline.skipInvalid`), or a line that is no row at all; in input order.
    case skipped(InputError)

    /// The line as `altimetry fuse` writes it (without the line break).
    public var description: String {
        switch self {
        case .notice(let text): return text
        case .skipped(let error): return "skipped: \(error)"
        }
    }
}
