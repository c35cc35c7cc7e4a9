import Altimetry
import Foundation

/// `altimetry fuse INPUT`: the fused track, one output row per input row, with a summary on stderr.
public struct FuseCommand: Command {
    public static let name = "fuse"
    public static let overview = "Fuse barometer and GPS readings into absolute altitude with a one-sigma accuracy."
    public static let synopsis = "INPUT [--out FILE] [--format csv|ndjson|gpx] [--smooth] [--skip-invalid] [--follow [--follow-idle S]] [model options]"
    public static let options: [ArgumentScanner.Option] = [
        .init("out", .value, placeholder: "FILE", help: "Write the track to FILE, atomically (default standard output)."),
        .init("format", .value, placeholder: "csv|ndjson|gpx", help: "Output format (default csv, or from --out's extension)."),
        .init("smooth", .flag, help: "Output the smoothed track (every row uses the whole recording)."),
        .init("skip-invalid", .flag, help: "Keep going past invalid rows: each is reported and output as rejected."),
        VerticalAccuracyConvention.option,
        .init("pressure", .value, placeholder: "FILE", help: "With a GPX, TCX or FIT INPUT: the barometer readings (CSV or NDJSON, absolute times)."),
        ElevationSource.option,
        .init("save-state", .value, placeholder: "FILE", help: "Write the filter state after the last row (JSON; single track)."),
        .init("resume", .value, placeholder: "FILE", help: "Start from a state written by --save-state."),
        .init("jobs", .value, placeholder: "N", help: "Tracks fused, and CSV chunks parsed, at once (default: the number of cores)."),
        .init("follow", .flag, help: "Follow a CSV INPUT another process appends to: a row out per new row, until SIGINT."),
        .init("follow-idle", .value, placeholder: "S", help: "With --follow: stop after S seconds without the file growing."),
    ] + ModelOptions.options

    let input: String
    let out: String?
    let format: OutputFormat
    let smooth: Bool
    let readOptions: ReadOptions
    let pressure: String?
    let saveState: String?
    let resume: String?
    let jobs: Int
    let model: ModelOptions
    let follow: Bool
    let followIdle: Double?

    public init(_ a: ArgumentScanner) throws(UsageError) {
        input = try a.onePositional("INPUT")
        out = a.values["out"]
        if let text = a.values["format"] {
            guard let f = OutputFormat(rawValue: text) else { throw UsageError("option '--format' expects csv, ndjson or gpx, got '\(text)'") }
            format = f
        } else if let out, let f = OutputFormat(rawValue: URL(fileURLWithPath: out).pathExtension.lowercased()) {
            format = f
        } else {
            format = .csv
        }
        smooth = a.flags.contains("smooth")
        let convention = try VerticalAccuracyConvention(optionValue: a.values["vacc-confidence"])
        readOptions = ReadOptions(skipInvalid: a.flags.contains("skip-invalid"), verticalAccuracy: convention,
                                  elevation: try ElevationSource(optionValue: a.values["ele"]))
        pressure = a.values["pressure"]
        saveState = a.values["save-state"]
        resume = a.values["resume"]
        jobs = try a.integer("jobs", default: ProcessInfo.processInfo.activeProcessorCount, minimum: 1)
        model = try ModelOptions(a)
        if smooth && (saveState != nil || resume != nil) {
            throw UsageError("--smooth cannot be combined with --save-state or --resume (the smoother needs the whole track)")
        }
        if resume != nil && !model.isEmpty {
            throw UsageError("--resume takes the model from the saved state; model options cannot be given with it")
        }
        follow = a.flags.contains("follow")
        followIdle = a.values["follow-idle"] == nil ? nil
            : try a.number("follow-idle", default: 0, validRange: 0.001...1e9)
        if follow {
            let clashing = ["smooth", "save-state", "resume", "pressure"].filter { a.flags.contains($0) || a.values[$0] != nil }
            if let first = clashing.first { throw UsageError("--follow cannot be combined with --\(first)") }
            if format == .gpx { throw UsageError("--follow writes CSV or NDJSON rows as they come; GPX needs the whole track") }
            if input == "-" || TrackFileFormat(path: input) != nil
                || [".ndjson", ".jsonl", ".json"].contains(where: input.lowercased().hasSuffix) {
                throw UsageError("--follow expects a CSV file, got '\(input)'")
            }
        } else if followIdle != nil {
            throw UsageError("--follow-idle needs --follow")
        }
    }

    public func run(console: Console) -> ExitCode {
        do {
            return try execute(console: console)
        } catch {
            console.writeError("error: \(error)\n")
            return error.exitCode
        }
    }

    private func execute(console: Console) throws(InputError) -> ExitCode {
        let parameters = try model.parameters()
        if follow {
            let fuser = FollowFuser(file: input, parameters: parameters, options: readOptions, format: format)
            try FileFollowing(path: input, idleTimeout: followIdle, fuser: fuser).run(console: console, out: out)
            return .success
        }
        var checkpoint: AltitudeFilterCheckpoint?
        if let resume {
            let data = try InputLoader.data(resume)
            do { checkpoint = try JSONDecoder().decode(AltitudeFilterCheckpoint.self, from: data) } catch {
                throw InputError(file: resume, message: "found no valid filter state (\(error)); expected a file written by --save-state")
            }
        }
        if console.errorIsTerminal { console.writeError("reading \(input)...\r") }
        let contents = try InputLoader.data(input)
        if !smooth && pressure == nil && StreamingFuser.supports(format) && InputLoader.isCSV(input, bytes: contents),
           try streamed(contents, parameters: checkpoint?.parameters ?? parameters, checkpoint: checkpoint, console: console) {
            return .success
        }
        let loaded = try InputLoader.load(input, bytes: contents, pressurePath: pressure, options: readOptions, jobs: jobs)
        let table = loaded.table
        for notice in table.notices + loaded.notes.map({ "notice: " + $0 }) { console.writeError(notice + "\n") }
        for skipped in table.skipped { console.writeError("skipped: \(skipped)\n") }
        if (saveState != nil || resume != nil) && table.trackNames.count > 1 {
            throw InputError(file: table.file, message: "found \(table.trackNames.count) tracks; --save-state and --resume "
                             + "expect a single track", exitCode: .usage)
        }
        if console.errorIsTerminal { console.writeError("fusing \(table.rows.count) rows...\r") }
        let fuser = TrackFuser(parameters: checkpoint?.parameters ?? parameters, smooth: smooth,
                               skipInvalid: readOptions.skipInvalid, resume: checkpoint, jobs: jobs)
        let result = try fuser.fuse(table)
        for track in result.tracks { for refused in track.refused { console.writeError("skipped: \(refused)\n") } }
        let bytes: [UInt8]
        if format == .gpx, let document = loaded.trackFile?.gpx {
            bytes = GPXTrackWriter(document: document, fused: loaded.trackFileRows.map { result.rows[$0] }).bytes()
        } else {
            let writer = FusedTrackWriter(table: table, fused: result.rows, jobs: jobs)
            if format == .gpx, case let missing = writer.rowsWithoutPosition, missing > 0 {
                console.writeError("notice: \(missing) of \(table.rows.count) rows have no lat/lon and are left out of the GPX output\n")
            }
            bytes = writer.bytes(format)
        }
        try writeState(result.tracks.first?.checkpoint)
        if let out {
            try AtomicFile.write(bytes, to: out)
        } else {
            console.write(String(decoding: bytes, as: UTF8.self))
        }
        let rejected = result.rows.filter { if case .rejected = $0.status { return true } else { return false } }.count
        console.writeError(Self.summary(table: table, rows: table.rows.count, skipped: table.skipped.count,
                                        rejected: rejected, tracks: result.tracks))
        return .success
    }

    /// Fuses a clean CSV input through `StreamingFuser` and writes everything the table path would.
    ///
    /// - Returns: false, having written nothing, when the input needs the table path (see `StreamingFuser`).
    /// - Throws: `InputError` from writing the state or committing the output, as the table path would.
    private func streamed(_ bytes: Data, parameters: AltitudeModelParameters, checkpoint: AltitudeFilterCheckpoint?,
                          console: Console) throws(InputError) -> Bool {
        var fuser = StreamingFuser(parameters: parameters, skipInvalid: readOptions.skipInvalid, resume: checkpoint,
                                   jobs: jobs, format: format)
        if console.errorIsTerminal {
            fuser.progress = { rows in console.writeError("fusing: \(rows) rows read...\r") }
        }
        let file: AtomicFile?
        let memory = ByteSink()
        if let out {
            guard let opened = try? AtomicFile(path: out) else { return false }
            file = opened
        } else {
            file = nil
        }
        let write: @Sendable (UnsafeRawBufferPointer) throws -> Void = { [file] bytes in
            if let file { try file.append(bytes) } else { memory.bytes.append(contentsOf: bytes) }
        }
        guard let outcome = fuser.fuse(bytes, file: InputLoader.displayName(input), options: readOptions, write: write),
              (saveState == nil && resume == nil) || outcome.table.trackNames.count <= 1 else {
            file?.abandon()
            return false
        }
        for notice in outcome.table.notices { console.writeError(notice + "\n") }
        try writeState(outcome.tracks.first?.checkpoint)
        if let file { try file.commit() } else { console.write(String(decoding: memory.bytes, as: UTF8.self)) }
        console.writeError(Self.summary(table: outcome.table, rows: outcome.rowCount, skipped: 0,
                                        rejected: outcome.rejectedCount, tracks: outcome.tracks))
        return true
    }

    /// Writes `state` to `--save-state`'s file, if given.
    private func writeState(_ state: AltitudeFilterCheckpoint?) throws(InputError) {
        guard let saveState, let state else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do { data = try encoder.encode(state) } catch {
            throw InputError(file: saveState, message: "could not encode the filter state: \(error)", exitCode: .software)
        }
        try AtomicFile.write(Array(data), to: saveState)
    }

    /// The summary on stderr: rows, skipped rows, fixes used and gated, and per track the final altitude and QNH.
    static func summary(table: InputTable, rows: Int, skipped: Int, rejected: Int,
                        tracks: [TrackFuser.TrackSummary]) -> String {
        let fixes = tracks.reduce(0) { $0 + $1.fixes }
        let gated = tracks.reduce(0) { $0 + $1.gatedFixes }
        var text = "rows: \(rows) (skipped as invalid: \(skipped + tracks.reduce(0) { $0 + $1.refused.count }), "
            + "rejected in all: \(rejected)); GPS fixes used: \(fixes), gated: \(gated)\n"
        let shown = tracks.prefix(20)
        for track in shown {
            let label = table.hasTrackColumn ? "track '\(track.name)': " : ""
            guard let e = track.final else { text += "\(label)no usable reading\n"; continue }
            text += "\(label)final altitude \(Fixed.text(e.altitude, 1)) ± \(Fixed.text(e.altitudeStandardDeviation, 1)) m, "
                + "QNH \(Fixed.text(e.seaLevelPressure, 2)) ± \(Fixed.text(e.seaLevelPressureStandardDeviation, 2)) hPa, "
                + "fronts: \(track.fronts.count)"
            for front in track.fronts {
                text += " [\(Fixed.text(front.startTime, 0))–\(Fixed.text(front.endTime, 0)) s, \(Fixed.text(front.sizeHectopascals, 1)) hPa]"
            }
            text += "\n"
        }
        if tracks.count > shown.count { text += "... and \(tracks.count - shown.count) more tracks\n" }
        return text
    }
}

/// Bytes collected from writers on several threads that take turns (the streaming fuser's write tasks).
private final class ByteSink: @unchecked Sendable {
    // Safety: appended to by one write task at a time, each ordered after the one before by `ChunkPipeline`'s
    // lock; read after the fuser returns.
    var bytes: [UInt8] = []
}
