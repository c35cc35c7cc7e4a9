import Foundation

/// Where `fuse` writes its output, in pieces as they are ready: a file written atomically (`--out`), a file
/// appended to as rows arrive (`--follow --out`), a file descriptor (the process's standard output, a socket),
/// memory, or a function given each piece (a server's response, a test's console).
///
/// A write error (a full disk, `/dev/full`, a closed pipe with SIGPIPE ignored) is an `InputError` with
/// `.ioError` (74), never a crash. Not thread-safe: one writer at a time.
/// (A `FusePipeline` run writes from its threads one piece at a time, each after the one before has ended.)
public final class OutputSink {
    private enum Target {
        case atomic(AtomicFile)
        case descriptor(Int32, name: String, owned: Bool)
        case memory
        case function(@Sendable (UnsafeRawBufferPointer) -> Void)
    }

    private let target: Target
    /// What a sink made by `init()` holds: every byte written, in order.
    public private(set) var bytes: [UInt8] = []

    /// A sink for the file at `path`: written atomically (it appears at `commit()`, whole), or, when
    /// `appending`, truncated at once and appended to as rows arrive.
    ///
    /// - Parameters:
    ///   - path: the file to write.
    ///   - appending: create and truncate the file at once and append rows as they arrive, instead of writing it
    ///     atomically.
    /// - Throws: `InputError` with `.cannotCreate` (73) if the file cannot be created.
    public init(path: String, appending: Bool = false) throws(InputError) {
        if appending {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw InputError(
                    file: path, message: "cannot be created for writing: \(String(cString: strerror(errno)))",
                    exitCode: .cannotCreate)
            }
            target = .descriptor(descriptor, name: path, owned: true)
        } else {
            target = .atomic(try AtomicFile(path: path))
        }
    }

    /// A sink for an open file descriptor (standard output, a pipe, a socket), named `name` in messages; the
    /// descriptor stays open.
    ///
    /// - Parameters:
    ///   - descriptor: the open file descriptor.
    ///   - name: the name used in messages.
    public init(descriptor: Int32, name: String) {
        target = .descriptor(descriptor, name: name, owned: false)
    }

    /// A sink that holds the output in memory, in `bytes`.
    public init() {
        target = .memory
    }

    /// A sink that hands each piece of output to `write`, in order, one call at a time; the bytes are valid only
    /// during the call.
    public init(_ write: @escaping @Sendable (UnsafeRawBufferPointer) -> Void) {
        target = .function(write)
    }

    deinit {
        if case .descriptor(let descriptor, _, true) = target { close(descriptor) }
    }

    /// Writes `bytes`.
    ///
    /// - Throws: `InputError` with `.ioError` (74) if writing fails.
    func write(_ bytes: UnsafeRawBufferPointer) throws(InputError) {
        guard !bytes.isEmpty else { return }
        switch target {
        case .atomic(let file): try file.append(bytes)
        case .memory: self.bytes.append(contentsOf: bytes)
        case .function(let write): write(bytes)
        case .descriptor(let descriptor, let name, _):
            var written = 0
            while written < bytes.count {
                let n = Foundation.write(descriptor, bytes.baseAddress.map { $0 + written }, bytes.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw InputError(
                        file: name, message: "could not be written: \(String(cString: strerror(errno)))",
                        exitCode: .ioError)
                }
                written += n
            }
        }
    }

    func write(_ bytes: [UInt8]) throws(InputError) {
        var failure: InputError?
        bytes.withUnsafeBytes { raw in
            do throws(InputError) { try write(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Makes the output final: an atomic file appears at its path.
    ///
    /// - Throws: `InputError` as `AtomicFile.commit` does.
    public func commit() throws(InputError) {
        if case .atomic(let file) = target { try file.commit() }
    }

    /// Gives up: an atomic file's temporary file is removed and its path left as it was.
    public func abandon() {
        if case .atomic(let file) = target { file.abandon() }
    }
}
