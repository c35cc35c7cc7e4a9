/// The class of a failure, as a process exit code from BSD's sysexits.h: `altimetry` exits with it, so scripts can
/// tell a usage mistake from bad data, and a server maps an `InputError`'s to statuses of its own.
public enum ExitCode: Int32, Sendable {
    /// Success.
    case success = 0
    /// A generic failure that fits no other code.
    case failure = 1
    /// EX_USAGE: the command was used incorrectly (unknown option, missing argument).
    case usage = 64
    /// EX_DATAERR: the input data was incorrect.
    case dataError = 65
    /// EX_NOINPUT: an input file did not exist or was not readable.
    case noInput = 66
    /// EX_SOFTWARE: an internal error.
    case software = 70
    /// EX_CANTCREAT: an output file could not be created.
    case cannotCreate = 73
    /// EX_IOERR: an error while reading or writing.
    case ioError = 74
}
