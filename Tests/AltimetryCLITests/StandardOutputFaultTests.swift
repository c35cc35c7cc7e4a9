import Foundation
import Testing

/// Every command as a process against a standard output that takes nothing: a full disk (`/dev/full`), a pipe
/// whose reader has gone (SIGPIPE ignored, as a shell's `trap '' PIPE` or a supervisor does), a closed descriptor.
/// Each exits 74 with a message naming standard output, never 0 with its results lost.
@Suite("Every command against a failed standard output")
struct StandardOutputFaultTests {
    /// Each command's arguments after `altimetry`, `$IN` standing for a short simulated recording.
    static let commands: [String] = [
        "--version", "--help", "fuse --help", "ascent $IN", "identify $IN", "identify $IN --json", "floors $IN",
        "calibrate $IN", "evaluate $IN", "plot $IN", "fuse $IN", "simulate static --duration 60", "tables",
    ]

    /// A shell script that writes a 15-minute hike (evaluate scores from 10 minutes on) to `$IN` (in `dir`), then runs `body`.
    static func script(_ body: String, in dir: TemporaryDirectory) -> String {
        let input = dir.path("in.csv")
        return "IN='\(input)'; \"$ALTIMETRY\" simulate hike --seed 2 --duration 900 --out \"$IN\" 2>/dev/null; "
            + body
    }

    @Test("A full disk (/dev/full) exits 74 with a message", arguments: commands)
    func fullDisk(command: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let run = try StreamFaultTests.bash(
            Self.script("\"$ALTIMETRY\" \(command) > /dev/full; echo \"exit $?\"", in: dir))
        #expect(run.out == "exit 74\n", "\(run.err)")
        #expect(run.err.contains("<stdout>: could not be written: No space left on device"), "\(run.err)")
    }

    @Test("A pipe whose reader has gone exits 74 with a message", arguments: commands)
    func closedPipe(command: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        // The reader (`true`) is gone before the command starts writing.
        let run = try StreamFaultTests.bash(
            Self.script(
                "trap '' PIPE; { sleep 0.3; \"$ALTIMETRY\" \(command); echo \"exit $?\" >&2; } | true", in: dir))
        #expect(run.err.hasSuffix("exit 74\n"), "\(run.err)")
        #expect(run.err.contains("<stdout>: could not be written: Broken pipe"), "\(run.err)")
    }

    @Test("A closed standard output exits 74 with a message", arguments: ["ascent $IN", "identify $IN --json"])
    func closedDescriptor(command: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let run = try StreamFaultTests.bash(Self.script("\"$ALTIMETRY\" \(command) >&-; echo \"exit $?\" >&2", in: dir))
        #expect(run.err.hasSuffix("exit 74\n"), "\(run.err)")
        #expect(run.err.contains("<stdout>: could not be written"), "\(run.err)")
    }
}
