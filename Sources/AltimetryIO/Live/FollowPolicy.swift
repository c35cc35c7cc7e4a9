import Dispatch
import Foundation
import Synchronization

/// When a followed input (`fuse --follow`) waits for more and when it stops: it polls the file's size every
/// `pollInterval` seconds, and stops on SIGINT or after `idleTimeout` seconds without growth.
package struct FollowPolicy {
    /// Stop after this many seconds without growth; nil to follow until SIGINT.
    var idleTimeout: Double?
    /// Seconds between size checks.
    var pollInterval = 0.05
    /// Raised by SIGINT.
    let interrupt: InterruptFlag
    private var lastGrowth = ContinuousClock.now

    package init(idleTimeout: Double?, interrupt: InterruptFlag) {
        self.idleTimeout = idleTimeout
        self.interrupt = interrupt
    }

    /// Waits until the file behind `descriptor` holds more than `offset` bytes.
    ///
    /// - Returns: true when it grew, false when following is to stop (SIGINT, or idle for `idleTimeout`).
    mutating func waitForGrowth(descriptor: Int32, offset: UInt64) -> Bool {
        while !interrupt.isRaised {
            var status = stat()
            if fstat(descriptor, &status) == 0, UInt64(max(0, status.st_size)) > offset {
                lastGrowth = .now
                return true
            }
            if let idleTimeout, ContinuousClock.now - lastGrowth >= .seconds(idleTimeout) { return false }
            Thread.sleep(forTimeInterval: pollInterval)
        }
        return false
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
