import Dispatch
import Foundation
import Synchronization

/// When a followed input (`fuse --follow`) waits for more, when it starts again, and when it stops, as `tail -F`
/// follows a file by name: it polls every `pollInterval` seconds, and stops on SIGINT or after `idleTimeout`
/// seconds without a change.
///
/// At the end of what it has read, the file behind the open descriptor either grew (read on), or shrank below
/// what was read (truncated, as `> file` or a logger's `copytruncate` does: read it again from its start), or the
/// path now names another file (replaced or rotated: `mv file file.1` then a new `file`, or deleted and created
/// again: the new file is opened and read from its start, once the old one has been read to its end). Each
/// restart is said by `notify`, one line for stderr.
package struct FollowPolicy {
    /// Stop after this many seconds without a change; nil to follow until SIGINT.
    var idleTimeout: Double?
    /// Seconds between checks.
    var pollInterval = 0.05
    /// Raised by SIGINT.
    let interrupt: InterruptFlag
    /// Receives a notice (a line without its line break) when the file is read again from its start.
    let notify: @Sendable (String) -> Void
    private var lastChange = ContinuousClock.now

    /// A policy stopping after `idleTimeout` seconds without a change (nil: never), or when `interrupt` is raised,
    /// telling `notify` of each restart.
    package init(
        idleTimeout: Double?, interrupt: InterruptFlag, notify: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.idleTimeout = idleTimeout
        self.interrupt = interrupt
        self.notify = notify
    }

    /// What became of a followed file while it was waited for.
    enum Change: Equatable {
        /// The open file holds more bytes than were read.
        case grew
        /// The open file holds fewer bytes than were read: it was truncated, and is to be read from its start.
        case truncated
        /// The path names another file now, open on this descriptor (the caller owns it), read from its start.
        case replaced(descriptor: Int32)
        /// Following is over (SIGINT, or idle for `idleTimeout`).
        case stopped
    }

    /// Waits until the file behind `descriptor`, of which `offset` bytes were read, changes, or following stops.
    ///
    /// - Parameters:
    ///   - descriptor: the open file.
    ///   - offset: the bytes read from it so far.
    ///   - path: the path it was opened by, checked for a replacement (another device and inode) after the open
    ///     file has been read to its end; a path that does not exist for now is waited for.
    mutating func waitForChange(descriptor: Int32, offset: UInt64, path: String) -> Change {
        while !interrupt.isRaised {
            var open = stat()
            if fstat(descriptor, &open) == 0 {
                let size = UInt64(max(0, open.st_size))
                if size > offset { return changed(.grew) }
                if (open.st_mode & S_IFMT) == S_IFREG && size < offset {
                    notify(
                        "notice: \(path) was truncated (\(size) bytes, \(offset) read); reading it again from its start"
                    )
                    return changed(.truncated)
                }
            }
            var named = stat()
            if stat(path, &named) == 0, named.st_dev != open.st_dev || named.st_ino != open.st_ino {
                let reopened = Foundation.open(path, O_RDONLY | O_CLOEXEC)
                if reopened >= 0 {
                    notify(
                        "notice: \(path) was replaced (rotated, or deleted and created again); reading the new file from its start"
                    )
                    return changed(.replaced(descriptor: reopened))
                }
            }
            if let idleTimeout, ContinuousClock.now - lastChange >= .seconds(idleTimeout) { return .stopped }
            Thread.sleep(forTimeInterval: pollInterval)
        }
        return .stopped
    }

    /// `change`, with the idle clock started again.
    private mutating func changed(_ change: Change) -> Change {
        lastChange = .now
        return change
    }
}

/// A flag raised once, from any thread.
package final class InterruptFlag: Sendable {
    private let raised = Atomic<Bool>(false)

    package var isRaised: Bool { raised.load(ordering: .acquiring) }

    package func raise() { raised.store(true, ordering: .releasing) }
}

/// Raises a flag on SIGINT instead of ending the process, until `cancel()` restores SIGINT's default action.
package final class InterruptWatch {
    package let flag = InterruptFlag()
    private let source: any DispatchSourceSignal

    package init() {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [flag] in flag.raise() }
        source.resume()
    }

    package func cancel() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
