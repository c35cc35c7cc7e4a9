import Dispatch
import Foundation

/// Runs a three-stage pipeline over a sequence of chunks on up to `jobs` threads, each task as soon as what it
/// needs is done: no step waits for the slowest task of another.
///
/// Chunk s goes through `read(s)`, then `process(lane, s)` for every lane, then `write(s)`. The order each task
/// needs is kept:
/// - reads run one at a time in chunk order, and read(s) waits until write(s − `slots`) is done (chunk s reuses
///   that chunk's slot);
/// - each lane processes its chunks one at a time, in order, and process(lane, s) waits for read(s);
/// - writes run one at a time in chunk order, and write(s) waits for every lane's process(·, s).
/// Tasks on different lanes, and a read, a lane and a write of different chunks, run at once. Every task's start
/// and end go through one lock, so a task sees everything the tasks it waited for did.
///
/// Which ready task a free thread takes: with one thread, the oldest chunk's (a chunk is read, processed and
/// written while it is in cache); with several, the next read first, so that the reads, the one stage that cannot
/// be split, stay ahead and the other threads always find work.
struct ChunkPipeline {
    /// What a read found.
    enum ReadOutcome {
        /// Chunk s was read and more may follow.
        case chunk
        /// Chunk s was read and is the last.
        case lastChunk
        /// There is no chunk s: the input ended with chunk s − 1.
        case end
        /// The read failed: the pipeline stops.
        case failed
    }

    /// Independent sequences of processing per chunk (each lane's tasks run in chunk order, one at a time).
    var lanes: Int
    /// Chunks in flight at most (read and not yet written): the number of slots a chunk's data lives in.
    var slots: Int
    /// Threads at work at once (the calling thread included).
    var jobs: Int

    /// Runs the pipeline to the end of the input or the first failure.
    ///
    /// - Parameters:
    ///   - read: reads chunk s into slot s mod `slots`.
    ///   - process: processes chunk s for a lane; false stops the pipeline.
    ///   - write: writes chunk s; false stops the pipeline.
    /// - Returns: true when every chunk was read, processed and written; false after a failure (tasks already
    ///   started finish first).
    func run(
        read: @escaping @Sendable (Int) -> ReadOutcome,
        process: @escaping @Sendable (_ lane: Int, _ chunk: Int) -> Bool,
        write: @escaping @Sendable (Int) -> Bool
    ) -> Bool {
        precondition(lanes >= 1 && slots >= 1 && jobs >= 1)
        let state = State(lanes: lanes, slots: slots, readFirst: jobs > 1)
        let work: @Sendable (Int) -> Void = { _ in
            state.lock.lock()
            while let task = state.nextTask() {
                state.lock.unlock()
                let succeeded: Bool
                var outcome = ReadOutcome.chunk
                switch task {
                case .read(let s):
                    outcome = read(s)
                    succeeded = outcome != .failed
                case .process(let lane, let s): succeeded = process(lane, s)
                case .write(let s): succeeded = write(s)
                }
                state.lock.lock()
                state.finish(task, succeeded: succeeded, readOutcome: outcome)
                state.lock.broadcast()
            }
            state.lock.unlock()
        }
        if jobs == 1 {
            work(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: jobs, execute: work)
        }
        return !state.failed
    }

    private enum Task {
        case read(Int)
        case process(lane: Int, chunk: Int)
        case write(Int)
    }

    /// Where every stage stands; touched only under `lock`.
    private final class State: @unchecked Sendable {
        let lock = NSCondition()
        let slots: Int
        let readFirst: Bool
        /// Chunks read, each lane's chunks processed, chunks written.
        var read = 0
        var processed: [Int]
        var written = 0
        /// Whether a read, each lane's processing, a write is under way.
        var reading = false
        var processing: [Bool]
        var writing = false
        /// The number of chunks, once the last has been read.
        var chunkCount: Int?
        var failed = false

        init(lanes: Int, slots: Int, readFirst: Bool) {
            self.slots = slots
            self.readFirst = readFirst
            processed = Array(repeating: 0, count: lanes)
            processing = Array(repeating: false, count: lanes)
        }

        /// The task to run next, marked as under way, waiting while none is ready; nil when the pipeline is done
        /// or has failed.
        func nextTask() -> Task? {
            while true {
                if failed || (chunkCount != nil && written == chunkCount) { return nil }
                let canRead = !reading && chunkCount == nil && read - written < slots
                if readFirst && canRead {
                    reading = true
                    return .read(read)
                }
                if !writing && written < read && !processed.contains(where: { $0 <= written }) {
                    writing = true
                    return .write(written)
                }
                var oldest: Int?
                for lane in processed.indices where !processing[lane] && processed[lane] < read {
                    if oldest.map({ processed[lane] < processed[$0] }) ?? true { oldest = lane }
                }
                if let lane = oldest {
                    processing[lane] = true
                    return .process(lane: lane, chunk: processed[lane])
                }
                if canRead {
                    reading = true
                    return .read(read)
                }
                // Nothing is ready, so another thread has a task under way: its end wakes this one.
                lock.wait()
            }
        }

        /// Records the end of `task`.
        func finish(_ task: Task, succeeded: Bool, readOutcome: ReadOutcome) {
            if !succeeded { failed = true }
            switch task {
            case .read:
                reading = false
                switch readOutcome {
                case .chunk: read += 1
                case .lastChunk:
                    read += 1
                    chunkCount = read
                case .end: chunkCount = read
                case .failed: break
                }
            case .process(let lane, _):
                processing[lane] = false
                processed[lane] += 1
            case .write:
                writing = false
                written += 1
            }
        }
    }
}
