import Foundation
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

/// `AtomicFile` around the rename: symbolic links, modes, devices and the temporary files of killed runs.
@Suite("AtomicFile")
struct AtomicFileTests {
    /// The permission bits of `path` (symbolic links followed).
    static func mode(_ path: String) throws -> mode_t {
        var status = stat()
        try #require(stat(path, &status) == 0, "stat \(path)")
        return status.st_mode & 0o7777
    }

    static func isSymbolicLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    @Test("Writing onto a symbolic link replaces the link's target and keeps the link, through a chain of links")
    func symbolicLinks() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.path("real"), withIntermediateDirectories: false)
        _ = try dir.file("real/track.csv", "old\n")
        try FileManager.default.createSymbolicLink(atPath: dir.path("inner.csv"), withDestinationPath: "real/track.csv")
        try FileManager.default.createSymbolicLink(
            atPath: dir.path("outer.csv"), withDestinationPath: dir.path("inner.csv"))

        try AtomicFile.write(Array("new\n".utf8), to: dir.path("outer.csv"))

        #expect(Self.isSymbolicLink(dir.path("outer.csv")) && Self.isSymbolicLink(dir.path("inner.csv")))
        #expect(try dir.read("real/track.csv") == "new\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("real")) == ["track.csv"])
    }

    @Test("A dangling symbolic link gets its target created; a loop of links is refused with exit code 73")
    func danglingAndLoopingLinks() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createSymbolicLink(atPath: dir.path("link.csv"), withDestinationPath: "made.csv")
        try AtomicFile.write(Array("x\n".utf8), to: dir.path("link.csv"))
        #expect(Self.isSymbolicLink(dir.path("link.csv")))
        #expect(try dir.read("made.csv") == "x\n")

        try FileManager.default.createSymbolicLink(atPath: dir.path("a"), withDestinationPath: "b")
        try FileManager.default.createSymbolicLink(atPath: dir.path("b"), withDestinationPath: "a")
        #expect(throws: InputError.self) { try AtomicFile.write([1], to: dir.path("a")) }
        do { try AtomicFile.write([1], to: dir.path("a")) } catch { #expect(error.exitCode == .cannotCreate) }
        #expect(Self.isSymbolicLink(dir.path("a")) && Self.isSymbolicLink(dir.path("b")))
    }

    @Test("An existing file keeps its permission bits", arguments: [0o600, 0o640, 0o755, 0o444] as [mode_t])
    func modeKept(mode: mode_t) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try dir.file("out.csv", "old\n")
        try #require(chmod(path, mode) == 0)
        try AtomicFile.write(Array("new\n".utf8), to: path)
        #expect(try Self.mode(path) == mode)
        #expect(try dir.read("out.csv") == "new\n")
    }

    @Test("A new file gets 0666 less the umask, as a shell redirection creates it")
    func newFileMode() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        // The umask from /proc (reading it with umask(2) would change it for every thread meanwhile).
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
        let umask = try #require(mode_t(line.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8))
        try AtomicFile.write([1], to: dir.path("new.csv"))
        #expect(try Self.mode(dir.path("new.csv")) == 0o666 & ~umask)
    }

    @Test("/dev/null and a FIFO are written to directly, not replaced")
    func devicesAndFIFOs() throws {
        try AtomicFile.write(Array("discarded\n".utf8), to: "/dev/null")
        var status = stat()
        #expect(stat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)

        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let fifo = dir.path("pipe")
        try #require(mkfifo(fifo, 0o600) == 0)
        // A reader in another process, so the write's open of the FIFO finds it.
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo]
        let output = Pipe()
        reader.standardOutput = output
        try reader.run()
        try AtomicFile.write(Array("through the pipe\n".utf8), to: fifo)
        let received = output.fileHandleForReading.readDataToEndOfFile()
        reader.waitUntilExit()
        #expect(String(decoding: received, as: UTF8.self) == "through the pipe\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["pipe"])
    }

    @Test("A stale temporary file nobody holds is removed at the next write; held or unrelated ones are kept")
    func staleTemporaries() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let stale = try dir.file(".out.csv.tmp-\(UUID().uuidString)", "partial")
        let held = try dir.file(".out.csv.tmp-\(UUID().uuidString)", "in use")
        let otherTarget = try dir.file(".other.csv.tmp-\(UUID().uuidString)", "another target's")
        let notOurs = try dir.file(".out.csv.tmp-notes", "not a UUID")
        let descriptor = open(held, O_RDONLY)
        try #require(descriptor >= 0 && flock(descriptor, LOCK_EX) == 0)
        defer { close(descriptor) }

        try AtomicFile.write(Array("done\n".utf8), to: dir.path("out.csv"))

        let exists = { (path: String) in FileManager.default.fileExists(atPath: path) }
        #expect(!exists(stale))
        #expect(exists(held) && exists(otherTarget) && exists(notOurs))
        #expect(try dir.read("out.csv") == "done\n")
    }

    @Test("An abandoned file leaves nothing; an open one holds its temporary file's lock")
    func abandonAndLock() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let file = try AtomicFile(path: dir.path("out.csv"))
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.url.path)
        let name = try #require(names.first)
        #expect(names.count == 1 && name.hasPrefix(".out.csv.tmp-"))
        let probe = open(dir.path(name), O_RDONLY)
        try #require(probe >= 0)
        #expect(flock(probe, LOCK_EX | LOCK_NB) != 0)
        close(probe)
        file.abandon()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).isEmpty)
    }
}
