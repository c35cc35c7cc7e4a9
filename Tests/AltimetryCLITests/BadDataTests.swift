import Foundation
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

/// Bad data that readers used to take silently: each is now read right or refused with its line and column.
@Suite("Bad data is never taken silently")
struct BadDataTests {
    static func fuse(_ name: String, _ contents: String, _ extra: [String] = []) throws -> (
        code: ExitCode, out: String, err: String
    ) {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        return runAltimetry(["fuse", try dir.file(name, contents)] + extra)
    }

    @Test(
        "A NUL byte inside a number is an error, not the digits before it",
        arguments: [
            ("in.csv", "t,pressure_hpa\n0,987\u{0}1\n"), ("in.ndjson", "{\"t\":0,\"pressure_hpa\":987\u{0}1}\n"),
        ])
    func nulInNumber(_ name: String, _ contents: String) throws {
        let run = try Self.fuse(name, contents)
        #expect(run.code == .dataError, "\(run.out)")
        #expect(run.err.contains("\(name):2:") || run.err.contains("\(name):1:"), "\(run.err)")
        #expect(!run.out.contains("987"))
    }

    @Test(
        "Hexadecimal 0x1p10 is not a number (strtod reads it as 1024)",
        arguments: [("in.csv", "t,pressure_hpa\n0,0x1p10\n"), ("in.ndjson", "{\"t\":0,\"pressure_hpa\":0x1p10}\n")])
    func hexadecimal(_ name: String, _ contents: String) throws {
        let run = try Self.fuse(name, contents)
        #expect(run.code == .dataError)
        #expect(run.err.contains("0x1p10"), "\(run.err)")
    }

    @Test(
        "CR-only line endings are a clear error, not 0 rows and success",
        arguments: [
            ("in.csv", "t,pressure_hpa\r0,1000\r1,1000.1\r"),
            ("in.ndjson", "{\"t\":0,\"pressure_hpa\":1000}\r{\"t\":1,\"pressure_hpa\":1000}\r"),
        ])
    func carriageReturnsOnly(_ name: String, _ contents: String) throws {
        let run = try Self.fuse(name, contents)
        #expect(run.code == .dataError)
        #expect(run.err.contains("CR alone"), "\(run.err)")
    }

    @Test("A UTF-8 byte order mark before the CSV header is accepted")
    func byteOrderMark() throws {
        let plain = try Self.fuse("in.csv", "t,pressure_hpa\n0,1000\n1,1000.1\n")
        let marked = try Self.fuse("in.csv", "\u{FEFF}t,pressure_hpa\n0,1000\n1,1000.1\n")
        #expect(marked.code == .success, "\(marked.err)")
        #expect(marked.out == plain.out)
    }

    @Test("An NDJSON true, or a string, where a number belongs is an error naming the field")
    func booleanIsNotANumber() throws {
        let run = try Self.fuse("in.ndjson", "{\"t\":0,\"pressure_hpa\":1000}\n{\"t\":1,\"pressure_hpa\":true}\n")
        #expect(run.code == .dataError)
        #expect(
            run.err.contains("in.ndjson:2: field 'pressure_hpa': found true, expected a finite number"), "\(run.err)")
        let skipped = try Self.fuse(
            "in.ndjson", "{\"t\":0,\"pressure_hpa\":1000}\n{\"t\":1,\"pressure_hpa\":true}\n", ["--skip-invalid"])
        #expect(skipped.out.contains("rejected: found true, expected a finite number"))
    }

    @Test("With --skip-invalid a malformed NDJSON line costs only itself: every other row and track goes on")
    func malformedLineSkipped() throws {
        let text = """
            {"t":0,"track_id":"a","pressure_hpa":1000}
            {"t":0,"track_id":"b","pressure_hpa":990}
            {"t":1,"track_id":"a","pressure_hpa":1000.1
            {"t":1,"track_id":"b","pressure_hpa":990.1}
            {"t":2,"track_id":"a","pressure_hpa":1000.2}

            """
        let run = try Self.fuse("in.ndjson", text, ["--skip-invalid"])
        #expect(run.code == .success, "\(run.err)")
        #expect(run.out.split(separator: "\n").count == 5, "the header and the four good rows")
        #expect(run.err.contains("skipped: "), "\(run.err)")
        #expect(run.err.contains("in.ndjson:3:"))
        #expect(run.err.contains("skipped as invalid: 1"))
    }

    @Test("Columns the filter does not use pass through to CSV and NDJSON unchanged")
    func passThrough() throws {
        let csv = try Self.fuse("in.csv", "t,user,pressure_hpa,lat,hr\n0,x y,1000,46.5,72\n1,z,1000.1,46.6,\n")
        #expect(
            csv.out.hasPrefix(
                "t,altitude_m,sigma_m,qnh_hpa,qnh_sigma_hpa,gps_error_m,precision_m,relative_alt_m,column_temp_c,column_temp_sigma_c,user,lat,hr,status\n"
            ))
        #expect(csv.out.contains(",x y,46.5,72,ok\n"), "\(csv.out)")
        #expect(csv.out.contains(",z,46.6,,ok\n"))
        let json = try Self.fuse("in.csv", "t,user,pressure_hpa,lat,hr\n0,x y,1000,46.5,72\n", ["--format", "ndjson"])
        #expect(json.out.contains(",\"user\":\"x y\",\"lat\":46.5,\"hr\":72,\"status\":\"ok\"}"), "\(json.out)")
        let ndjson = try Self.fuse(
            "in.ndjson", "{\"t\":0,\"pressure_hpa\":1000,\"user\":\"u\\u00e9\",\"ok\":true,\"status\":null}\n",
            ["--format", "ndjson"])
        #expect(
            ndjson.out.contains(",\"user\":\"ué\",\"ok\":true,\"input_status\":null,\"status\":\"ok\"}"),
            "\(ndjson.out)")
    }
}
