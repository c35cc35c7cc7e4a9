import AltimetryIO

/// Where a command writes: results to standard output, diagnostics to standard error.
///
/// Commands never print directly, so tests capture both streams and the executable wires them to the process.
public struct Console: Sendable {
    /// Writes to standard output; the text carries its own newlines.
    public var write: @Sendable (String) -> Void
    /// Writes to standard error; the text carries its own newlines.
    public var writeError: @Sendable (String) -> Void
    /// Whether standard error is a terminal (progress lines are shown only then).
    public var errorIsTerminal: Bool
    /// The file descriptor behind `write`, when there is one: a command that streams a large output writes to it
    /// directly and reports a failed write (a full disk, a closed pipe) instead of losing it.
    public var outputDescriptor: Int32?
    /// Why a write through `write` failed (the system's message, as "No space left on device"), or nil while
    /// every write has succeeded; the command line turns a failure into exit 74 (`AltimetryCommandLine`).
    public var outputFailure: @Sendable () -> String?

    public init(
        write: @escaping @Sendable (String) -> Void, writeError: @escaping @Sendable (String) -> Void,
        errorIsTerminal: Bool = false, outputDescriptor: Int32? = nil,
        outputFailure: @escaping @Sendable () -> String? = { nil }
    ) {
        self.write = write
        self.writeError = writeError
        self.errorIsTerminal = errorIsTerminal
        self.outputDescriptor = outputDescriptor
        self.outputFailure = outputFailure
    }
}

/// One subcommand of `altimetry`: its help, how it reads its arguments, and what it does.
public protocol Command: Sendable {
    /// The subcommand's name, as typed.
    static var name: String { get }
    /// One sentence on what it does.
    static var overview: String { get }
    /// The argument synopsis after `altimetry NAME`, such as `INPUT [--out FILE]`.
    static var synopsis: String { get }
    /// The options it accepts.
    static var options: [ArgumentScanner.Option] { get }

    /// Reads the command's settings from scanned arguments.
    ///
    /// - Throws: `UsageError` naming what was wrong.
    init(_ arguments: ArgumentScanner) throws(UsageError)

    /// Runs the command.
    ///
    /// - Returns: the exit code.
    func run(console: Console) -> ExitCode
}

extension Command {
    /// Help in a fixed layout: OVERVIEW, USAGE, OPTIONS.
    public static var help: String {
        var text = "OVERVIEW: \(overview)\n\nUSAGE: altimetry \(name) \(synopsis)\n\nOPTIONS:\n"
        let all = options + [ArgumentScanner.Option("help", .flag, help: "Show this help.")]
        let labels = all.map { "--\($0.name)" + ($0.kind == .value ? " \($0.placeholder)" : "") }
        let width = (labels.map(\.count).max() ?? 0) + 2
        for (label, option) in zip(labels, all) {
            text += "  " + label.padding(toLength: width, withPad: " ", startingAt: 0) + option.help + "\n"
        }
        return text
    }

    /// The usage line alone, shown after a usage error.
    public static var usage: String { "USAGE: altimetry \(name) \(synopsis)\n" }
}
