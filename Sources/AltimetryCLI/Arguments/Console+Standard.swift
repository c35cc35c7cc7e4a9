import Foundation
import Synchronization

extension Console {
    /// The process's standard output and standard error, written with `write(2)`: a failed write (a full disk,
    /// a closed pipe with SIGPIPE ignored, a closed descriptor) loses the text instead of trapping, as
    /// `FileHandle.write` does, and standard output's first failure is kept for `outputFailure`.
    public static var standard: Console {
        let failure = FirstFailure()
        return Console(
            write: { text in
                if let error = writeAll(STDOUT_FILENO, text) { failure.record(error) }
            },
            writeError: { text in _ = writeAll(STDERR_FILENO, text) },
            errorIsTerminal: isatty(STDERR_FILENO) != 0,
            outputDescriptor: STDOUT_FILENO,
            outputFailure: { failure.message })
    }

    /// Writes all of `text` to `descriptor`, retrying after a signal.
    ///
    /// - Returns: nil when every byte was written, else the failure's `errno`.
    private static func writeAll(_ descriptor: Int32, _ text: String) -> Int32? {
        var text = text
        return text.withUTF8 { bytes in
            var written = 0
            while written < bytes.count {
                let n = Foundation.write(descriptor, bytes.baseAddress.map { $0 + written }, bytes.count - written)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { return errno }
                if n == 0 { return EIO }
                written += n
            }
            return nil
        }
    }

    /// The first failed write's error: written by any thread that writes to the console, read once at the end.
    ///
    /// The one piece of shared state is behind a `Mutex`, so the type is `Sendable` without a promise.
    private final class FirstFailure: Sendable {
        private let error = Mutex<Int32?>(nil)

        func record(_ code: Int32) {
            error.withLock { if $0 == nil { $0 = code } }
        }

        /// The system's message for the first failure (`strerror`), or nil.
        var message: String? {
            error.withLock { $0 }.map { String(cString: strerror($0)) }
        }
    }
}
