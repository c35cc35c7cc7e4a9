import AltimetryIO
import Foundation

/// Bytes put in a file of their own for one read through `InputLoader`, the path every command reads by.
///
/// The loader picks the reader by the file's extension and reads through a file descriptor, so the fuzz targets
/// exercise what a user's file goes through (byte-order mark, chunked reading, line stitching), at the cost of
/// a small write per input. The file is removed after the read.
enum ScratchFile {
    /// Reads `bytes` as a file with `pathExtension` (`csv`, `ndjson`, `gpx`, ...).
    ///
    /// - Throws: the reader's `InputError`.
    static func table(_ bytes: [UInt8], pathExtension: String, options: ReadOptions = ReadOptions()) throws(InputError) -> InputTable {
        let path = FileManager.default.temporaryDirectory.path + "/altimetry-fuzz-\(getpid())-\(UUID().uuidString).\(pathExtension)"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            fatalError("the fuzz target cannot write its scratch file \(path)")
        }
        defer { unlink(path) }
        return try InputLoader.table(path, options: options)
    }
}
