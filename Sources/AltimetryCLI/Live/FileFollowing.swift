import Altimetry
import Dispatch
import Foundation

/// `altimetry fuse --follow FILE`: fuses a CSV file as another process appends to it, one output row per new
/// input row, until interrupted (SIGINT) or, with an idle timeout, until the file stops growing.
///
/// Every `pollInterval` the file's size is checked; complete new lines are fused at once and their rows
/// written (and flushed) to standard output or appended to `--out`. A partial last line waits for its newline.
/// When following ends, a last line still without its newline is fused as `fuse` would read it, so the output
/// for a finished file equals `fuse`'s.
struct FileFollowing {
    /// The followed file.
    let path: String
    /// Stop after this many seconds without growth; nil to follow until SIGINT.
    let idleTimeout: Double?
    /// Seconds between size checks.
    var pollInterval: Double = 0.05
    var fuser: FollowFuser

    /// Follows the file, writing rows to `out` (appending, after truncating it) or to the console.
    ///
    /// - Throws: `InputError` for a missing, shrinking or invalid file, or an output that cannot be written.
    func run(console: Console, out: String?) throws(InputError) {
        var fuser = self.fuser
        let file = try GrowingFile(path: path)
        let sink = try OutputSink(path: out, console: console)
        let interrupt = InterruptFlag()
        defer { interrupt.cancel() }
        let clock = ContinuousClock()
        var lastGrowth = clock.now
        var lastSize: UInt64 = 0
        while !interrupt.isSet {
            let size = try file.size()
            if size != lastSize {
                lastSize = size
                lastGrowth = clock.now
                try sink.write(fuser.consume(try file.readCompleteLines(), console: console))
            } else if let idleTimeout, clock.now - lastGrowth >= .seconds(idleTimeout) {
                break
            }
            Thread.sleep(forTimeInterval: pollInterval)
        }
        try sink.write(fuser.consume(try file.readCompleteLines(), console: console))
        try sink.write(fuser.consume(file.remainder(), console: console))
        console.writeError(fuser.summary)
    }
}

/// Where followed rows go: the console, or a file appended to as rows arrive.
private struct OutputSink {
    let path: String?
    let console: Console
    let handle: FileHandle?

    init(path: String?, console: Console) throws(InputError) {
        self.path = path
        self.console = console
        guard let path else { handle = nil; return }
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw InputError(file: path, message: "cannot be created for writing", exitCode: .cannotCreate)
        }
        self.handle = handle
    }

    func write(_ bytes: [UInt8]) throws(InputError) {
        guard !bytes.isEmpty else { return }
        guard let handle else { return console.write(String(decoding: bytes, as: UTF8.self)) }
        do { try handle.write(contentsOf: Data(bytes)) } catch {
            throw InputError(file: path ?? "", message: "could not be written: \(error.localizedDescription)", exitCode: .ioError)
        }
    }
}

/// Set once SIGINT arrives while following (SIGINT's default action is restored when cancelled).
private final class InterruptFlag {
    private let flag = LockedFlag()
    private let source: any DispatchSourceSignal

    init() {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [flag] in flag.set() }
        source.resume()
    }

    var isSet: Bool { flag.isSet }

    func cancel() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}

private final class LockedFlag: @unchecked Sendable {
    // Safety: `value` is only touched while `lock` is held.
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
