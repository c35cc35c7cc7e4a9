import Foundation
import Testing

/// What a signal during `fuse --out` leaves behind, with the real executable as a child process.
///
/// Each test starts `altimetry fuse BIG.csv --out out.csv`, waits until its temporary file `.out.csv.tmp-UUID`
/// appears (the streaming fuser creates it before the first row and renames it after the last), and signals it.
@Suite("Signals during --out", .serialized)
struct SignalTests {
    /// A CSV of `rows` rows at 10 Hz: long enough that fusing it takes a while in a debug build.
    static func bigInput(in dir: TemporaryDirectory, rows: Int = 100_000) throws -> String {
        var text = "t,pressure_hpa,gps_alt_m\n"
        text.reserveCapacity(rows * 24)
        for i in 0..<rows {
            let t = Double(i) / 10
            text += "\(t),\(1000 - Double(i % 600) / 100),\(i % 10 == 0 ? "\(110 + i % 600 / 12)" : "")\n"
        }
        return try dir.file("big.csv", text)
    }

    /// The names in `dir` that are temporary files of `out.csv`.
    static func temporaries(_ dir: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.hasPrefix(".out.csv.tmp-") }
    }

    /// A child process started with every signal unblocked and at its default action.
    ///
    /// `Process` would hand on the calling thread's signal mask, and the test runner's threads block most
    /// signals; a command started from a shell has them unblocked, as here.
    struct Child {
        let pid: pid_t

        init(_ executable: String, _ arguments: [String]) throws {
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var none = sigset_t(), all = sigset_t()
            sigemptyset(&none)
            sigfillset(&all)
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawnattr_setsigdefault(&attributes, &all)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            let argv = ([executable] + arguments).map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            var pid: pid_t = 0
            let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
            try #require(result == 0, "posix_spawn \(executable): \(String(cString: strerror(result)))")
            self.pid = pid
        }

        /// Whether the child is still running (not yet exited and reaped).
        var isRunning: Bool {
            var status: Int32 = 0
            return waitpid(pid, &status, WNOHANG) == 0
        }

        /// Waits for the child: the signal that ended it, or nil and its exit code.
        func wait() -> (signal: Int32?, exitCode: Int32) {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let signal = status & 0x7f
            return signal == 0 ? (nil, (status >> 8) & 0xff) : (signal, 128 + signal)
        }
    }

    /// Starts `arguments` (after the executable, or `/bin/sh` with `shell`) and returns once `out.csv`'s temporary
    /// file exists.
    static func startWriting(_ arguments: [String], in dir: TemporaryDirectory, shell: Bool = false) throws -> Child {
        let executable =
            shell
            ? "/bin/sh"
            : try #require(ExecutableTests.executable, "the altimetry executable is not built beside the tests").path
        let child = try Child(executable, arguments)
        let deadline = Date().addingTimeInterval(120)
        while try temporaries(dir).isEmpty {
            try #require(child.isRunning, "the run ended before its temporary file was seen")
            try #require(Date() < deadline, "no temporary file within 120 s")
            usleep(1_000)
        }
        return child
    }

    @Test(
        "SIGTERM and SIGINT remove the temporary file and end the run by that signal (143 and 130 in a shell)",
        arguments: [SIGTERM, SIGINT, SIGHUP])
    func signalRemovesTemporary(signal: Int32) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = try Self.bigInput(in: dir)
        let process = try Self.startWriting(["fuse", input, "--out", dir.path("out.csv")], in: dir)
        kill(process.pid, signal)
        #expect(process.wait().signal == signal)
        #expect(try Self.temporaries(dir).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: dir.path("out.csv")))
    }

    @Test("A shell running the killed command reports the conventional exit code 143")
    func shellStatus() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = try Self.bigInput(in: dir)
        let executable = try #require(ExecutableTests.executable)
        let status = dir.path("status")
        let shell = try Self.startWriting(
            [
                "-c", "\"$0\" fuse \"$1\" --out \"$2\"; echo $? > \"$3\"",
                executable.path, input, dir.path("out.csv"), status,
            ], in: dir, shell: true)
        // The shell's child is the altimetry run.
        let children = try String(contentsOfFile: "/proc/\(shell.pid)/task/\(shell.pid)/children", encoding: .utf8)
        let child = try #require(Int32(children.split(separator: " ").first ?? ""))
        kill(child, SIGTERM)
        #expect(shell.wait().exitCode == 0)
        #expect(try String(contentsOfFile: status, encoding: .utf8) == "143\n")
        #expect(try Self.temporaries(dir).isEmpty)
    }

    @Test("SIGKILL leaves the temporary file; the next run to the same file recognises it as stale and removes it")
    func sigkillLeftoverCleanedNextRun() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = try Self.bigInput(in: dir)
        let process = try Self.startWriting(["fuse", input, "--out", dir.path("out.csv")], in: dir)
        kill(process.pid, SIGKILL)
        #expect(process.wait().signal == SIGKILL)
        let leftovers = try Self.temporaries(dir)
        #expect(leftovers.count == 1)

        let small = try dir.file("small.csv", "t,pressure_hpa\n0,1000\n1,999.9\n")
        let next = try ExecutableTests.run(["fuse", small, "--out", dir.path("out.csv")])
        #expect(next.status == 0)
        #expect(try Self.temporaries(dir).isEmpty)
        #expect(try dir.read("out.csv").split(separator: "\n").count == 3)
    }
}
