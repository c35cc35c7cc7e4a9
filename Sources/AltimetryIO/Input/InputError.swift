/// A file the commands cannot use, with where and why, and the exit code it maps to.
///
/// The description names the file, the line (1-based) and the column (name and 1-based number) where they are
/// known, what was found and what was expected, so a person can fix the file without reading code.
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file as given on the command line (`<stdin>` for `-`).
    public var file: String
    /// The 1-based line, when the problem is on one line.
    public var line: Int?
    /// The column's name and 1-based number, when the problem is in one cell.
    public var column: (name: String, number: Int)? {
        get { columnName.map { ($0, columnNumber) } }
        set {
            columnName = newValue?.name
            columnNumber = newValue?.number ?? 0
        }
    }
    private var columnName: String?
    private var columnNumber = 0
    /// What was wrong: what was found and what was expected.
    public var message: String
    /// The sysexits code: `.noInput` (66) for a missing file, `.ioError` (74) for a read failure, else `.dataError` (65).
    public var exitCode: ExitCode

    /// An error in `file`, at `line` and `column` where known, saying `message`, of class `exitCode`.
    ///
    /// - Parameters:
    ///   - file: the input's name.
    ///   - line: the 1-based line, or nil if not known.
    ///   - column: the column's name and 1-based number, or nil if not known.
    ///   - message: what is wrong.
    ///   - exitCode: the sysexits class of the error; `.dataError` (65) by default.
    public init(
        file: String, line: Int? = nil, column: (name: String, number: Int)? = nil, message: String,
        exitCode: ExitCode = .dataError
    ) {
        self.file = file
        self.line = line
        self.columnName = column?.name
        self.columnNumber = column?.number ?? 0
        self.message = message
        self.exitCode = exitCode
    }

    /// `FILE:LINE: column N 'NAME': MESSAGE`, with the parts that are known.
    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        if let columnName {
            text += columnNumber > 0 ? ": column \(columnNumber) '\(columnName)'" : ": field '\(columnName)'"
        }
        return text + ": " + message
    }

    /// `text` in single quotes as a message shows it: control characters (a NUL, a lone CR) escaped as `\u{..}`,
    /// at most 60 characters.
    static func quoted(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars.prefix(60) {
            if scalar.value < 32 || scalar.value == 127 {
                shown += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return "'" + shown + (text.unicodeScalars.count > 60 ? "...'" : "'")
    }

    /// Whether every field is the same.
    public static func == (a: InputError, b: InputError) -> Bool {
        a.file == b.file && a.line == b.line && a.columnName == b.columnName && a.columnNumber == b.columnNumber
            && a.message == b.message && a.exitCode == b.exitCode
    }
}
