import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

@Suite("ArgumentScanner")
struct ArgumentScannerTests {
    static let options: [ArgumentScanner.Option] = [
        .init("out", .value, placeholder: "FILE", help: "Output file."),
        .init("smooth", .flag, help: "Smooth."),
    ]

    @Test("Values with a space or an equals sign, flags, positionals and --")
    func forms() throws {
        let s = try ArgumentScanner(
            ["in.csv", "--out", "a.csv", "--smooth", "--out=b.csv", "--", "--odd"], options: Self.options)
        #expect(s.values["out"] == "b.csv")
        #expect(s.flags == ["smooth"])
        #expect(s.positionals == ["in.csv", "--odd"])
    }

    @Test("Unknown options, missing values and valued flags name the offending token")
    func errors() {
        #expect(throws: UsageError("unknown option '--outt'")) {
            try ArgumentScanner(["--outt", "x"], options: Self.options)
        }
        #expect(throws: UsageError("option '--out' needs a value (FILE)")) {
            try ArgumentScanner(["--out"], options: Self.options)
        }
        #expect(throws: UsageError("option '--smooth' is a flag and takes no value")) {
            try ArgumentScanner(["--smooth=yes"], options: Self.options)
        }
    }

    @Test("A lone dash is standard input, a positional")
    func dash() throws {
        #expect(try ArgumentScanner(["-"], options: Self.options).positionals == ["-"])
    }
}
