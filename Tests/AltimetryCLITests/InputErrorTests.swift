import Foundation
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

/// Every kind of bad input named in the issue: its message (file, line, column, found, expected) and exit code.
@Suite("Input errors")
struct InputErrorTests {
    struct Case: Sendable, CustomStringConvertible {
        var description: String
        var file: String
        var contents: String?
        var code: ExitCode
        var fragments: [String]
    }

    static let cases: [Case] = [
        Case(
            description: "missing file", file: "absent.csv", contents: nil, code: .noInput,
            fragments: ["absent.csv: no such file"]),
        Case(
            description: "empty file", file: "empty.csv", contents: "", code: .dataError,
            fragments: ["empty.csv: the file is empty", "expected a header"]),
        Case(
            description: "no header", file: "noheader.csv", contents: "0,1000,110\n1,1000,111\n", code: .dataError,
            fragments: ["noheader.csv:1:", "found data '0,1000,110'", "header was expected"]),
        Case(
            description: "no pressure and no GPS column", file: "nocols.csv", contents: "t,temperature_c\n0,12\n",
            code: .dataError,
            fragments: ["nocols.csv:1:", "found no pressure and no GPS column", "expected pressure_hpa"]),
        Case(
            description: "non-numeric value", file: "text.csv", contents: "t,pressure_hpa\n0,1000\n1,abc\n",
            code: .dataError,
            fragments: ["text.csv:3: column 2 'pressure_hpa': found 'abc', expected a finite number"]),
        Case(
            description: "NaN", file: "nan.csv", contents: "t,pressure_hpa\n0,nan\n", code: .dataError,
            fragments: ["nan.csv:2: column 2 'pressure_hpa': found NaN, expected a finite number"]),
        Case(
            description: "infinite value", file: "inf.csv", contents: "t,gps_alt_m\n0,inf\n", code: .dataError,
            fragments: ["inf.csv:2: column 2 'gps_alt_m': found an infinite value, expected a finite number"]),
        Case(
            description: "kPa in pressure_hpa", file: "kpa.csv", contents: "t,pressure_hpa\n0,1000\n1,101.3\n",
            code: .dataError,
            fragments: ["kpa.csv:3: column 2 'pressure_hpa': found 101.3, which looks like kPa", "pressure_kpa"]),
        Case(
            description: "pressure out of range", file: "range.csv", contents: "t,pressure_hpa\n0,1200\n",
            code: .dataError,
            fragments: ["range.csv:2: column 2 'pressure_hpa': found 1200.0", "between 250 and 1100 hPa"]),
        Case(
            description: "time going backwards", file: "back.csv", contents: "t,pressure_hpa\n5,1000\n4,1000\n",
            code: .dataError,
            fragments: ["back.csv:3: column 1 't': time went backwards: found 4.0 s after 5.0 s"]),
        Case(
            description: "truncated last CSV line", file: "cut.csv",
            contents: "t,pressure_hpa,gps_alt_m\n0,1000,110\n1,10", code: .dataError,
            fragments: ["cut.csv:3:", "found 2 cells, expected 3", "'gps_alt_m' and after are missing", "truncated"]),
        Case(
            description: "truncated last NDJSON line", file: "cut.ndjson",
            contents: "{\"t\":0,\"pressure_hpa\":1000}\n{\"t\":1,\"press",
            code: .dataError, fragments: ["cut.ndjson:2:", "not a complete JSON object", "truncated"]),
        Case(
            description: "malformed GPX", file: "bad.gpx",
            contents:
                "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"><ele>5</ele><time>2024-05-01T12:00:00Z</time></trkseg></gpx>",
            code: .dataError, fragments: ["bad.gpx:1:", "malformed GPX", "expected well-formed XML"]),
        Case(
            description: "NDJSON non-numeric value", file: "text.ndjson",
            contents: "{\"t\":0,\"pressure_hpa\":\"high\"}\n",
            code: .dataError, fragments: ["text.ndjson:1: field 'pressure_hpa': found high, expected a finite number"]),
    ]

    @Test("Bad input stops with a located message and its sysexits code", arguments: cases)
    func badInput(_ c: Case) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try c.contents.map { try dir.file(c.file, $0) } ?? dir.path(c.file)
        let result = runAltimetry(["fuse", path])
        #expect(result.code == c.code)
        // The output stops before the bad row: at most the header and the rows before it.
        #expect(result.out.split(separator: "\n").count <= (c.contents ?? "").split(separator: "\n").count)
        #expect(!result.out.contains("rejected"))
        for fragment in c.fragments { #expect(result.err.contains(fragment), "stderr: \(result.err)") }
    }

    @Test("A directory is not an input file (66) and an unwritable output is EX_CANTCREAT (73) leaving no file")
    func filesystem() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        #expect(runAltimetry(["fuse", dir.url.path]).code == .noInput)
        let input = try dir.file("a.csv", "t,pressure_hpa\n0,1000\n")
        let target = dir.path("missing-directory/out.csv")
        let result = runAltimetry(["fuse", input, "--out", target])
        #expect(result.code == .cannotCreate)
        #expect(result.err.contains("cannot create the output file"))
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test("Usage mistakes exit with 64 and show the usage")
    func usage() {
        let result = runAltimetry(["fuse", "a.csv", "--format", "xml"])
        #expect(result.code == .usage)
        #expect(result.err.contains("--format' expects csv, ndjson or gpx"))
        #expect(result.err.contains("USAGE: altimetry fuse"))
        #expect(runAltimetry(["fuse"]).code == .usage)
        #expect(runAltimetry(["fuse", "a.csv", "--gate", "maybe"]).code == .usage)
    }

    @Test("--skip-invalid keeps every row: invalid ones are rejected in the output, reported on stderr and counted")
    func skipInvalid() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = try dir.file(
            "mixed.csv",
            "t,pressure_hpa,gps_alt_m\n0,1000,110\n1,abc,111\n2,101.2,\n3,1000.01,112\n2.5,1000,\n4,1000.02,\n")
        let result = runAltimetry(["fuse", input, "--skip-invalid"])
        #expect(result.code == .success)
        let lines = result.out.split(separator: "\n").map(String.init)
        try #require(lines.count == 7)
        #expect(lines[1].hasSuffix(",ok"))
        #expect(lines[4].hasSuffix(",ok"))
        #expect(lines[6].hasSuffix(",ok"))
        #expect(lines[2] == "1,,,,,,,,,,\"rejected: found 'abc', expected a finite number\"")
        #expect(lines[3].hasPrefix("2,,,,,,,,,,\"rejected: found 101.2, which looks like kPa"))
        #expect(lines[5].hasPrefix("2.5,,,,,,,,,,rejected: time went backwards: found 2.5 s after 3.0 s"))
        #expect(result.err.components(separatedBy: "skipped: ").count == 4)
        #expect(result.err.contains("skipped as invalid: 3"))
    }
}
