internal import CSignalCleanup
import Foundation

/// Writes a whole file or nothing: the bytes go to a temporary file in the destination's directory, which is then
/// renamed over the destination (rename is atomic within one file system), so a failure never leaves a partial
/// file.
///
/// The bytes may come in pieces (`append`), as a streaming writer produces them; the destination only appears,
/// complete, at `commit`, and `abandon` (or dropping the file uncommitted) removes the temporary file.
///
/// What happens around the rename:
/// - **Symbolic links** are followed: a destination that is a link keeps being one, and its target (followed
///   through any chain of links) is replaced.
/// - **Mode**: an existing destination keeps its permission bits; a new file gets 0666 less the umask.
/// - **Not a regular file**: a destination that exists and is not a regular file (`/dev/null`, a FIFO, a terminal,
///   `/dev/stdout`) cannot be replaced, so the bytes are written to it directly, as a shell redirection would.
/// - **Signals**: the temporary file is registered with a SIGINT, SIGTERM and SIGHUP handler (`CSignalCleanup`)
///   that removes it before the process dies of the signal (exit status 130, 143 or 129 as a shell reports it).
/// - **Leftovers**: a run killed by SIGKILL or a crash leaves its temporary file (`.NAME.tmp-UUID`). Each
///   temporary file is held under an exclusive `flock` while in use, so a later `AtomicFile` for the same
///   destination recognises one nobody holds as stale and removes it (see `removeStaleTemporaries`).
package final class AtomicFile: @unchecked Sendable {
    // Safety: one writer at a time (the streaming fuser's write tasks run one at a time, each ordered after the
    // one before by `ChunkPipeline`'s lock).
    /// The destination path, as given.
    package let path: String
    /// The file replaced at `commit`: `path` with symbolic links followed; nil when writing to `path` directly.
    private let destination: String?
    /// The temporary file, renamed to `destination` at `commit`; nil when writing to `path` directly.
    private let temporary: String?
    private let cleanupSlot: Int32
    private var descriptor: Int32
    private var finished = false

    /// Creates the temporary file for `path`, after removing stale ones an earlier killed run left for it.
    ///
    /// - Throws: `InputError` with `.cannotCreate` (73) if it cannot be created.
    package init(path: String) throws(InputError) {
        self.path = path
        var status = stat()
        if stat(path, &status) == 0 && status.st_mode & S_IFMT != S_IFREG && status.st_mode & S_IFMT != S_IFDIR {
            destination = nil
            temporary = nil
            cleanupSlot = -1
            descriptor = open(path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw Self.cannotCreate(path, errno) }
            return
        }
        let target = try Self.followingSymbolicLinks(path)
        let url = URL(fileURLWithPath: target)
        let directory = url.deletingLastPathComponent().path
        let prefix = "." + url.lastPathComponent + ".tmp-"
        let temporary = directory + "/" + prefix + UUID().uuidString
        destination = target
        self.temporary = temporary
        // Under the directory's lock, so a run starting at the same time never sees this file before it is held.
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if directoryDescriptor >= 0 { close(directoryDescriptor) } }
        if directoryDescriptor >= 0 && Self.lock(directoryDescriptor) {
            Self.removeStaleTemporaries(in: directory, prefix: prefix)
        }
        cleanupSlot = altimetry_cleanup_register(temporary)
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            let code = errno
            altimetry_cleanup_unregister(cleanupSlot)
            throw Self.cannotCreate(path, code)
        }
        flock(descriptor, LOCK_EX)
        if stat(target, &status) == 0 { fchmod(descriptor, status.st_mode & 0o7777) }
    }

    deinit { abandon() }

    /// Writes `bytes` to `path`.
    ///
    /// - Throws: `InputError` with `.cannotCreate` (73) if the temporary file cannot be created or renamed,
    ///   `.ioError` (74) if writing fails; the temporary file is removed either way.
    package static func write(_ bytes: [UInt8], to path: String) throws(InputError) {
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
    package func append(_ bytes: UnsafeRawBufferPointer) throws(InputError) {
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

    /// Flushes the temporary file to disk and renames it over the destination.
    ///
    /// - Throws: `InputError` with `.ioError` (74) if flushing or closing fails, `.cannotCreate` (73) if the
    ///   rename fails; the temporary file is removed either way.
    package func commit() throws(InputError) {
        precondition(!finished, "commit after commit or abandon")
        guard let temporary, let destination else {
            finished = true
            if close(descriptor) != 0 { throw Self.ioError(path, errno) }
            return
        }
        if fsync(descriptor) != 0 { throw failed(errno) }
        finished = true
        // Renamed while still open: its lock marks it as in use until the name is gone.
        if rename(temporary, destination) != 0 {
            let code = errno
            unlink(temporary)
            release()
            throw Self.cannotCreate(path, code)
        }
        if release() != 0 { throw Self.ioError(path, errno) }
    }

    /// Closes and removes the temporary file, leaving `path` as it was; nothing after a commit.
    package func abandon() {
        guard !finished else { return }
        finished = true
        if let temporary { unlink(temporary) }
        release()
    }

    /// Forgets the temporary file's signal registration and closes it (releasing its lock).
    @discardableResult
    private func release() -> Int32 {
        altimetry_cleanup_unregister(cleanupSlot)
        return close(descriptor)
    }

    private func failed(_ code: Int32) -> InputError {
        abandon()
        return Self.ioError(path, code)
    }

    private static func ioError(_ path: String, _ code: Int32) -> InputError {
        InputError(
            file: path, message: "could not write the output: \(String(cString: strerror(code)))", exitCode: .ioError)
    }

    private static func cannotCreate(_ path: String, _ code: Int32) -> InputError {
        InputError(
            file: path, message: "cannot create the output file: \(String(cString: strerror(code)))",
            exitCode: .cannotCreate)
    }
}
