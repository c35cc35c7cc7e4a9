import Foundation

/// Writes a whole file or nothing: the bytes go to a temporary file in the same directory, which is then renamed
/// over the destination (rename is atomic within one file system), so a failure never leaves a partial file.
public enum AtomicFile {
    /// Writes `bytes` to `path`.
    ///
    /// - Throws: `InputError` with `.cannotCreate` (73) if the temporary file cannot be created or renamed,
    ///   `.ioError` (74) if writing fails; the temporary file is removed either way.
    public static func write(_ bytes: [UInt8], to path: String) throws(InputError) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let temporary = directory + "/." + url.lastPathComponent + ".tmp-\(UUID().uuidString)"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else {
            throw InputError(file: path, message: "cannot create the output file: \(String(cString: strerror(errno)))",
                             exitCode: .cannotCreate)
        }
        var written = 0
        let failure: Int32? = bytes.withUnsafeBytes { raw -> Int32? in
            while written < raw.count {
                let n = Foundation.write(descriptor, raw.baseAddress.map { $0 + written }, raw.count - written)
                if n < 0 { if errno == EINTR { continue }; return errno }
                written += n
            }
            return fsync(descriptor) == 0 ? nil : errno
        }
        let closeFailed = close(descriptor) != 0
        if let failure {
            unlink(temporary)
            throw InputError(file: path, message: "could not write the output: \(String(cString: strerror(failure)))",
                             exitCode: .ioError)
        }
        if closeFailed {
            unlink(temporary)
            throw InputError(file: path, message: "could not close the output file", exitCode: .ioError)
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw InputError(file: path, message: "cannot create the output file: \(reason)", exitCode: .cannotCreate)
        }
    }
}
