import Altimetry
import Dispatch
import Foundation

/// `fuse`'s one path from reader to writer, for every input format, output format and option: rows are read a
/// chunk at a time, each track's rows are fused in order, and the lines are written in input order.
///
/// Each chunk goes through a `ChunkPipeline` on up to `jobs` threads. It is read (`RowReader`); fused and
/// formatted by each group of tracks (track k in group k mod G, G = 2 × threads when several, each group's lines
/// in its own buffer); and written, its groups' lines stitched back into input order, with the chunk's skipped
/// rows reported on stderr in input order. While one chunk is written, later ones are fused and read.
///
/// Errors travel in-band: a reader's bad row (without `--skip-invalid`) ends its chunk, a row the filter
/// refuses ends its group's share of the chunk, and a failed read becomes an empty last chunk; the write then
/// writes every row before the first problem, and the run ends with it. Nothing runs twice.
///
/// Two outputs need a whole track before they can write it, and hold only that: GPX, whose points are grouped
/// by track (the formatted points are held), and `--smooth`, whose estimates need the track's last row (the
/// rows are held, `SmoothedRows`, then smoothed, formatted and stitched into input order at the end).
public struct FusePipeline: Sendable {
    /// The model's parameters (ignored when resuming).
    public var parameters: AltitudeModelParameters
    /// Mark rows the filter refuses as rejected instead of stopping.
    public var skipInvalid = false
    /// A filter state to continue from.
    public var resume: AltitudeFilterCheckpoint?
    /// Output the smoothed track.
    public var smooth = false
    /// With `smooth`, also measure each track's total ascent and descent (`AscentAnalysis`) for its summary.
    public var measuresAscent = false
    /// Threads at work at once (at least 1; at most `maximumThreads` are used).
    public var jobs = 1
    /// The most threads used: the line buffers grow as the square of the threads T (2T groups × (T + 2) chunks
    /// in flight), and beyond 64 a 64 KiB chunk (about 1,600 rows) would be cut into groups of a dozen rows.
    static let maximumThreads = 64
    /// What the output is written as.
    public var format: OutputFormat = .csv
    /// Input bytes per chunk (rounded to whole lines): small enough that the chunks in flight, their rows and
    /// lines stay in a core's cache (64 KiB: about 1,600 rows, 150 KB of rows and 100 KB of lines), large enough
    /// that a task's cost dwarfs scheduling it.
    package var chunkBytes = 1 << 16
    /// Called now and then with the rows read so far (for a progress line); nil for none.
    public var progress: (@Sendable (Int) -> Void)?

    /// A pipeline with the model's `parameters` and the defaults: CSV, one thread, stopping at the first bad row.
    public init(parameters: AltitudeModelParameters) {
        self.parameters = parameters
    }

    /// What a run yields besides the output.
    public struct Outcome: Sendable {
        /// The header's fields and every track's name (no rows).
        public var header: InputTable
        /// Data rows fused and written.
        public var rowCount = 0
        /// One summary per track, by track index.
        public var tracks: [TrackSummary] = []
        /// Whether a GPX output had rows without a position.
        public var lacksPositions = false
        /// Rows and lines reported as skipped (invalid, or refused by the filter).
        public var skippedCount = 0
    }

    /// Fuses every row of `reader` into `sink`; notices and skipped rows go to `diagnostics`.
    ///
    /// - Throws: `InputError`: the first bad row (without `skipInvalid`), a structural problem, a failed read
    ///   or write. The rows before it have been written to `sink`.
    package func run(
        _ reader: any RowReader, to sink: OutputSink,
        diagnostics: @escaping @Sendable (FuseDiagnostic) -> Void
    ) throws(InputError) -> Outcome {
        let header = reader.header
        for notice in header.notices { diagnostics(.notice(notice)) }
        let threads = min(max(1, jobs), Self.maximumThreads)
        // Two groups per thread (when several): the threads then find a group's work ready more often.
        let groupCount = threads > 1 ? 2 * threads : 1
        // One chunk in flight per thread, one being written and one read ahead.
        let slotCount = threads + 2
        let columns = OutputColumns(header)
        let formatter = FusedLineFormatter(columns)
        let mode: Group.Mode = smooth ? .hold : format == .csv ? .csv : format == .ndjson ? .ndjson : .gpx
        let source = TaskOwned(Source(reader: reader))
        let slots = (0..<slotCount).map { _ in TaskOwned(Slot()) }
        let groups = (0..<groupCount).map { _ in
            TaskOwned(Group(pipeline: self, file: header.file, formatter: formatter, mode: mode))
        }
        let lines = (0..<groupCount).map { _ in (0..<slotCount).map { _ in TaskOwned(Lines()) } }
        let output = TaskOwned(Output(sink: sink, diagnostics: diagnostics, mode: mode, groupCount: groupCount))
        if format == .csv { try sink.write(formatter.csvHeader) }
        let progressInterval = max(1, (4 << 20) / max(1, chunkBytes))
        let pipeline = ChunkPipeline(lanes: groupCount, slots: slotCount, jobs: threads)
        _ = pipeline.run(
            read: { [chunkBytes, progress] s in
                let outcome = source.value.read(
                    into: slots[s % slotCount], approximateBytes: chunkBytes, groups: groupCount)
                // About every 4 MB of input.
                if s % progressInterval == progressInterval - 1 { progress?(source.value.rowCount) }
                return outcome
            },
            process: { g, s in
                groups[g].value.fuse(
                    slots[s % slotCount].value, group: g, of: groupCount, into: lines[g][s % slotCount])
                return true
            },
            write: { s in
                output.value.write(slots[s % slotCount].value, lines: lines.map { $0[s % slotCount] })
            })
        if let failure = output.value.failure {
            sink.abandon()
            throw failure
        }
        var outcome = Outcome(header: header)
        outcome.header.trackNames = source.value.trackNames
        outcome.rowCount = output.value.rowCount
        outcome.tracks = outcome.header.trackNames.indices.map { k in
            let group = groups[k % groupCount].value
            let local = k / groupCount
            guard local < group.places.count, group.places[local] >= 0 else {
                return TrackSummary(track: outcome.header.trackNames[k])
            }
            return group.fusions[group.places[local]].finished()
        }
        do throws(InputError) {
            if smooth {
                try finishSmoothing(groups: groups, formatter: formatter, outcome: &outcome, output: output)
            } else if mode == .gpx {
                try output.value.writeGPX(trackNames: outcome.header.trackNames, formatter: formatter)
            }
        } catch {
            sink.abandon()
            throw error
        }
        outcome.lacksPositions = output.value.lacksPositions
        outcome.skippedCount = output.value.skippedCount
        return outcome
    }

    /// Smooths every held track (the groups at once) and writes the rows in input order.
    private func finishSmoothing(
        groups: [TaskOwned<Group>], formatter: FusedLineFormatter, outcome: inout Outcome,
        output: TaskOwned<Output>
    ) throws(InputError) {
        let names = outcome.header.trackNames
        let format = format, parameters = parameters
        // Each group smooths its own tracks into its own `smoothed`; everything is read after all have joined.
        let work: @Sendable (Int) -> Void = { g in
            groups[g].value.smoothHeldTracks(
                group: g, of: groups.count, names: names, format: format, parameters: parameters)
        }
        if groups.count == 1 {
            work(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: groups.count, execute: work)
        }
        var tracks = [TrackLines?](repeating: nil, count: names.count)
        for group in groups {
            if let error = group.value.smoothingError { throw error }
            for (k, lines, final, ascent) in group.value.smoothed where k < names.count {
                tracks[k] = lines
                outcome.tracks[k].ascent = ascent.map(AscentJSON.init)
                outcome.tracks[k].finalEstimate = final
                let hasBarometer = outcome.tracks[k].barometerReadings > 0
                outcome.tracks[k].final = final.map { TrackSummary.Final($0, hasBarometer: hasBarometer) }
                outcome.tracks[k].checkpoint = nil
            }
        }
        if format == .gpx {
            output.value.trackPoints = tracks.map { $0?.bytes ?? [] }
            try output.value.writeGPX(trackNames: names, formatter: formatter)
        } else {
            try output.value.writeInOrder(tracks)
        }
    }
}

/// A held track's formatted lines and each line's length, in the track's order.
struct TrackLines: Sendable {
    var bytes: [UInt8]
    var lengths: [Int32]

    /// The lines of `buffer`, written from the track's last line back to its first (`lengths` in that order too),
    /// put in the track's order.
    init(reversed buffer: borrowing ByteBuffer, lengths reversedLengths: [Int32]) {
        let lengths = Array(reversedLengths.reversed())
        self.lengths = lengths
        bytes = buffer.withBytes { source in
            [UInt8](unsafeUninitializedCapacity: source.count) { target, count in
                // The first line is at the buffer's end.
                var end = source.count
                for length in lengths {
                    let start = end - Int(length)
                    UnsafeMutableRawBufferPointer(
                        UnsafeMutableBufferPointer(rebasing: target[count..<(count + Int(length))])
                    )
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[start..<end]))
                    count += Int(length)
                    end = start
                }
            }
        }
    }
}

/// The reader, and what it has read so far.
private struct Source {
    var reader: any RowReader
    /// Data rows read so far, and every track's name seen so far.
    var rowCount = 0
    var trackNames: [String]
    /// Row storage handed back by slots, reused for the next chunk.
    var spare = InputTable(file: "")

    init(reader: any RowReader) {
        self.reader = reader
        trackNames = reader.header.trackNames
        spare = reader.header
    }

    /// Reads the next chunk into `slot`: a failed read becomes an empty last chunk that carries the error.
    mutating func read(into slot: TaskOwned<Slot>, approximateBytes: Int, groups: Int) -> ChunkPipeline.ReadOutcome {
        swap(&slot.value.table, &spare)
        var chunk = spare
        spare = InputTable(file: "")
        let more: Bool
        do {
            more = try reader.next(into: &chunk, approximateBytes: approximateBytes)
        } catch {
            chunk.removeRows()
            chunk.stoppedBy = error
            more = true
        }
        guard more else { return .end }
        rowCount += chunk.rows.count
        trackNames = chunk.trackNames
        if groups > 1 {
            if slot.value.groupRows.count != groups { slot.value.groupRows = Array(repeating: [], count: groups) }
            for g in 0..<groups { slot.value.groupRows[g].removeAll(keepingCapacity: true) }
            for (i, row) in chunk.rows.enumerated() { slot.value.groupRows[row.track % groups].append(Int32(i)) }
        }
        let last = chunk.stoppedBy != nil
        slot.value.table = chunk
        return last ? .lastChunk : .chunk
    }
}

/// A chunk's rows between being read and written.
private struct Slot {
    var table = InputTable(file: "")
    /// With several groups, each group's rows of the chunk (their indices, in order): found once by the read, so
    /// that a group visits only its own rows however many groups there are.
    var groupRows: [[Int32]] = []
}

/// One chunk's lines of one group of tracks: the bytes, each line's length in input order, the rows the filter
/// refused under `--skip-invalid`, and the row where the group stopped, if it did.
private struct Lines: ~Copyable {
    /// Grown on demand: a group's share of a chunk may be nothing (there are G × slots of these).
    var bytes = ByteBuffer(capacity: 0)
    var lengths: [Int32] = []
    var refused: [(row: Int, error: InputError)] = []
    var failure: (row: Int, error: InputError)?
}

/// The tracks k with k mod G = g: their fusions (by k / G) and the formatter of their lines.
private struct Group {
    /// What the group makes of a row: a CSV, NDJSON or GPX line, or nothing yet (held for the smoother).
    enum Mode {
        case csv, ndjson, gpx, hold
    }

    let pipeline: FusePipeline
    let file: String
    var formatter: FusedLineFormatter
    let mode: Mode
    /// The group's fusions, in order of first row, and each track's place among them (by k / G; -1 none yet).
    var fusions: [TrackFusion] = []
    var places: [Int] = []
    /// With `--smooth`, after `smoothHeldTracks`: each track's index, lines and final estimate, or the error.
    var smoothed: [(track: Int, lines: TrackLines, final: AltitudeEstimate?, ascent: AscentReport?)] = []
    var smoothingError: InputError?

    init(pipeline: FusePipeline, file: String, formatter: FusedLineFormatter, mode: Mode) {
        self.pipeline = pipeline
        self.file = file
        self.formatter = formatter
        self.mode = mode
    }

    /// Fuses and formats the rows of `slot`'s chunk that belong to group `g` of `count`, into `out`.
    mutating func fuse(_ slot: Slot, group g: Int, of count: Int, into out: TaskOwned<Lines>) {
        // Worked on in a local, put back at the end: no exclusivity check per row on the object's fields.
        var lines = Lines()
        swap(&lines, &out.value)
        defer { swap(&lines, &out.value) }
        lines.bytes.removeAll()
        lines.lengths.removeAll(keepingCapacity: true)
        lines.refused.removeAll()
        lines.failure = nil
        let table = slot.table
        let timeTexts = table.timeTexts
        let names = table.trackNames
        let width = table.passThroughColumns.count
        let selected: [Int32]? = count > 1 ? slot.groupRows[g] : nil
        table.rows.withUnsafeBufferPointer { rows in
            for r in 0..<(selected?.count ?? rows.count) {
                let i = selected.map { Int($0[r]) } ?? r
                let track = rows[i].track
                let local = track / count
                while places.count <= local { places.append(-1) }
                do throws(InputError) {
                    if places[local] < 0 {
                        fusions.append(
                            try TrackFusion(
                                name: track < names.count ? names[track] : "", file: file,
                                parameters: pipeline.parameters, resume: pipeline.resume,
                                skipInvalid: pipeline.skipInvalid, smooth: mode == .hold))
                        places[local] = fusions.count - 1
                    }
                    // Through the array's subscript, in place: the fusion (the filter's state) is not copied per row.
                    let place = places[local]
                    let refusals = fusions[place].refusals.count
                    let (estimate, status) = try fusions[place].fuse(rows, i)
                    if fusions[place].refusals.count > refusals, let refusal = fusions[place].refusals.last {
                        lines.refused.append((i, refusal))
                    }
                    let row = FusedLineFormatter.Row(
                        estimate: estimate, status: status, timeText: timeTexts?[i],
                        trackName: formatter.columns.hasTrackColumn && track < names.count ? names[track] : "")
                    let before = lines.bytes.count
                    switch mode {
                    case .csv: formatter.appendCSV(rows, i, row, passThrough: table.passThrough, to: &lines.bytes)
                    case .ndjson: formatter.appendNDJSON(rows, i, row, passThrough: table.passThrough, to: &lines.bytes)
                    case .gpx: formatter.appendGPX(rows, i, row, to: &lines.bytes)
                    case .hold:
                        fusions[place].held?.hold(
                            rows[i], timeText: timeTexts?[i],
                            passThrough: table.passThrough[(i * width)..<((i + 1) * width)],
                            estimate: estimate, status: status)
                    }
                    lines.lengths.append(Int32(lines.bytes.count - before))
                } catch {
                    lines.failure = (i, error)
                    return
                }
            }
        }
    }
}

extension Group {
    /// Smooths the group's held tracks (group `g` of `count`) and formats their lines in `format`.
    mutating func smoothHeldTracks(
        group g: Int, of count: Int, names: [String], format: OutputFormat,
        parameters: AltitudeModelParameters
    ) {
        for (local, place) in places.enumerated() where place >= 0 {
            let k = local * count + g
            guard var held = fusions[place].held else { continue }
            fusions[place].held = nil
            var lines = ByteBuffer(capacity: 0)
            var lengths: [Int32] = []
            var formatter = formatter
            do throws(InputError) {
                var ascent: AscentReport?
                if pipeline.measuresAscent && !held.readingRows.isEmpty {
                    let readings = Array(SmoothedRows.HeldReadings(rows: held.rows, readingRows: held.readingRows))
                    do { ascent = try AscentAnalysis.measure(readings, parameters: parameters) } catch {
                        throw InputError(file: file, message: "the ascent could not be measured: \(error)")
                    }
                }
                // The rows come from the last back: their lines are formatted in that order, and put back in order
                // once the held rows are let go.
                let final = try held.smooth(parameters: parameters, file: file) {
                    i, estimate, status in
                    let row = FusedLineFormatter.Row(
                        estimate: estimate, status: status,
                        timeText: held.timeTexts.isEmpty ? nil : held.timeTexts[i],
                        trackName: k < names.count ? names[k] : "")
                    let before = lines.count
                    held.rows.withUnsafeBufferPointer { rows in
                        switch format {
                        case .csv: formatter.appendCSV(rows, i, row, passThrough: held.passThrough, to: &lines)
                        case .ndjson: formatter.appendNDJSON(rows, i, row, passThrough: held.passThrough, to: &lines)
                        case .gpx: formatter.appendGPX(rows, i, row, to: &lines)
                        }
                    }
                    lengths.append(Int32(lines.count - before))
                }
                held = SmoothedRows()
                smoothed.append((k, TrackLines(reversed: lines, lengths: lengths), final, ascent))
            } catch {
                smoothingError = error
                return
            }
        }
    }
}

/// Writes each chunk's lines, stitched back into input order, and reports its skipped rows.
private struct Output: ~Copyable {
    let sink: OutputSink
    let diagnostics: @Sendable (FuseDiagnostic) -> Void
    let mode: Group.Mode
    let groupCount: Int
    /// Rows written (or, for GPX and `--smooth`, taken in) so far.
    var rowCount = 0
    /// What ended the run early.
    var failure: InputError?
    /// Rows and lines reported as skipped.
    var skippedCount = 0
    /// Reused for stitching.
    var stitched = ByteBuffer()
    /// GPX: each track's points so far, by track index.
    var trackPoints: [[UInt8]] = []
    var lacksPositions = false
    /// `--smooth`: each row's track, in input order.
    var order: [Int32] = []

    init(sink: OutputSink, diagnostics: @escaping @Sendable (FuseDiagnostic) -> Void, mode: Group.Mode, groupCount: Int)
    {
        self.sink = sink
        self.diagnostics = diagnostics
        self.mode = mode
        self.groupCount = groupCount
    }

    /// Writes the rows of `slot`'s chunk up to the first problem, and the chunk's skipped rows before it.
    ///
    /// - Returns: false when the run is to stop (a problem, or a failed write).
    mutating func write(_ slot: Slot, lines: [TaskOwned<Lines>]) -> Bool {
        let table = slot.table
        // The first problem: the earliest row where a group stopped, else the reader's.
        var stop = table.rows.count
        for part in lines {
            if let (row, error) = part.value.failure, row < stop {
                stop = row
                failure = error
            }
        }
        if failure == nil { failure = table.stoppedBy }
        reportSkipped(table, lines: lines, before: stop)
        rowCount += stop
        do throws(InputError) {
            switch mode {
            case .csv, .ndjson: try writeLines(table, lines: lines, count: stop)
            case .gpx: collectPoints(table, lines: lines, count: stop)
            case .hold: for i in 0..<stop { order.append(Int32(table.rows[i].track)) }
            }
        } catch {
            failure = error
        }
        return failure == nil
    }

    /// Reports, in input order, the rows of the chunk the reader skipped and the filter refused before row `stop`.
    private mutating func reportSkipped(_ table: InputTable, lines: [TaskOwned<Lines>], before stop: Int) {
        let limit = stop < table.rows.count ? table.rows[stop].line : Int.max
        var messages = table.skipped.filter { ($0.line ?? 0) < limit }
        for part in lines { messages += part.value.refused.filter { $0.row < stop }.map(\.error) }
        guard !messages.isEmpty else { return }
        skippedCount += messages.count
        for error in messages.enumerated().sorted(by: {
            ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset)
        }) {
            diagnostics(.skipped(error.element))
        }
    }

    /// Writes the first `count` rows' lines in input order.
    private mutating func writeLines(_ table: InputTable, lines: [TaskOwned<Lines>], count: Int) throws(InputError) {
        if lines.count == 1 {
            let part = lines[0]
            let length =
                count == table.rows.count
                ? part.value.bytes.count
                : part.value.lengths.prefix(count).reduce(0) { $0 + Int($1) }
            try part.value.bytes.withBytes { (bytes) throws(InputError) in
                try sink.write(UnsafeRawBufferPointer(rebasing: bytes[0..<length]))
            }
            return
        }
        var out = ByteBuffer(capacity: 0)
        swap(&out, &stitched)
        defer { swap(&out, &stitched) }
        out.removeAll()
        stitch(table, lines: lines, count: count) { line, _ in out.append(line) }
        try out.withBytes { (bytes) throws(InputError) in try sink.write(bytes) }
    }

    /// Calls `body` with each of the first `count` rows' lines, in input order, and the row's track.
    private func stitch(
        _ table: InputTable, lines: [TaskOwned<Lines>], count: Int,
        _ body: (UnsafeRawBufferPointer, Int) -> Void
    ) {
        // The groups' buffers do not change during this task: their bytes are read in place.
        let sources = lines.map { $0.value.bytes.unsafeBytes }
        var offsets = [Int](repeating: 0, count: lines.count)
        var cursors = [Int](repeating: 0, count: lines.count)
        table.rows.withUnsafeBufferPointer { rows in
            for i in 0..<count {
                let track = rows[i].track
                let g = track % lines.count
                let length = Int(lines[g].value.lengths[cursors[g]])
                body(UnsafeRawBufferPointer(rebasing: sources[g][offsets[g]..<(offsets[g] + length)]), track)
                offsets[g] += length
                cursors[g] += 1
            }
        }
    }

    /// Adds the first `count` rows' GPX points to their tracks.
    private mutating func collectPoints(_ table: InputTable, lines: [TaskOwned<Lines>], count: Int) {
        var points = trackPoints
        trackPoints = []
        stitch(table, lines: lines, count: count) { line, track in
            while points.count <= track { points.append([]) }
            points[track].append(contentsOf: line)
        }
        trackPoints = points
        if !lacksPositions {
            lacksPositions = table.rows.prefix(count).contains { $0.latitude == nil || $0.longitude == nil }
        }
    }

    /// Writes the GPX document: one `trk` per track with points, in track order.
    func writeGPX(trackNames: [String], formatter: FusedLineFormatter) throws(InputError) {
        try sink.write(Array(formatter.gpxStart.utf8))
        for (k, points) in trackPoints.enumerated() where !points.isEmpty {
            try sink.write(Array(formatter.gpxTrackStart(k, name: k < trackNames.count ? trackNames[k] : "").utf8))
            try sink.write(points)
            try sink.write(Array(FusedLineFormatter.gpxTrackEnd.utf8))
        }
        try sink.write(Array(FusedLineFormatter.gpxEnd.utf8))
    }

    /// Writes held tracks' lines in input order (`--smooth`).
    mutating func writeInOrder(_ tracks: [TrackLines?]) throws(InputError) {
        var offsets = [Int](repeating: 0, count: tracks.count)
        var cursors = [Int](repeating: 0, count: tracks.count)
        var out = ByteBuffer()
        for track in order {
            let k = Int(track)
            guard k < tracks.count, let lines = tracks[k], cursors[k] < lines.lengths.count else { continue }
            let length = Int(lines.lengths[cursors[k]])
            lines.bytes.withUnsafeBytes {
                out.append(UnsafeRawBufferPointer(rebasing: $0[offsets[k]..<(offsets[k] + length)]))
            }
            offsets[k] += length
            cursors[k] += 1
            if out.count >= 1 << 16 {
                try out.withBytes { (bytes) throws(InputError) in try sink.write(bytes) }
                out.removeAll()
            }
        }
        try out.withBytes { (bytes) throws(InputError) in try sink.write(bytes) }
    }
}
