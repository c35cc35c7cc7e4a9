import Foundation

/// A file another process appends to, read in complete lines as it grows.
///
/// Each `readCompleteLines()` reads what was appended since the last call and returns the bytes up to and
/// including the last newline; a partial last line is kept until its newline arrives (or `remainder()` takes it
/// when following ends). A file that shrinks (truncated or replaced) is an error: the lines already fused
/// cannot be taken back.
final class GrowingFile {
    let path: String
    private let handle: FileHandle
    /// Bytes read so far.
    private(set) var offset: UInt64 = 0
    /// A line read without its newline yet.
    private var partial: [UInt8] = []

    /// Opens `path` for following.
    ///
    /// - Throws: `InputError` with `.noInput` when the file does not exist or cannot be opened.
    init(path: String) throws(InputError) {
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw InputError(file: path, message: "no such file; --follow expects an existing CSV file", exitCode: .noInput)
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw InputError(file: path, message: "cannot be opened for reading", exitCode: .noInput)
        }
        self.handle = handle
    }

    deinit { try? handle.close() }

    /// The file's current size, in bytes.
    ///
    /// - Throws: `InputError` with `.ioError` if the file cannot be inspected.
    func size() throws(InputError) -> UInt64 {
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            return (attributes[.size] as? NSNumber)?.uint64Value ?? 0
        } catch {
            throw InputError(file: path, message: "could not be inspected while following: \(error.localizedDescription)",
                             exitCode: .ioError)
        }
    }

    /// The complete lines appended since the last call (empty when none), newlines included.
    ///
    /// - Throws: `InputError` with `.ioError` if reading fails, `.dataError` if the file shrank.
    func readCompleteLines() throws(InputError) -> [UInt8] {
        let size = try size()
        guard size >= offset else {
            throw InputError(file: path, message: "shrank from \(offset) to \(size) bytes while being followed; "
                             + "expected a file that is only appended to", exitCode: .dataError)
        }
        guard size > offset else { return [] }
        let data: Data
        do {
            try handle.seek(toOffset: offset)
            data = try handle.read(upToCount: Int(size - offset)) ?? Data()
        } catch {
            throw InputError(file: path, message: "could not be read while following: \(error.localizedDescription)",
                             exitCode: .ioError)
        }
        offset += UInt64(data.count)
        partial.append(contentsOf: data)
        guard let lastNewline = partial.lastIndex(of: 10) else { return [] }
        let complete = Array(partial[...lastNewline])
        partial.removeSubrange(...lastNewline)
        return complete
    }

    /// The partial last line, if any, taken out (when following ends).
    func remainder() -> [UInt8] {
        defer { partial = [] }
        return partial
    }
}
