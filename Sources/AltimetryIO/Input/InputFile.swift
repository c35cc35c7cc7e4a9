import Foundation

/// An input's bytes, read through a file descriptor a chunk of whole lines at a time, so that reading a file of
/// any length holds about one chunk.
///
/// Any readable path works: a regular file, standard input (`-`), a FIFO, `/dev/null`, a process substitution.
/// A UTF-8 byte order mark at the start is dropped. A followed file (`following`) is read as it grows: at its
/// current end the lines read so far are handed out, and only then does the file wait (polling) for more, until
/// `FollowPolicy` says to stop; a followed file that is truncated, replaced or rotated is read again from its
/// start (`FollowPolicy.Change`), its leading blank and comment lines and a header equal to the first file's
/// skipped (the reader has that header already), its lines numbered from its own first.
///
/// Not thread-safe: one reader owns it.
final class InputFile {
    /// The file as named in messages (`<stdin>` for `-`).
    let name: String
    private var descriptor: Int32
    private let ownsDescriptor: Bool
    /// The path a followed file was opened by, to reopen when it is replaced.
    private let path: String
    /// Bytes read and not yet handed out live in `storage[start..<end]`.
    private var storage: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    /// The number of the first line not yet handed out.
    private var nextLine = 1
    /// Bytes read from the descriptor so far.
    private var offset: UInt64 = 0
    private var reachedEnd = false
    private var checkedByteOrderMark = false
    /// How a followed file waits for more; nil for an ordinary read to the end.
    private var following: FollowPolicy?
    /// A followed file's first line that is neither blank nor a comment (a CSV header), once read.
    private var headerLine: [UInt8]?
    /// Whether a followed file was started again and its leading lines are still to be looked at.
    private var restarted = false

    /// Opens `path` (`-`: standard input) for reading.
    ///
    /// - Throws: `InputError` with `.noInput` (66) when the path does not exist, is a directory or cannot be
    ///   opened.
    init(path: String, following: FollowPolicy? = nil) throws(InputError) {
        name = InputLoader.displayName(path)
        self.path = path
        self.following = following
        if path == "-" {
            descriptor = STDIN_FILENO
            ownsDescriptor = false
        } else {
            let opened = open(path, O_RDONLY | O_CLOEXEC)
            guard opened >= 0 else {
                let code = errno
                let reason =
                    code == ENOENT
                    ? "no such file"
                    : code == EACCES
                        ? "cannot be read (permission denied)"
                        : "cannot be opened (\(String(cString: strerror(code))))"
                throw InputError(file: path, message: "\(reason); expected a readable input file", exitCode: .noInput)
            }
            var status = stat()
            if fstat(opened, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR {
                close(opened)
                throw InputError(
                    file: path, message: "is a directory; expected a readable input file", exitCode: .noInput)
            }
            descriptor = opened
            ownsDescriptor = true
        }
        storage = .allocate(byteCount: 1 << 16, alignment: 16)
    }

    /// Bytes already in memory, read as a file named `name`.
    init(bytes: Data, name: String) {
        self.name = name
        path = name
        descriptor = -1
        ownsDescriptor = false
        storage = .allocate(byteCount: max(16, bytes.count), alignment: 16)
        bytes.withUnsafeBytes {
            if let base = $0.baseAddress { storage.baseAddress?.copyMemory(from: base, byteCount: $0.count) }
        }
        end = bytes.count
        reachedEnd = true
        dropByteOrderMark()
    }

    deinit {
        storage.deallocate()
        if ownsDescriptor { close(descriptor) }
    }

    /// The next lines: whole lines (line breaks included) from where the last call stopped, about
    /// `approximateBytes` of them (more when one line is longer), the last line of the input possibly without a
    /// line break; nil at the end. The bytes stay valid until the next call.
    ///
    /// - Returns: the bytes and the number of their first line.
    /// - Throws: `InputError` with `.ioError` (74) when reading fails (a closed standard input among others), or
    ///   `.dataError` when a followed file shrinks.
    func nextLines(approximateBytes: Int) throws(InputError) -> (bytes: UnsafeRawBufferPointer, firstLine: Int)? {
        let wanted = max(1, approximateBytes)
        while true {
            if end - start < wanted && !reachedEnd {
                // Unless a followed file stalled at its current end with whole lines held, which go out now.
                if try !fill(atLeast: wanted) { continue }
            }
            if let cut = lastLineBreak() {
                return handOut(upTo: cut + 1)
            }
            if reachedEnd {
                return start < end ? handOut(upTo: end) : nil
            }
            // One line longer than what is held: read on until its end.
            _ = try fill(atLeast: end - start + wanted)
        }
    }

    /// Every remaining byte, for formats read whole (GPX, TCX, FIT).
    ///
    /// The bytes already held (at least the first chunk, so the byte order mark is dropped as for lines) are
    /// copied into the result, and the rest is read straight into it: a regular file's size sizes the result
    /// once, anything else grows it by doubling. The memory is neither zeroed nor copied again, and no line is
    /// counted. A followed file is read to its current end.
    func readAll() throws(InputError) -> Data {
        if !reachedEnd && end - start < 3 { _ = try fill(atLeast: 3) }
        let held = end - start
        var capacity = max(held, 1 << 16)
        var status = stat()
        if descriptor >= 0, !reachedEnd, fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG {
            // One byte beyond the size, so the end of a file that did not grow is found without growing the result.
            capacity = max(capacity, held + max(0, Int(status.st_size) - Int(offset)) + 1)
        }
        guard var result = malloc(capacity) else { throw outOfMemory(capacity) }
        if held > 0, let from = storage.baseAddress { result.copyMemory(from: from + start, byteCount: held) }
        start = end
        var count = held
        while !reachedEnd {
            if count == capacity {
                guard let grown = realloc(result, 2 * capacity) else {
                    free(result)
                    throw outOfMemory(2 * capacity)
                }
                result = grown
                capacity *= 2
            }
            let n = read(descriptor, result + count, capacity - count)
            if n < 0 {
                if errno == EINTR { continue }
                let message = String(cString: strerror(errno))
                free(result)
                throw InputError(file: name, message: "could not be read: \(message)", exitCode: .ioError)
            }
            if n == 0 { reachedEnd = true }
            count += n
            offset += UInt64(n)
        }
        return Data(bytesNoCopy: result, count: count, deallocator: .free)
    }

    private func outOfMemory(_ bytes: Int) -> InputError {
        InputError(file: name, message: "could not be read: no memory for \(bytes) bytes", exitCode: .ioError)
    }

    /// Up to `count` first bytes not yet handed out (all of a shorter input), without consuming them: what
    /// `InputFormat.detect` looks at. Not for a followed file, which may not hold `count` bytes yet.
    ///
    /// - Throws: `InputError` with `.ioError` (74) when reading fails.
    func leadingBytes(_ count: Int) throws(InputError) -> [UInt8] {
        while end - start < count && !reachedEnd { _ = try fill(atLeast: count) }
        return Array(storage[start..<min(end, start + count)])
    }

    /// The first byte that is not a blank or a line break, without consuming anything; nil for an empty input.
    func firstNonBlankByte() throws(InputError) -> UInt8? {
        while true {
            for k in start..<end where ![32, 9, 10, 13].contains(storage[k]) { return storage[k] }
            if reachedEnd { return nil }
            _ = try fill(atLeast: end - start + 4_096)
        }
    }

    private func handOut(upTo cut: Int) -> (bytes: UnsafeRawBufferPointer, firstLine: Int) {
        let bytes = UnsafeRawBufferPointer(rebasing: storage[start..<cut])
        let first = nextLine
        // Line breaks counted by memchr jumps, at memory speed.
        if let base = bytes.baseAddress {
            var k = 0
            while k < bytes.count, let found = memchr(base + k, 10, bytes.count - k) {
                nextLine += 1
                k = UnsafeRawPointer(found) - base + 1
            }
        }
        start = cut
        return (bytes, first)
    }

    private func lastLineBreak() -> Int? {
        var k = end
        while k > start {
            k -= 1
            if storage[k] == 10 { return k }
        }
        return nil
    }

    /// Reads until `count` bytes are held from `start` or the input ends; a followed file at its current end
    /// returns at once when a whole line is held, else after waiting for it to grow (or to stop being followed).
    ///
    /// - Returns: true when a followed file stalled at its current end holding a whole line.
    private func fill(atLeast count: Int) throws(InputError) -> Bool {
        if start > 0 {
            if end > start, let base = storage.baseAddress {
                base.copyMemory(from: base + start, byteCount: end - start)
            }
            end -= start
            start = 0
        }
        if count > storage.count {
            var capacity = storage.count
            while capacity < count { capacity *= 2 }
            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
            if end > 0, let from = storage.baseAddress { grown.baseAddress?.copyMemory(from: from, byteCount: end) }
            storage.deallocate()
            storage = grown
        }
        while end < count {
            let n = read(descriptor, storage.baseAddress.map { $0 + end }, storage.count - end)
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError(
                    file: name, message: "could not be read: \(String(cString: strerror(errno)))",
                    exitCode: .ioError)
            }
            if n > 0 {
                end += n
                offset += UInt64(n)
                dropByteOrderMark()
                if following != nil { noteLeadingLines() }
                continue
            }
            guard var policy = following else {
                reachedEnd = true
                return false
            }
            // At the followed file's current end: hand out what is whole, else wait for more.
            if lastLineBreak() != nil { return true }
            let change = policy.waitForChange(descriptor: descriptor, offset: offset, path: path)
            following = policy
            switch change {
            case .grew: break
            case .stopped:
                following = nil
                reachedEnd = true
            case .truncated:
                _ = lseek(descriptor, 0, SEEK_SET)
                startAgain()
            case .replaced(let reopened):
                if ownsDescriptor { close(descriptor) }
                descriptor = reopened
                startAgain()
            }
            return false
        }
        return false
    }

    private func dropByteOrderMark() {
        guard !checkedByteOrderMark, end - start >= 3 else { return }
        checkedByteOrderMark = true
        if storage[start] == 0xEF && storage[start + 1] == 0xBB && storage[start + 2] == 0xBF { start += 3 }
    }

    /// Reads a followed file again from its start (the descriptor is at it): a partial line held from before is
    /// dropped, and lines are numbered from 1 again.
    private func startAgain() {
        end = start
        offset = 0
        nextLine = 1
        checkedByteOrderMark = false
        restarted = true
    }

    /// Keeps a followed file's header (its first line neither blank nor a comment), and, in a file started again,
    /// drops its leading blank and comment lines and a header equal to the first, once a whole line is held.
    private func noteLeadingLines() {
        guard headerLine == nil || restarted else { return }
        var lineStart = start
        while let newline = (lineStart..<end).first(where: { storage[$0] == 10 }) {
            let line = Array(storage[lineStart..<newline])
            let content = line.last == 13 ? line.dropLast() : line[...]
            if content.allSatisfy({ $0 == 32 || $0 == 9 }) || content.first == UInt8(ascii: "#") {
                lineStart = newline + 1
                continue
            }
            if headerLine == nil {
                // The first file's header, or, when the first file was emptied before it had one, the new file's.
                headerLine = line
                restarted = false
            } else {
                if line == headerLine { lineStart = newline + 1 }
                // The lines skipped are counted, so that line numbers stay the new file's own.
                for k in start..<lineStart where storage[k] == 10 { nextLine += 1 }
                if restarted { start = lineStart }
                restarted = false
            }
            return
        }
    }
}
