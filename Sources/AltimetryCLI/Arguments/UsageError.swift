/// A mistake in how a command was invoked; it is printed with the command's usage and exits with EX_USAGE (64).
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, naming the offending token.
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
