import Foundation
import Randomness
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

@Suite("ChunkPipeline")
struct ChunkPipelineTests {
    /// One task's start or end, numbered in the order the pipeline's threads reported them.
    enum Event: Hashable {
        case start(Task)
        case end(Task)
    }

    enum Task: Hashable {
        case read(Int)
        case process(lane: Int, chunk: Int)
        case write(Int)
    }

    /// The events of one run, in order, reported under a lock.
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [Event] = []
        func record(_ event: Event) { lock.withLock { events.append(event) } }
        var all: [Event] { lock.withLock { events } }
    }

    /// Runs a pipeline over `chunks` chunks, each task taking a pseudo-random few microseconds, and returns the
    /// log and the result. `failing` makes that task fail.
    static func run(
        chunks: Int, lanes: Int, slots: Int, jobs: Int, endsWithEmptyRead: Bool, seed: UInt64,
        failing: Task? = nil
    ) -> (events: [Event], completed: Bool) {
        let log = Log()
        let delays: [UInt32] = {
            var generator = SeededGenerator(seed: seed)
            return (0..<64).map { _ in UInt32(generator.next() % 200) }
        }()
        @Sendable func perform(_ task: Task, _ k: Int) -> Bool {
            log.record(.start(task))
            usleep(delays[k % delays.count])
            log.record(.end(task))
            return task != failing
        }
        let pipeline = ChunkPipeline(lanes: lanes, slots: slots, jobs: jobs)
        let completed = pipeline.run(
            read: { s in
                guard s < chunks else { return .end }
                guard perform(.read(s), s) else { return .failed }
                return !endsWithEmptyRead && s == chunks - 1 ? .lastChunk : .chunk
            },
            process: { lane, s in perform(.process(lane: lane, chunk: s), 3 * s + lane) },
            write: { s in perform(.write(s), 7 * s) })
        return (log.all, completed)
    }

    /// Every order the pipeline promises, checked on the log.
    static func checkOrder(_ events: [Event], chunks: Int, lanes: Int, slots: Int, context: String) {
        var at: [Event: Int] = [:]
        for (k, event) in events.enumerated() {
            #expect(at[event] == nil, "\(event) twice, \(context)")
            at[event] = k
        }
        var tasks: [Task] = []
        for s in 0..<chunks {
            tasks.append(.read(s))
            for lane in 0..<lanes { tasks.append(.process(lane: lane, chunk: s)) }
            tasks.append(.write(s))
        }
        #expect(events.count == 2 * tasks.count, "every task once, \(context)")
        func before(_ a: Task, _ b: Task) {
            guard let end = at[.end(a)], let start = at[.start(b)] else {
                Issue.record("\(a) or \(b) missing, \(context)")
                return
            }
            #expect(end < start, "\(a) ends before \(b) starts, \(context)")
        }
        for s in 0..<chunks {
            if s > 0 { before(.read(s - 1), .read(s)) }
            if s >= slots { before(.write(s - slots), .read(s)) }
            for lane in 0..<lanes {
                before(.read(s), .process(lane: lane, chunk: s))
                if s > 0 { before(.process(lane: lane, chunk: s - 1), .process(lane: lane, chunk: s)) }
                before(.process(lane: lane, chunk: s), .write(s))
            }
            if s > 0 { before(.write(s - 1), .write(s)) }
        }
    }

    @Test(
        "every chunk is read, processed on every lane and written once, in the orders promised",
        arguments: [1, 2, 3])
    func orders(jobs: Int) {
        for (chunks, lanes, slots) in [(0, 1, 1), (1, 1, 1), (7, 1, 1), (9, 3, 2), (12, 4, 4), (5, 6, 3)] {
            for endsWithEmptyRead in [false, true] {
                let context =
                    "\(chunks) chunks, \(lanes) lanes, \(slots) slots, \(jobs) jobs, empty read \(endsWithEmptyRead)"
                let (events, completed) = Self.run(
                    chunks: chunks, lanes: lanes, slots: slots, jobs: jobs,
                    endsWithEmptyRead: endsWithEmptyRead, seed: UInt64(chunks * 31 + lanes))
                #expect(completed, "\(context)")
                Self.checkOrder(events, chunks: chunks, lanes: lanes, slots: slots, context: context)
            }
        }
    }

    @Test("one thread takes the oldest chunk's work first: read, process every lane, write, then the next chunk")
    func oneThreadOrder() {
        let (events, completed) = Self.run(chunks: 3, lanes: 2, slots: 3, jobs: 1, endsWithEmptyRead: false, seed: 1)
        #expect(completed)
        let starts = events.compactMap { event -> Task? in if case .start(let task) = event { task } else { nil } }
        #expect(
            starts == [
                .read(0), .process(lane: 0, chunk: 0), .process(lane: 1, chunk: 0), .write(0),
                .read(1), .process(lane: 0, chunk: 1), .process(lane: 1, chunk: 1), .write(1),
                .read(2), .process(lane: 0, chunk: 2), .process(lane: 1, chunk: 2), .write(2),
            ])
    }

    @Test(
        "a failed task stops the pipeline: false, nothing after it is written, no task starts twice",
        arguments: [1, 2])
    func failure(jobs: Int) {
        for failing in [Task.read(3), .process(lane: 1, chunk: 2), .write(4)] {
            let (events, completed) = Self.run(
                chunks: 9, lanes: 2, slots: 3, jobs: jobs, endsWithEmptyRead: false,
                seed: 5, failing: failing)
            #expect(!completed, "\(failing)")
            let written = events.compactMap { event -> Int? in
                if case .start(.write(let s)) = event { s } else { nil }
            }
            let limit: Int
            switch failing {
            case .read(let s), .process(_, let s): limit = s
            case .write(let s): limit = s + 1
            }
            #expect(written.allSatisfy { $0 < limit }, "\(failing): wrote \(written)")
            #expect(Set(events).count == events.count, "\(failing)")
        }
    }
}
