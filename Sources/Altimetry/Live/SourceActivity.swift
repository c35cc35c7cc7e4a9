import Foundation

/// What a source has done so far: streams started and stopped, readings delivered, and why it last stopped.
///
/// Every source in the package keeps one, so that an app (or a test) can see the seed's guarantees hold: a
/// stream whose consumer goes away stops its source (`lastStop == .cancelled`), an unavailable source never
/// starts (`.unavailable`), a failing source stops with `.failed`. Thread-safe; read it from anywhere.
public final class SourceActivity: Sendable {
    /// Why a stream stopped.
    public enum Stop: Sendable, Equatable {
        /// The source had nothing to deliver (unavailable); the stream finished at once without error.
        case unavailable
        /// The source delivered everything it had; the stream finished without error.
        case finished
        /// The consumer stopped iterating or was cancelled, and the source stopped producing.
        case cancelled
        /// The source failed; the stream finished with this error's description.
        case failed(String)
    }

    private struct State {
        var starts = 0
        var stops = 0
        var delivered = 0
        var lastStop: Stop?
    }

    private let state = LockedState(State())

    /// No starts, stops or deliveries yet.
    public init() {}

    /// Streams started (unavailable ones included).
    public var starts: Int { state.read { $0.starts } }
    /// Streams stopped, for any reason.
    public var stops: Int { state.read { $0.stops } }
    /// Streams started and not yet stopped.
    public var running: Int { state.read { $0.starts - $0.stops } }
    /// Readings handed to consumers, over every stream.
    public var delivered: Int { state.read { $0.delivered } }
    /// Why the last stream stopped; nil before any stopped.
    public var lastStop: Stop? { state.read { $0.lastStop } }

    func recordStart() { state.write { $0.starts += 1 } }
    func recordDelivery() { state.write { $0.delivered += 1 } }
    func recordStop(_ reason: Stop) {
        state.write {
            $0.stops += 1
            $0.lastStop = reason
        }
    }
}

/// A value behind a lock.
final class LockedState<Value>: @unchecked Sendable {
    // Safety: `value` is only touched while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func read<T>(_ body: (Value) -> T) -> T { lock.withLock { body(value) } }
    func write(_ body: (inout Value) -> Void) { lock.withLock { body(&value) } }
}
