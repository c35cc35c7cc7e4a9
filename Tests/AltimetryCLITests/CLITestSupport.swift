import Altimetry
import Foundation

@testable import AltimetryCLI
@testable import AltimetryIO

/// Collects what a command writes to each stream.
final class CapturingConsole: @unchecked Sendable {
    private let lock = NSLock()
    private var out = ""
    private var err = ""

    var console: Console {
        Console(
            write: { text in self.lock.withLock { self.out += text } },
            writeError: { text in self.lock.withLock { self.err += text } })
    }

    var standardOutput: String { lock.withLock { out } }
    var standardError: String { lock.withLock { err } }
}

/// A fresh temporary directory for one test, removed by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("altimetry-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `text` to `name` in the directory and returns its path.
    func file(_ name: String, _ text: String) throws -> String {
        let path = url.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func read(_ name: String) throws -> String { try String(contentsOfFile: path(name), encoding: .utf8) }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Runs `altimetry` with `arguments` in-process and captures its streams.
func runAltimetry(_ arguments: [String]) -> (code: ExitCode, out: String, err: String) {
    let captured = CapturingConsole()
    let code = AltimetryCommandLine.run(arguments: arguments, console: captured.console)
    return (code, captured.standardOutput, captured.standardError)
}

/// Every row of `table` fused track by track with `TrackFusion`, in input order: the estimate (nil when rejected)
/// and the status.
func fuseRows(
    _ table: InputTable, skipInvalid: Bool = false,
    parameters: AltitudeModelParameters = AltitudeModelParameters()
) throws(InputError) -> [(AltitudeEstimate?, RowStatus)] {
    var fusions: [Int: TrackFusion] = [:]
    var out: [(AltitudeEstimate?, RowStatus)] = []
    var failure: InputError?
    table.rows.withUnsafeBufferPointer { rows in
        do throws(InputError) {
            for i in rows.indices {
                let track = rows[i].track
                var fusion: TrackFusion
                if let known = fusions[track] {
                    fusion = known
                } else {
                    fusion = try TrackFusion(
                        name: "", file: table.file, parameters: parameters, resume: nil,
                        skipInvalid: skipInvalid, smooth: false)
                }
                out.append(try fusion.fuse(rows, i))
                fusions[track] = fusion
            }
        } catch {
            failure = error
        }
    }
    if let failure { throw failure }
    return out
}

/// Reads `data` as CSV with chunks of about `approximateBytes`, as `fuse` does, into one table.
func readCSV(_ data: Data, file: String, options: ReadOptions, approximateBytes: Int) throws(InputError) -> InputTable {
    var reader = try CSVReader(InputFile(bytes: data, name: file), options: options)
    var table = reader.header
    var chunk = reader.header
    while try reader.next(into: &chunk, approximateBytes: approximateBytes) {
        table.append(chunk)
        if let error = chunk.stoppedBy { throw error }
    }
    return table
}
