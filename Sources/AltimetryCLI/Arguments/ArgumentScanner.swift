/// A small scanner for `--option value`, `--option=value`, `--flag`, positional arguments and `--`.
///
/// A command declares its options; the scanner checks every token against them and names the offending
/// one in a `UsageError`. Everything after `--` is positional, even if it starts with a dash; a lone `-`
/// is positional too (standard input).
public struct ArgumentScanner: Sendable {
    /// Whether an option takes a value.
    public enum Kind: Sendable { case flag, value }

    /// One declared option.
    public struct Option: Sendable {
        /// The long name without dashes, as in `gps-sigma`.
        public var name: String
        /// Whether it takes a value.
        public var kind: Kind
        /// The value's placeholder in help, such as `M` or `FILE`.
        public var placeholder: String
        /// One line of help, with the unit and the default.
        public var help: String

        public init(_ name: String, _ kind: Kind, placeholder: String = "", help: String) {
            self.name = name
            self.kind = kind
            self.placeholder = placeholder
            self.help = help
        }
    }

    /// Values given for options that take one, by name; the last occurrence wins.
    public private(set) var values: [String: String] = [:]
    /// Flags that were present.
    public private(set) var flags: Set<String> = []
    /// Positional arguments in order.
    public private(set) var positionals: [String] = []

    /// Scans `arguments` against the declared `options`; `--help` is always accepted as a flag.
    ///
    /// - Throws: `UsageError` naming an unknown option, a flag given a value, or an option missing its value.
    public init(_ arguments: [String], options: [Option]) throws(UsageError) {
        let declared = Dictionary(options.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            if onlyPositionals || !token.hasPrefix("--") || token == "-" {
                if !onlyPositionals, token.hasPrefix("-"), token != "-", Double(token) == nil {
                    throw UsageError("unknown option '\(token)' (options are spelled with two dashes)")
                }
                positionals.append(token)
                continue
            }
            if token == "--" {
                onlyPositionals = true
                continue
            }
            let body = token.dropFirst(2)
            let name: String
            var inlineValue: String?
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                inlineValue = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
            }
            if name == "help" {
                flags.insert("help")
                continue
            }
            guard let option = declared[name] else {
                throw UsageError("unknown option '--\(name)'")
            }
            switch option.kind {
            case .flag:
                if inlineValue != nil { throw UsageError("option '--\(name)' is a flag and takes no value") }
                flags.insert(name)
            case .value:
                if let inlineValue {
                    values[name] = inlineValue
                } else if index < arguments.count {
                    values[name] = arguments[index]
                    index += 1
                } else {
                    throw UsageError("option '--\(name)' needs a value (\(option.placeholder))")
                }
            }
        }
    }

    /// Whether `--help` was given.
    public var wantsHelp: Bool { flags.contains("help") }

    /// The value of a numeric option, or `defaultValue` when absent.
    ///
    /// - Throws: `UsageError` if the value is not a finite number or fails `isValid`.
    public func number(_ name: String, default defaultValue: Double, validRange: ClosedRange<Double>? = nil)
        throws(UsageError) -> Double
    {
        guard let text = values[name] else { return defaultValue }
        guard let value = Double(text), value.isFinite else {
            throw UsageError("option '--\(name)' expects a number, got '\(text)'")
        }
        if let validRange, !validRange.contains(value) {
            throw UsageError(
                "option '--\(name)' must be between \(validRange.lowerBound) and \(validRange.upperBound), got \(text)")
        }
        return value
    }

    /// The value of a whole-number option, or `defaultValue` when absent.
    ///
    /// - Throws: `UsageError` if the value is not an integer at least `minimum`.
    public func integer(_ name: String, default defaultValue: Int, minimum: Int = Int.min) throws(UsageError) -> Int {
        guard let text = values[name] else { return defaultValue }
        guard let value = Int(text), value >= minimum else {
            throw UsageError("option '--\(name)' expects a whole number of at least \(minimum), got '\(text)'")
        }
        return value
    }

    /// The single positional argument a command requires, named `placeholder` in the message.
    public func onePositional(_ placeholder: String) throws(UsageError) -> String {
        guard let first = positionals.first else { throw UsageError("missing \(placeholder)") }
        guard positionals.count == 1 else { throw UsageError("unexpected argument '\(positionals[1])'") }
        return first
    }

    /// Throws if any positional argument was given to a command that takes none.
    public func noPositionals() throws(UsageError) {
        if let first = positionals.first { throw UsageError("unexpected argument '\(first)'") }
    }
}
