import Foundation
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

/// Inputs that are not regular files: `/dev/null`, a FIFO, a process substitution.
@Suite("Inputs that are not regular files")
struct InputFileTests {
    @Test("/dev/null reads as an empty file (exit 65 'the file is empty'), not as a permission error")
    func devNull() throws {
        #expect(try InputLoader.data("/dev/null").isEmpty)
        let run = runAltimetry(["fuse", "/dev/null"])
        #expect(run.code == .dataError)
        #expect(run.err.hasPrefix("error: /dev/null: the file is empty"))
    }

    @Test("A FIFO is read to its end")
    func fifo() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let fifo = dir.path("readings.csv")
        try #require(mkfifo(fifo, 0o600) == 0)
        // The writer in another process, so this read's open of the FIFO finds it.
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", "printf 't,pressure_hpa\\n0,1000\\n1,999.5\\n' > \"$0\"", fifo]
        try writer.run()
        let table = try InputLoader.table(fifo, options: ReadOptions())
        writer.waitUntilExit()
        #expect(table.rows.map(\.pressure) == [1000, 999.5])
    }

    @Test("A process substitution (bash's <(...), a /dev/fd path) is read by the executable")
    func processSubstitution() throws {
        let executable = try #require(
            ExecutableTests.executable, "the altimetry executable is not built beside the tests")
        let bash = "/bin/bash"
        try #require(FileManager.default.isExecutableFile(atPath: bash), "bash is needed for a process substitution")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: bash)
        process.arguments = ["-c", "\"$0\" fuse <(printf 't,pressure_hpa\\n0,1000\\n1,999.5\\n')", executable.path]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(errors)")
        #expect(output.split(separator: "\n").count == 3)
    }
}
