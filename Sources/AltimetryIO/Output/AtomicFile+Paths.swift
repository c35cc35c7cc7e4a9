import Foundation

extension AtomicFile {
    /// `path` with its last component's symbolic links followed, through chains of links, to the file they name
    /// (which need not exist yet); `path` itself when it is not a link.
    ///
    /// - Throws: `InputError` with `.cannotCreate` (73) after 40 links (a loop, as the kernel's `ELOOP` limit).
    static func followingSymbolicLinks(_ path: String) throws(InputError) -> String {
        var current = path
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        for _ in 0..<40 {
            let count = readlink(current, &buffer, Int(PATH_MAX))
            guard count > 0 else { return current }
            let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current =
                target.hasPrefix("/")
                ? target
                : URL(fileURLWithPath: current).deletingLastPathComponent().path + "/" + target
        }
        throw InputError(
            file: path, message: "cannot create the output file: too many levels of symbolic links",
            exitCode: .cannotCreate)
    }

    /// Takes `descriptor`'s exclusive `flock`, waiting up to a second (runs hold a directory's lock only for a
    /// scan); false if it stays busy, so a directory some other program keeps locked never hangs a run.
    static func lock(_ descriptor: Int32) -> Bool {
        for _ in 0..<100 {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
            guard errno == EWOULDBLOCK || errno == EINTR else { return false }
            usleep(10_000)
        }
        return false
    }

    /// Removes the temporary files of earlier runs for the same destination that no process holds any more.
    ///
    /// A candidate is named `prefix` followed by a UUID, is a regular file of this user, and takes an exclusive
    /// `flock` without waiting: every live `AtomicFile` holds its temporary file's lock until the file is gone,
    /// and the kernel releases the lock of a process that died, however it died. The caller holds the directory's
    /// lock, so no run can be between creating its temporary file and locking it.
    static func removeStaleTemporaries(in directory: String, prefix: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) && UUID(uuidString: String(name.dropFirst(prefix.count))) != nil
        {
            let candidate = directory + "/" + name
            let descriptor = open(candidate, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            var status = stat()
            guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == getuid(),
                flock(descriptor, LOCK_EX | LOCK_NB) == 0
            else { continue }
            unlink(candidate)
        }
    }
}
