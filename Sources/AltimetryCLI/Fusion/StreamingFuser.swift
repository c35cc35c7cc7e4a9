import Altimetry
import Dispatch
import Foundation

/// Fuses a CSV input into CSV or NDJSON output chunk by chunk: read, filter and format overlap, and no table of
/// every row is ever built.
///
/// The input is read in chunks of whole lines (`CSVReader.Chunks`), and each chunk goes through a
/// `ChunkPipeline` on up to `jobs` threads: it is read; fused and formatted by each group of tracks (track k in
/// group k mod G, G = 2 × threads when several, each group's lines in its own buffer); and written, its groups'
/// lines stitched back into input order. While one chunk is written, later ones are fused and read, each task
/// as soon as what it needs is done. Each track still sees its rows in order, through the same
/// `TrackFusion` as `TrackFuser`, and each line is formatted by the same `FusedLineFormatter` as
/// `FusedTrackWriter`, so the bytes are those of the table path for any number of jobs.
///
/// The pipeline only takes clean inputs: on any error, any row skipped as invalid or refused by the filter, or
/// any failure to write, `fuse` returns nil and the caller runs the table path, which reports what it finds
/// with the same messages, in the same order, as ever.
struct StreamingFuser: Sendable {
    /// The model's parameters (ignored when resuming).
    var parameters: AltitudeModelParameters
    /// Mark rows the filter refuses as rejected instead of stopping.
    var skipInvalid: Bool
    /// A filter state to continue from.
    var resume: AltitudeFilterCheckpoint?
    /// Threads at work at once (at least 1; at most `maximumThreads` are used).
    var jobs: Int
    /// The most threads the pipeline uses: its line buffers grow as the square of the threads T (2T groups ×
    /// (T + 2) chunks in flight), and beyond 64 a 64 KiB chunk (about 1,600 rows) would be cut into groups of a
    /// dozen rows.
    static let maximumThreads = 64
    /// `.csv` or `.ndjson`.
    var format: OutputFormat
    /// Input bytes per chunk (rounded up to a line break): small enough that the chunks in flight, their rows and
    /// lines stay in a core's cache (64 KiB: about 1,600 rows, 150 KB of rows and 100 KB of lines; single-track
    /// runs took 10 to 18 % less time than with 256 KiB), large enough that a task's cost dwarfs scheduling it.
    var chunkBytes = 1 << 16
    /// Called between steps with the rows read so far (for a progress line); nil for none.
    var progress: (@Sendable (Int) -> Void)?

    /// What a successful run yields besides the bytes written.
    struct Outcome: Sendable {
        /// The header's fields and every track's name (no rows).
        var table: InputTable
        /// Data rows read.
        var rowCount = 0
        /// Rows output as rejected (neither a pressure nor a GPS altitude).
        var rejectedCount = 0
        /// One summary per track, by track index.
        var tracks: [TrackFuser.TrackSummary] = []
    }

    /// Whether `format` can be streamed.
    static func supports(_ format: OutputFormat) -> Bool { format == .csv || format == .ndjson }

    /// Fuses the CSV `data` (named `file` in messages), passing the output's bytes, in order, to `write`.
    ///
    /// - Returns: the outcome, or nil when the input needs the table path (an error, a skipped or refused row,
    ///   a failed `write`); the bytes already written are then to be discarded.
    func fuse(_ data: Data, file: String, options: ReadOptions,
              write: @escaping @Sendable (UnsafeRawBufferPointer) throws -> Void) -> Outcome? {
        guard Self.supports(format) else { return nil }
        return data.withUnsafeBytes { bytes in run(bytes, file: file, options: options, write: write) }
    }

    private func run(_ bytes: UnsafeRawBufferPointer, file: String, options: ReadOptions,
                     write: @escaping @Sendable (UnsafeRawBufferPointer) throws -> Void) -> Outcome? {
        let reader: Reader
        do { reader = try Reader(CSVReader.Chunks(bytes: bytes, file: file, options: options)) } catch { return nil }
        let header = reader.chunks.header
        // Two groups per thread (when several): the threads then find a group's work ready more often.
        let threads = min(jobs, Self.maximumThreads)
        let groupCount = threads > 1 ? 2 * threads : 1
        let formatter = FusedLineFormatter(header)
        let groups = (0..<groupCount).map { _ in
            Group(file: file, parameters: parameters, resume: resume, skipInvalid: skipInvalid, formatter: formatter)
        }
        let output = Output(write: write)
        do {
            try formatter.csvHeader.withUnsafeBytes { if format == .csv { try write($0) } }
        } catch {
            return nil
        }
        // One chunk in flight per thread, one being written and one read ahead.
        let slotCount = threads + 2
        let slots = (0..<slotCount).map { _ in Slot() }
        for group in groups { group.lines = (0..<slotCount).map { _ in Lines() } }
        let pipeline = ChunkPipeline(lanes: groupCount, slots: slotCount, jobs: threads)
        let progressInterval = max(1, (4 << 20) / max(1, chunkBytes))
        let completed = pipeline.run(
            read: { [chunkBytes, progress] s in
                guard !reader.chunks.isAtEnd else { return .end }
                reader.read(into: slots[s % slotCount], approximateBytes: chunkBytes, groups: groupCount)
                if reader.failed { return .failed }
                // About every 4 MB of input.
                if s % progressInterval == progressInterval - 1 { progress?(reader.rowCount) }
                return reader.chunks.isAtEnd ? .lastChunk : .chunk
            },
            process: { [format] g, s in
                groups[g].fuse(slots[s % slotCount], group: g, of: groupCount, into: s % slotCount, format: format)
                return !groups[g].failed
            },
            write: { s in
                output.write(slots[s % slotCount], groups: groups, lines: s % slotCount)
                return !output.failed
            })
        guard completed else { return nil }
        var outcome = Outcome(table: header)
        outcome.rowCount = reader.rowCount
        outcome.table.trackNames = reader.trackNames
        for track in outcome.table.trackNames.indices {
            let group = groups[track % groupCount]
            let local = track / groupCount
            if local < group.places.count, group.places[local] >= 0 {
                outcome.tracks.append(group.fusions[group.places[local]].finished())
            } else {
                // A track without rows (only the unnamed one of an empty file): the summary the table path gives.
                guard let fusion = try? TrackFusion(name: outcome.table.trackNames[track], file: file, parameters: parameters,
                                                    resume: resume, skipInvalid: skipInvalid, keepsReadings: false) else {
                    return nil
                }
                outcome.tracks.append(fusion.finished())
            }
            if !outcome.tracks[outcome.tracks.count - 1].refused.isEmpty { return nil }
        }
        outcome.rejectedCount = groups.reduce(0) { $0 + $1.rejected }
        return outcome
    }
}

// The pipeline's state lives in small objects, each used by one task at a time: the tasks under way at once
// touch disjoint objects (the reader and the slot it reads into; each group and its line buffers for one slot;
// the output and the slot it writes), and `ChunkPipeline` orders every task after those it waited for.

/// A chunk's rows between being read and written.
private final class Slot: @unchecked Sendable {
    var table: InputTable?
    /// With several groups, each group's rows of the chunk (their indices, in order): found once by the read, so
    /// that a group visits only its own rows however many groups there are.
    var groupRows: [[Int32]] = []
}

/// The CSV reader and whether it has failed.
private final class Reader: @unchecked Sendable {
    var chunks: CSVReader.Chunks
    var failed = false
    /// Data rows read so far, and every track's name seen so far.
    var rowCount = 0
    var trackNames: [String] = []
    /// Row storage handed back by slots, reused for the next chunk.
    private var spare: [InputRow] = []

    init(_ chunks: CSVReader.Chunks) {
        self.chunks = chunks
        trackNames = chunks.header.trackNames
    }

    func read(into slot: Slot, approximateBytes: Int, groups: Int) {
        if var old = slot.table {
            swap(&old.rows, &spare)
            slot.table = nil
        }
        do {
            let table = try chunks.next(approximateBytes: approximateBytes, reusing: &spare)
            // A skipped row is left to the table path, which reports it in order with every other problem.
            if !table.skipped.isEmpty { failed = true }
            rowCount += table.rows.count
            trackNames = table.trackNames
            if groups > 1 {
                if slot.groupRows.count != groups { slot.groupRows = Array(repeating: [], count: groups) }
                for g in 0..<groups { slot.groupRows[g].removeAll(keepingCapacity: true) }
                for (i, row) in table.rows.enumerated() { slot.groupRows[row.track % groups].append(Int32(i)) }
            }
            slot.table = table
        } catch {
            failed = true
        }
    }
}

/// One chunk's lines of one group of tracks: the bytes, and each line's length in input order.
private final class Lines: @unchecked Sendable {
    /// Grown on demand: a group's share of a chunk may be nothing (there are G × slots of these).
    var bytes = ByteBuffer(capacity: 0)
    var lengths: [Int32] = []
}

/// The tracks k with k mod G = g: their fusions (by k / G) and their lines of each chunk in flight.
private final class Group: @unchecked Sendable {
    let file: String
    let parameters: AltitudeModelParameters
    let resume: AltitudeFilterCheckpoint?
    let skipInvalid: Bool
    var formatter: FusedLineFormatter
    /// The group's fusions, in order of first row, and each track's place among them (by k / G; -1 none yet).
    var fusions: [TrackFusion] = []
    var places: [Int] = []
    /// The group's lines of each chunk in flight, by slot.
    var lines: [Lines] = []
    var rejected = 0
    var failed = false

    init(file: String, parameters: AltitudeModelParameters, resume: AltitudeFilterCheckpoint?, skipInvalid: Bool,
         formatter: FusedLineFormatter) {
        self.file = file
        self.parameters = parameters
        self.resume = resume
        self.skipInvalid = skipInvalid
        self.formatter = formatter
    }

    /// Fuses and formats the rows of `slot`'s chunk that belong to group `g` of `count`, into `lines[slotIndex]`.
    func fuse(_ slot: Slot, group g: Int, of count: Int, into slotIndex: Int, format: OutputFormat) {
        guard let table = slot.table else { return }
        let out = lines[slotIndex]
        // Worked on in locals, put back at the end: no exclusivity check per row on the objects' fields.
        var bytes = ByteBuffer(capacity: 0)
        swap(&bytes, &out.bytes)
        bytes.removeAll()
        var lengths: [Int32] = []
        swap(&lengths, &out.lengths)
        lengths.removeAll(keepingCapacity: true)
        var fusions: [TrackFusion] = []
        swap(&fusions, &self.fusions)
        var places: [Int] = []
        swap(&places, &self.places)
        var formatter = self.formatter
        var rejected = 0
        defer {
            swap(&bytes, &out.bytes)
            swap(&lengths, &out.lengths)
            swap(&fusions, &self.fusions)
            swap(&places, &self.places)
            self.formatter = formatter
            self.rejected += rejected
        }
        let timeTexts = table.timeTexts
        let selected: [Int32]? = count > 1 ? slot.groupRows[g] : nil
        do throws(InputError) {
            try table.rows.withUnsafeBufferPointer { (rows) throws(InputError) in
                for r in 0..<(selected?.count ?? rows.count) {
                    let i = selected.map { Int($0[r]) } ?? r
                    let track = rows[i].track
                    let local = track / count
                    while places.count <= local { places.append(-1) }
                    if places[local] < 0 {
                        places[local] = fusions.count
                        fusions.append(try TrackFusion(name: track < table.trackNames.count ? table.trackNames[track] : "",
                                                       file: file, parameters: parameters, resume: resume,
                                                       skipInvalid: skipInvalid, keepsReadings: false))
                    }
                    // Through the array's subscript, in place: the fusion (the filter's state) is not copied per row.
                    let f = try fusions[places[local]].fuse(rows, i, index: i)
                    if case .rejected = f.status { rejected += 1 }
                    let before = bytes.count
                    let text = timeTexts?[i]
                    if format == .csv {
                        formatter.appendCSV(rows, i, f, timeText: text, trackNames: table.trackNames, to: &bytes)
                    } else {
                        formatter.appendNDJSON(rows, i, f, timeText: text, trackNames: table.trackNames, to: &bytes)
                    }
                    if count > 1 { lengths.append(Int32(bytes.count - before)) }
                }
            }
        } catch {
            failed = true
        }
    }
}

/// Writes each chunk's lines, stitched back into input order.
private final class Output: @unchecked Sendable {
    let write: @Sendable (UnsafeRawBufferPointer) throws -> Void
    var stitched = ByteBuffer()
    var failed = false

    init(write: @escaping @Sendable (UnsafeRawBufferPointer) throws -> Void) { self.write = write }

    func write(_ slot: Slot, groups: [Group], lines slotIndex: Int) {
        guard let table = slot.table else { return }
        do {
            if groups.count == 1 {
                try groups[0].lines[slotIndex].bytes.withBytes { try write($0) }
                return
            }
            // The groups' buffers do not change during this task: their bytes are read in place.
            let parts = groups.map { $0.lines[slotIndex] }
            let sources = parts.map { $0.bytes.unsafeBytes }
            let lengths = parts.map(\.lengths)
            var stitched = ByteBuffer(capacity: 0)
            swap(&stitched, &self.stitched)
            defer { swap(&stitched, &self.stitched) }
            stitched.removeAll()
            let total = sources.reduce(0) { $0 + $1.count }
            let target = UnsafeMutableRawPointer(stitched.reserve(total))
            var offsets = [Int](repeating: 0, count: parts.count)
            var cursors = [Int](repeating: 0, count: parts.count)
            var position = 0
            table.rows.withUnsafeBufferPointer { rows in
                for i in rows.indices {
                    let g = rows[i].track % parts.count
                    let length = Int(lengths[g][cursors[g]])
                    if let source = sources[g].baseAddress {
                        (target + position).copyMemory(from: source + offsets[g], byteCount: length)
                    }
                    position += length
                    offsets[g] += length
                    cursors[g] += 1
                }
            }
            stitched.commit(position)
            try stitched.withBytes { try write($0) }
        } catch {
            failed = true
        }
    }
}
