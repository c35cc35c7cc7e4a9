import Altimetry
import Foundation
import Randomness
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

/// Counts the console's writes, to see rows arrive while the file grows.
private final class RecordingConsole: @unchecked Sendable {
    private let lock = NSLock()
    private var writes: [String] = []
    private var errors = ""

    var console: Console {
        Console(
            write: { text in self.lock.withLock { self.writes.append(text) } },
            writeError: { text in self.lock.withLock { self.errors += text } })
    }

    var outputWrites: [String] { lock.withLock { writes } }
    var standardError: String { lock.withLock { errors } }
}

@Suite("fuse --follow")
struct FollowCommandTests {
    /// A simulated recording as input CSV: `altimetry simulate building --seed 4 --duration S`.
    static func recording(seconds: Int) -> String {
        runAltimetry(["simulate", "building", "--seed", "4", "--duration", "\(seconds)"]).out
    }

    /// Two tracks, a comment, a blank line, a reference column, an invalid cell and a row with no reading.
    static let tracks = """
        # two phones in one building
        t,track_id,pressure_hpa,gps_alt_m,gps_vacc_m,true_alt_m
        0,a,1000.00,110.0,5,111
        0,b,990.00,,,195
        1,a,1000.01,112.0,5,111

        2,b,990.02,200.0,6,195
        2,a,999.99,,,111
        3,b,abc,,,195
        3,a,,109.0,4,111
        4,a,,,,111
        5,b,990.05,,,195

        """

    @Test("GIVEN a file written in pieces of whole lines THEN the followed output and its skipped rows are fuse's")
    func piecesEqualFuse() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        for (name, text, extra) in [
            ("sim.csv", Self.recording(seconds: 30), [String]()),
            ("tracks.csv", Self.tracks, ["--skip-invalid"]),
        ] {
            let expected = runAltimetry(["fuse", try dir.file("whole-" + name, text)] + extra)
            #expect(expected.code == .success)
            let lines = Array(text.utf8).split(separator: 10, omittingEmptySubsequences: false).dropLast().map {
                Array($0) + [10]
            }
            for seed in UInt64(1)...2 {
                let path = try dir.file("\(seed)-" + name, "")
                var random = SeededGenerator(seed: seed)
                var pieces: [[UInt8]] = []
                var i = 0
                while i < lines.count {
                    let n = 1 + Int(random.uniform() * 6)
                    pieces.append(lines[i..<min(lines.count, i + n)].flatMap { $0 })
                    i += n
                }
                let written = pieces
                let writer = Thread {
                    guard let handle = FileHandle(forWritingAtPath: path) else { return }
                    for piece in written {
                        try? handle.write(contentsOf: Data(piece))
                        Thread.sleep(forTimeInterval: 0.003)
                    }
                    try? handle.close()
                }
                writer.start()
                let followed = runAltimetry(["fuse", "--follow", path, "--follow-idle", "1"] + extra)
                #expect(followed.out == expected.out, "\(name), seed \(seed)")
                // Skipped rows are reported with their line in the file, as fuse reports them.
                let skipped = { (err: String) in
                    err.split(separator: "\n").filter { $0.hasPrefix("skipped:") }.map {
                        $0.replacingOccurrences(of: "whole-", with: "\(seed)-")
                    }
                }
                #expect(skipped(followed.err) == skipped(expected.err), "\(name), seed \(seed)")
            }
        }
    }

    @Test("A followed file is read in complete lines; a partial line waits for its newline, or for the end")
    func growingFile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try dir.file("grow.csv", "t,pressure_hpa\n0,10")
        let file = try InputFile(path: path, following: FollowPolicy(idleTimeout: 0.3, interrupt: InterruptFlag()))
        func next() throws -> [UInt8]? { try file.nextLines(approximateBytes: 1 << 16).map { Array($0.bytes) } }
        #expect(try next() == Array("t,pressure_hpa\n".utf8))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("00\n1,1000.1\n2,99".utf8))
        #expect(try next() == Array("0,1000\n1,1000.1\n".utf8))
        // No growth for the idle timeout: following ends, and the partial last line goes out as it is.
        #expect(try next() == Array("2,99".utf8))
        #expect(try next() == nil)
    }

    /// Notices received by a policy, from any thread.
    private final class Notices: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    @Test(
        "GIVEN a followed file truncated and written again THEN it is read from its start, its header skipped, with a notice"
    )
    func truncatedFile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try dir.file("log.csv", "t,pressure_hpa\n0,1000\n1,1000.1\n")
        let notices = Notices()
        let file = try InputFile(
            path: path, following: FollowPolicy(idleTimeout: 2, interrupt: InterruptFlag()) { notices.append($0) })
        #expect(
            try file.nextLines(approximateBytes: 1 << 16).map { Array($0.bytes) }
                == Array("t,pressure_hpa\n0,1000\n1,1000.1\n".utf8))
        // As `> log.csv` and a logger starting again do: emptied, then its header and new rows.
        try Data("t,pressure_hpa\n".utf8).write(to: URL(fileURLWithPath: path))
        try Data("t,pressure_hpa\n2,999.9\n".utf8).write(to: URL(fileURLWithPath: path))
        let next = try #require(try file.nextLines(approximateBytes: 1 << 16))
        #expect(Array(next.bytes) == Array("2,999.9\n".utf8))
        #expect(next.firstLine == 2, "the new file's own line number")
        #expect(notices.all.count == 1 && notices.all.first?.contains("was truncated") == true, "\(notices.all)")
    }

    @Test(
        "GIVEN a followed file rotated, or deleted and created again THEN the new file is read from its start, with a notice",
        arguments: [true, false])
    func replacedFile(rotated: Bool) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try dir.file("log.csv", "# a logger\nt,pressure_hpa\n0,1000\n")
        let notices = Notices()
        let file = try InputFile(
            path: path, following: FollowPolicy(idleTimeout: 2, interrupt: InterruptFlag()) { notices.append($0) })
        _ = try file.nextLines(approximateBytes: 1 << 16)
        if rotated {
            try FileManager.default.moveItem(atPath: path, toPath: path + ".1")
        } else {
            try FileManager.default.removeItem(atPath: path)
        }
        _ = try dir.file("log.csv", "# a logger\nt,pressure_hpa\n5,1000.5\n6,1000.6\n")
        let next = try #require(try file.nextLines(approximateBytes: 1 << 16))
        #expect(Array(next.bytes) == Array("5,1000.5\n6,1000.6\n".utf8))
        #expect(next.firstLine == 3)
        #expect(notices.all.count == 1 && notices.all.first?.contains("was replaced") == true, "\(notices.all)")
    }

    @Test("fuse --follow keeps fusing across a truncation and a rotation, one row out per new row")
    func fuseAcrossRestarts() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try dir.file("live.csv", "t,pressure_hpa,gps_alt_m\n0,1000.0,110\n1,1000.0,\n")
        let captured = CapturingConsole()
        let writer = Thread {
            Thread.sleep(forTimeInterval: 0.4)
            try? Data("t,pressure_hpa,gps_alt_m\n2,1000.0,111\n".utf8).write(to: URL(fileURLWithPath: path))
            Thread.sleep(forTimeInterval: 0.4)
            try? FileManager.default.moveItem(atPath: path, toPath: path + ".1")
            try? Data("t,pressure_hpa,gps_alt_m\n3,1000.0,\n".utf8).write(to: URL(fileURLWithPath: path))
        }
        writer.start()
        let code = AltimetryCommandLine.run(
            arguments: ["fuse", path, "--follow", "--follow-idle", "1.5", "--adapt", "off"], console: captured.console)
        #expect(code == .success, "\(captured.standardError)")
        let times = captured.standardOutput.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[0] }
        #expect(times == ["0", "1", "2", "3"], "\(captured.standardOutput)")
        #expect(captured.standardError.contains("was truncated") && captured.standardError.contains("was replaced"))
    }

    @Test(
        "GIVEN another thread appending in uneven chunks WHEN following with an idle timeout THEN the output is fuse's")
    func followWhileWriting() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let text = Self.recording(seconds: 60)
        let finished = try dir.file("finished.csv", text)
        let expected = runAltimetry(["fuse", finished])
        let path = try dir.file("live.csv", "")
        let bytes = Array(text.utf8)
        // 61-byte chunks every 5 ms split lines anywhere; the whole file takes about 0.5 s to write, and no
        // pause is near the 2 s idle timeout even on a loaded machine (a late chunk would only end early and
        // make the outputs differ, failing loudly rather than passing wrongly).
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: path) else { return }
            var i = 0
            while i < bytes.count {
                try? handle.write(contentsOf: Data(bytes[i..<min(bytes.count, i + 61)]))
                i += 61
                Thread.sleep(forTimeInterval: 0.005)
            }
            try? handle.close()
        }
        writer.start()
        let recorded = RecordingConsole()
        let code = AltimetryCommandLine.run(
            arguments: ["fuse", "--follow", path, "--follow-idle", "2"], console: recorded.console)
        #expect(code == .success)
        #expect(recorded.outputWrites.joined() == expected.out)
        // Rows came out as the file grew, in many writes of whole lines, not once at the end.
        #expect(recorded.outputWrites.count > 3)
        #expect(recorded.outputWrites.allSatisfy { $0.hasSuffix("\n") })
        #expect(recorded.standardError.contains("rows: \(expected.out.split(separator: "\n").count - 1)"))
    }

    @Test("GIVEN a last line without its newline THEN following ends by fusing it, as fuse does")
    func unterminatedLastLine() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try dir.file("in.csv", "t,pressure_hpa,gps_alt_m\n0,1000,110\n1,1000.01,\n2,999.98,111")
        let expected = runAltimetry(["fuse", path])
        let followed = runAltimetry(["fuse", "--follow", path, "--follow-idle", "0.2", "--out", dir.path("out.csv")])
        #expect(followed.code == .success)
        #expect(try dir.read("out.csv") == expected.out)
        #expect(expected.out.split(separator: "\n").count == 4)
    }

    @Test(
        "GIVEN an invalid row after 300 valid ones in one batch THEN following writes the 300 and fails as fuse fails")
    func invalidRow() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let rows = (0..<300).map { "\($0),\(1000 + Double($0 % 10) / 100)\n" }.joined()
        let path = try dir.file("in.csv", "# header next\nt,pressure_hpa\n" + rows + "300,-5\n")
        let expected = runAltimetry(["fuse", path])
        #expect(expected.code == .dataError)
        #expect(expected.err.contains("in.csv:303:"))
        let followed = runAltimetry(["fuse", "--follow", path, "--follow-idle", "0.2"])
        #expect(followed.code == .dataError)
        #expect(followed.err.contains("in.csv:303:"))
        #expect(followed.out.split(separator: "\n").count == 301, "the header and the 300 valid rows")
        #expect(followed.out == expected.out)
    }

    @Test(
        "--follow refuses what needs the whole file, and --follow-idle needs --follow",
        arguments: [["--smooth"], ["--format", "gpx"], ["--save-state", "s.json"], ["--follow-idle", "abc"]])
    func usage(extra: [String]) {
        let result = runAltimetry(["fuse", "--follow", "in.csv"] + extra)
        #expect(result.code == .usage, "\(extra)")
        #expect(runAltimetry(["fuse", "in.csv", "--follow-idle", "1"]).code == .usage)
        #expect(runAltimetry(["fuse", "--follow", "in.gpx"]).code == .usage)
        #expect(runAltimetry(["fuse", "--follow", "-"]).code == .usage)
    }

    @Test("Following a file that does not exist fails with 66")
    func missing() {
        #expect(
            runAltimetry(["fuse", "--follow", "/nonexistent/altimetry/live.csv", "--follow-idle", "0.1"]).code
                == .noInput)
    }
}
