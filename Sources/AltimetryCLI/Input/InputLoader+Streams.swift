import Foundation

extension InputLoader {
    /// Whether `path` (symbolic links followed) is a regular file, which can be mapped.
    static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// Every byte `path` gives until its end: a device (`/dev/null`), a FIFO or a process substitution
    /// (`/dev/fd/N`), which have no size to map.
    ///
    /// - Throws: the `POSIXError` of a failed `open` or `read`.
    static func readToEnd(_ path: String) throws -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            data.append(contentsOf: buffer[0..<count])
        }
    }
}
