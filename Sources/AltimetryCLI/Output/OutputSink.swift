import Foundation

/// Where `fuse` writes its output, in pieces as they are ready: a file written atomically (`--out`), a file
/// appended to as rows arrive (`--follow --out`), the process's standard output, or a console (tests).
///
/// A write error (a full disk, `/dev/full`, a closed pipe with SIGPIPE ignored) is an `InputError` with
/// `.ioError` (74), never a crash. Not thread-safe: one writer at a time.
final class OutputSink {
    private enum Target {
        case atomic(AtomicFile)
        case descriptor(Int32, name: String, owned: Bool)
        case console(Console)
    }

    private let target: Target

    /// A sink for `path` (atomically, or appended to after truncating it when `appending`), or, without a
    /// path, for the console's standard output (straight to its descriptor when it has one).
    ///
    /// - Throws: `InputError` with `.cannotCreate` (73) if the file cannot be created.
    init(path: String?, appending: Bool = false, console: Console) throws(InputError) {
        if let path {
            if appending {
                let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                guard descriptor >= 0 else {
                    throw InputError(file: path, message: "cannot be created for writing: \(String(cString: strerror(errno)))",
                                     exitCode: .cannotCreate)
                }
                target = .descriptor(descriptor, name: path, owned: true)
            } else {
                target = .atomic(try AtomicFile(path: path))
            }
        } else if let descriptor = console.outputDescriptor {
            target = .descriptor(descriptor, name: "<stdout>", owned: false)
        } else {
            target = .console(console)
        }
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
        case .console(let console): console.write(String(decoding: bytes, as: UTF8.self))
        case .descriptor(let descriptor, let name, _):
            var written = 0
            while written < bytes.count {
                let n = Foundation.write(descriptor, bytes.baseAddress.map { $0 + written }, bytes.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw InputError(file: name, message: "could not be written: \(String(cString: strerror(errno)))",
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
    func commit() throws(InputError) {
        if case .atomic(let file) = target { try file.commit() }
    }

    /// Gives up: an atomic file's temporary file is removed and its path left as it was.
    func abandon() {
        if case .atomic(let file) = target { file.abandon() }
    }
}
