import Foundation
import Testing

/// The built `altimetry` executable itself, run as a process: exit codes, streams, and a pipe through stdin.
///
/// `swift build --build-tests` (what `make test` runs) builds the executable beside the test bundle.
@Suite("The altimetry executable")
struct ExecutableTests {
    static var executable: URL? {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("altimetry")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }

    struct Run {
        var status: Int32
        var out: String
        var err: String
    }

    static func run(_ arguments: [String], input: Data? = nil) throws -> Run {
        let process = Process()
        let executable: URL = try #require(Self.executable, "the altimetry executable is not built beside the tests")
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe(), err = Pipe(), inp = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inp
        try process.run()
        if let input { inp.fileHandleForWriting.write(input) }
        try inp.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, out: String(decoding: outData, as: UTF8.self),
            err: String(decoding: errData, as: UTF8.self))
    }

    @Test("--version and --help exit 0 on stdout; an unknown command exits 64 on stderr")
    func versionAndUsage() throws {
        let version = try Self.run(["--version"])
        #expect(version.status == 0 && version.out.hasPrefix("altimetry "))
        #expect(try Self.run(["fuse", "--help"]).out.contains("USAGE: altimetry fuse"))
        let unknown = try Self.run(["fusee"])
        #expect(unknown.status == 64 && unknown.err.contains("unknown command 'fusee'") && unknown.out.isEmpty)
    }

    @Test("A missing input exits 66 and names the file")
    func missingInput() throws {
        let run = try Self.run(["fuse", "/nonexistent/track.csv"])
        #expect(run.status == 66)
        #expect(run.err.contains("/nonexistent/track.csv"))
    }

    @Test("simulate piped into fuse through standard input gives one output row per input row")
    func pipe() throws {
        let simulated = try Self.run(["simulate", "static", "--seed", "4", "--duration", "120"])
        #expect(simulated.status == 0)
        let csvLines = simulated.out.split(separator: "\n").filter { !$0.hasPrefix("#") }
        var ndjson = ""
        let header = try #require(csvLines.first).split(separator: ",", omittingEmptySubsequences: false).map(
            String.init)
        for line in csvLines.dropFirst() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            let fields = zip(header, cells).filter { !$0.1.isEmpty }.map { "\"\($0.0)\": \($0.1)" }
            ndjson += "{" + fields.joined(separator: ", ") + "}\n"
        }
        let fused = try Self.run(["fuse", "-", "--format", "ndjson"], input: Data(ndjson.utf8))
        #expect(fused.status == 0, "\(fused.err)")
        #expect(fused.out.split(separator: "\n").count == csvLines.count - 1)
        #expect(fused.err.contains("rows: \(csvLines.count - 1)"))
    }

    @Test("A kPa value in a pressure_hpa column exits 65 with file, line, column and a suggestion")
    func badData() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("altimetry-exe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("kpa.csv")
        try Data("t,pressure_hpa,gps_alt_m\n0,1001.2,100\n1,100.1,100\n".utf8).write(to: file)
        let run = try Self.run(["fuse", file.path])
        #expect(run.status == 65)
        #expect(
            run.err.contains("kpa.csv:3") && run.err.contains("pressure_hpa") && run.err.contains("pressure_kpa"),
            "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.csv").path))
    }
}
