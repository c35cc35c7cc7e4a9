import Altimetry
import Dispatch
import Foundation
import StateEstimation

/// Fuses every track of an input table with its own `AltitudeFilter`, tracks in parallel, rows in input order.
///
/// Each input row gets one `FusedRow`: rows the reader marked invalid and rows with neither a pressure nor a
/// GPS altitude are `rejected` with the reason; the rest carry the estimate after that row (or the smoothed one).
public struct TrackFuser: Sendable {
    /// The model's parameters (ignored when resuming: the checkpoint carries its own).
    public var parameters: AltitudeModelParameters
    /// Output the Rauch-Tung-Striebel smoothed track instead of the filtered one.
    public var smooth = false
    /// Mark rows the filter refuses as rejected instead of stopping.
    public var skipInvalid = false
    /// A filter state to continue from (single-track inputs only).
    public var resume: AltitudeFilterCheckpoint?
    /// The number of tracks fused at once (at least 1).
    public var jobs: Int

    public init(parameters: AltitudeModelParameters, smooth: Bool = false, skipInvalid: Bool = false,
                resume: AltitudeFilterCheckpoint? = nil, jobs: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.parameters = parameters
        self.smooth = smooth
        self.skipInvalid = skipInvalid
        self.resume = resume
        self.jobs = max(1, jobs)
    }

    /// One track's outcome.
    public struct TrackSummary: Sendable {
        /// The track's name (empty without `track_id`).
        public var name: String
        /// Input rows in the track.
        public var rows = 0
        /// GPS fixes used and gated.
        public var fixes = 0
        public var gatedFixes = 0
        /// The estimate after the last usable row.
        public var final: AltitudeEstimate?
        /// Weather fronts detected.
        public var fronts: [WeatherFront] = []
        /// The filter's state after the last row (not with `smooth`).
        public var checkpoint: AltitudeFilterCheckpoint?
        /// Rows the filter refused under `skipInvalid`.
        public var refused: [InputError] = []
    }

    /// The fused rows, in input order, and one summary per track.
    public struct Result: Sendable {
        public var rows: [FusedRow]
        public var tracks: [TrackSummary]
    }

    /// Fuses `table`.
    ///
    /// - Throws: `InputError` naming the row the filter refused (unless `skipInvalid`), or a bad checkpoint.
    public func fuse(_ table: InputTable) throws(InputError) -> Result {
        var groups = [[Int]](repeating: [], count: table.trackNames.count)
        if groups.count == 1 {
            groups[0] = Array(table.rows.indices)
        } else {
            // Only the track is read, in place (copying each whole `InputRow` cost more than the grouping).
            for k in groups.indices { groups[k].reserveCapacity(table.rows.count / groups.count + 1) }
            table.rows.withUnsafeBufferPointer { rows in
                for i in rows.indices { groups[rows[i].track].append(i) }
            }
        }
        // Workers write the result in place, at disjoint rows (no copy of a million rows at the end).
        var rows = [FusedRow](repeating: FusedRow(), count: table.rows.count)
        let summaries = SharedBuffer<TrackSummary?>(count: groups.count, initial: nil)
        let errors = SharedBuffer<InputError?>(count: groups.count, initial: nil)
        let next = SharedCounter()
        let workers = min(jobs, groups.count)
        rows.withUnsafeMutableBufferPointer { storage in
            let output = SharedRows(storage)
            let work: @Sendable (Int) -> Void = { [self, groups] _ in
                while true {
                    let track = next.take()
                    guard track < groups.count else { return }
                    do throws(InputError) {
                        summaries[track] = try fuseTrack(table, indices: groups[track], name: table.trackNames[track], into: output)
                    } catch {
                        errors[track] = error
                    }
                }
            }
            if workers == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: workers, execute: work) }
        }
        let failures = errors.array.compactMap { $0 }
        if let first = failures.min(by: { ($0.line ?? 0) < ($1.line ?? 0) }) { throw first }
        return Result(rows: rows, tracks: summaries.array.compactMap { $0 })
    }

    private func fuseTrack(_ table: InputTable, indices: [Int], name: String,
                           into output: SharedRows) throws(InputError) -> TrackSummary {
        var fusion = try TrackFusion(name: name, file: table.file, parameters: parameters, resume: resume,
                                     skipInvalid: skipInvalid, keepsReadings: smooth)
        if smooth {
            fusion.usable.reserveCapacity(indices.count)
            fusion.readings.reserveCapacity(indices.count)
        }
        try table.rows.withUnsafeBufferPointer { (rows) throws(InputError) in
            for i in indices { output[i] = try fusion.fuse(rows, i, index: i) }
        }
        var summary = fusion.finished()
        if smooth && !fusion.readings.isEmpty {
            do {
                let (filtered, smoothed) = try AltitudeFilter.smooth(fusion.readings, parameters: parameters)
                for (k, i) in fusion.usable.enumerated() where k < smoothed.count && k < filtered.count {
                    output[i] = TrackFusion.fill(smoothed[k], status: TrackFusion.status(filtered[k]))
                }
                summary.final = smoothed.last
                summary.checkpoint = nil
            } catch {
                throw InputError(file: table.file, message: "the smoother failed: \(error)")
            }
        }
        return summary
    }
}

/// A fixed-size buffer that concurrent workers write at disjoint indices.
final class SharedBuffer<Element>: @unchecked Sendable {
    // Safety: each index is written by one worker only (tracks own disjoint rows), and read after all join.
    private let storage: UnsafeMutableBufferPointer<Element>

    init(count: Int, initial: Element) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: initial)
    }

    deinit {
        storage.deinitialize()
        storage.deallocate()
    }

    subscript(index: Int) -> Element {
        get { storage[index] }
        set { storage[index] = newValue }
    }

    var array: [Element] { Array(storage) }
}

/// The result rows, written by concurrent workers at disjoint indices, in the caller's array.
struct SharedRows: @unchecked Sendable {
    // Safety: each index is written by one worker only (tracks own disjoint rows), and the array outlives the
    // workers (they join inside its `withUnsafeMutableBufferPointer`).
    private let storage: UnsafeMutableBufferPointer<FusedRow>

    init(_ storage: UnsafeMutableBufferPointer<FusedRow>) { self.storage = storage }

    subscript(index: Int) -> FusedRow {
        get { storage[index] }
        nonmutating set { storage[index] = newValue }
    }
}

/// Hands out 0, 1, 2, ... to concurrent workers.
final class SharedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func take() -> Int { lock.withLock { defer { value += 1 }; return value } }
}
