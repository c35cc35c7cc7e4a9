import Foundation

/// Writes a whole file or nothing: the bytes go to a temporary file in the same directory, which is then renamed
/// over the destination (rename is atomic within one file system), so a failure never leaves a partial file.
///
/// The bytes may come in pieces (`append`), as a streaming writer produces them; the destination only appears,
/// complete, at `commit`, and `abandon` (or dropping the file uncommitted) removes the temporary file.
public final class AtomicFile: @unchecked Sendable {
    // Safety: one writer at a time (the streaming fuser's write tasks run one at a time, each ordered after the
    // one before by `ChunkPipeline`'s lock).
    /// The destination path.
    public let path: String
    private let temporary: String
    private var descriptor: Int32
    private var finished = false

    /// Creates the temporary file for `path`.
    ///
    /// - Throws: `InputError` with `.cannotCreate` (73) if it cannot be created.
    public init(path: String) throws(InputError) {
        self.path = path
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        temporary = directory + "/." + url.lastPathComponent + ".tmp-\(UUID().uuidString)"
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else {
            throw InputError(file: path, message: "cannot create the output file: \(String(cString: strerror(errno)))",
                             exitCode: .cannotCreate)
        }
    }

    deinit { abandon() }

    /// Writes `bytes` to `path`.
    ///
    /// - Throws: `InputError` with `.cannotCreate` (73) if the temporary file cannot be created or renamed,
    ///   `.ioError` (74) if writing fails; the temporary file is removed either way.
    public static func write(_ bytes: [UInt8], to path: String) throws(InputError) {
        let file = try AtomicFile(path: path)
        var failure: InputError?
        bytes.withUnsafeBytes { raw in
            do throws(InputError) { try file.append(raw) } catch { failure = error }
        }
        if let failure { throw failure }
        try file.commit()
    }

    /// Appends `bytes` to the temporary file.
    ///
    /// - Throws: `InputError` with `.ioError` (74) if writing fails, after removing the temporary file.
    public func append(_ bytes: UnsafeRawBufferPointer) throws(InputError) {
        precondition(!finished, "append after commit or abandon")
        var written = 0
        while written < bytes.count {
            let n = Foundation.write(descriptor, bytes.baseAddress.map { $0 + written }, bytes.count - written)
            if n < 0 {
                if errno == EINTR { continue }
                throw failed(errno)
            }
            written += n
        }
    }

    /// Flushes the temporary file to disk and renames it over `path`.
    ///
    /// - Throws: `InputError` with `.ioError` (74) if flushing or closing fails, `.cannotCreate` (73) if the
    ///   rename fails; the temporary file is removed either way.
    public func commit() throws(InputError) {
        precondition(!finished, "commit after commit or abandon")
        if fsync(descriptor) != 0 { throw failed(errno) }
        finished = true
        if close(descriptor) != 0 {
            unlink(temporary)
            throw InputError(file: path, message: "could not close the output file", exitCode: .ioError)
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw InputError(file: path, message: "cannot create the output file: \(reason)", exitCode: .cannotCreate)
        }
    }

    /// Closes and removes the temporary file, leaving `path` as it was; nothing after a commit.
    public func abandon() {
        guard !finished else { return }
        finished = true
        close(descriptor)
        unlink(temporary)
    }

    private func failed(_ code: Int32) -> InputError {
        abandon()
        return InputError(file: path, message: "could not write the output: \(String(cString: strerror(code)))",
                          exitCode: .ioError)
    }
}
