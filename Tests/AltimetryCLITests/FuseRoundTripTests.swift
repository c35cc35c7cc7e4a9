import Foundation
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

@Suite("fuse reads its own output")
struct FuseRoundTripTests {
    @Test("fuse's CSV output, with both 't' and 'time', is read back: same rows, same times")
    func csvRoundTrip() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var text = "time,pressure_hpa,gps_alt_m,gps_vacc_m\n"
        for k in 0..<120 {
            text +=
                "2024-05-01T10:\(k / 60 < 10 ? "0" : "")\(k / 60):\(k % 60 < 10 ? "0" : "")\(k % 60).5Z,"
                + "\(950 - Double(k) * 0.01),\(500 + Double(k) * 0.1),4\n"
        }
        let input = try directory.file("in.csv", text)
        let first = runAltimetry(["fuse", input, "--out", directory.path("once.csv")])
        #expect(first.code == .success, "\(first.err)")
        let second = runAltimetry(["fuse", directory.path("once.csv"), "--out", directory.path("twice.csv")])
        #expect(second.code == .success, "\(second.err)")
        let once = try directory.read("once.csv").split(separator: "\n")
        let twice = try directory.read("twice.csv").split(separator: "\n")
        #expect(once.count == 121 && twice.count == once.count)
        let times = { (lines: [Substring]) in lines.dropFirst().map { $0.split(separator: ",").prefix(2) } }
        #expect(times(once) == times(twice))
        #expect(twice.dropFirst().allSatisfy { $0.hasSuffix(",ok") })
    }

    @Test("A 't' that is not the row's 'time' is named, with both values")
    func disagreeingTimes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let input = try directory.file(
            "both.csv", "t,time,pressure_hpa\n1714557600,2024-05-01T10:00:00Z,1000\n5,2024-05-01T10:00:01Z,1000\n")
        let run = runAltimetry(["fuse", input])
        #expect(run.code == .dataError)
        #expect(
            run.err.contains(
                "both.csv:3: column 1 't': found 5.0 s, which is not the row's 'time' (1714557601.0 s since "
                    + "1970-01-01T00:00:00Z)"), "\(run.err)")
    }

    @Test("fuse's NDJSON output, with both 't' and 'time', is read back: same rows, same times")
    func ndjsonRoundTrip() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let input = try directory.file(
            "in.csv",
            "time,pressure_hpa,gps_alt_m\n2024-05-01T10:00:00Z,1000,110\n2024-05-01T10:00:01.5Z,1000.1,111\n")
        #expect(runAltimetry(["fuse", input, "--out", directory.path("once.ndjson")]).code == .success)
        let second = runAltimetry(["fuse", directory.path("once.ndjson"), "--format", "ndjson"])
        #expect(second.code == .success, "\(second.err)")
        #expect(
            second.out.split(separator: "\n").count == 2 && second.out.contains("\"time\":\"2024-05-01T10:00:01.5Z\""))
    }
}
