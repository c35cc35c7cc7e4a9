import Altimetry
import AltimetryIO
import Foundation

/// `altimetry fuse INPUT`: the fused track, one output row per input row, with a summary on stderr.
public struct FuseCommand: Command {
    public static let name = "fuse"
    public static let overview = "Fuse barometer and GPS readings into absolute altitude with a one-sigma accuracy."
    public static let synopsis =
        "INPUT [--out FILE] [--format csv|ndjson|gpx] [--smooth] [--summary FILE] [--save-state FILE] [--resume FILE] "
        + "[--jobs N] [--follow [--follow-idle S]] [input options] [model options]"
    public static let options: [ArgumentScanner.Option] =
        [
            .init(
                "out", .value, placeholder: "FILE",
                help: "Write the track to FILE, atomically (default standard output)."),
            .init(
                "format", .value, placeholder: "csv|ndjson|gpx",
                help: "Output format (default csv, or from --out's extension)."),
            .init("smooth", .flag, help: "Output the smoothed track (every row uses the whole recording)."),
            .init(
                "summary", .value, placeholder: "FILE",
                help:
                    "Write a JSON summary per track to FILE (rows, fixes, final estimate, fronts, episodes, rejections)."
            ),
            .init(
                "save-state", .value, placeholder: "FILE",
                help: "Write the filter state after the last row (JSON; single track)."),
            .init("resume", .value, placeholder: "FILE", help: "Start from a state written by --save-state."),
            .init(
                "jobs", .value, placeholder: "N", help: "Threads fusing tracks at once (default: the number of cores)."),
            .init(
                "follow", .flag,
                help: "Follow a CSV or NDJSON INPUT another process appends to: a row out per new row, until SIGINT."),
            .init(
                "follow-idle", .value, placeholder: "S",
                help: "With --follow: stop after S seconds without the file growing."),
        ] + InputOptions.options + ModelOptions.options

    let input: String
    let out: String?
    let format: OutputFormat
    let smooth: Bool
    let inputOptions: InputOptions
    let saveState: String?
    let resume: String?
    let jobs: Int
    let model: ModelOptions
    let follow: Bool
    let followIdle: Double?
    let summaryPath: String?

    public init(_ a: ArgumentScanner) throws(UsageError) {
        input = try a.onePositional("INPUT")
        out = a.values["out"]
        if let text = a.values["format"] {
            guard let f = OutputFormat(rawValue: text) else {
                throw UsageError("option '--format' expects csv, ndjson or gpx, got '\(text)'")
            }
            format = f
        } else if let out, let f = OutputFormat(rawValue: URL(fileURLWithPath: out).pathExtension.lowercased()) {
            format = f
        } else {
            format = .csv
        }
        smooth = a.flags.contains("smooth")
        summaryPath = a.values["summary"]
        inputOptions = try InputOptions(a)
        saveState = a.values["save-state"]
        resume = a.values["resume"]
        jobs = try a.integer("jobs", default: ProcessInfo.processInfo.activeProcessorCount, minimum: 1)
        model = try ModelOptions(a)
        if smooth && (saveState != nil || resume != nil) {
            throw UsageError(
                "--smooth cannot be combined with --save-state or --resume (the smoother needs the whole track)")
        }
        if resume != nil && !model.isEmpty {
            throw UsageError("--resume takes the model from the saved state; model options cannot be given with it")
        }
        follow = a.flags.contains("follow")
        followIdle =
            a.values["follow-idle"] == nil
            ? nil
            : try a.number("follow-idle", default: 0, validRange: 0.001...1e9)
        if follow {
            let clashing = ["smooth", "save-state", "resume", "pressure", "track"].filter {
                a.flags.contains($0) || a.values[$0] != nil
            }
            if let first = clashing.first { throw UsageError("--follow cannot be combined with --\(first)") }
            if format == .gpx {
                throw UsageError("--follow writes CSV or NDJSON rows as they come; GPX needs the whole track")
            }
            if input == "-" || TrackFileFormat(path: input) != nil {
                throw UsageError("--follow expects a CSV or NDJSON file, got '\(input)'")
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
        var checkpoint: AltitudeFilterCheckpoint?
        if let resume {
            let data = try InputLoader.data(resume)
            do { checkpoint = try JSONDecoder().decode(AltitudeFilterCheckpoint.self, from: data) } catch {
                throw InputError(
                    file: resume,
                    message: "found no valid filter state (\(Self.stateProblem(error))); expected a file written by "
                        + "--save-state")
            }
        }
        let interrupt = follow ? InterruptWatch() : nil
        defer { interrupt?.cancel() }
        let following = interrupt.map {
            FollowPolicy(idleTimeout: followIdle, interrupt: $0.flag) { console.writeError($0 + "\n") }
        }
        let reader = try InputLoader.reader(
            input, pressurePath: inputOptions.pressure, options: inputOptions.read, following: following,
            track: inputOptions.track)
        let sink = try OutputSink(path: out, appending: follow, console: console)
        var pipeline = FusePipeline(parameters: checkpoint?.parameters ?? parameters)
        pipeline.skipInvalid = inputOptions.read.skipInvalid
        pipeline.resume = checkpoint
        pipeline.smooth = smooth
        pipeline.measuresAscent = smooth && summaryPath != nil
        pipeline.jobs = jobs
        pipeline.format = format
        if console.errorIsTerminal {
            pipeline.progress = { rows in console.writeError("fusing: \(rows) rows read...\r") }
        }
        let outcome = try pipeline.run(reader, to: sink, console: console)
        let tracks = outcome.header.trackNames.count
        if (saveState != nil || resume != nil) && tracks > 1 {
            sink.abandon()
            throw InputError(
                file: outcome.header.file,
                message: "found \(tracks) tracks; --save-state and --resume "
                    + "expect a single track", exitCode: .usage)
        }
        if format == .gpx && outcome.lacksPositions && outcome.header.gpx == nil {
            console.writeError("notice: rows without lat/lon are not GPX points and are left out of the GPX output\n")
        }
        do throws(InputError) {
            try writeState(outcome.tracks.first?.checkpoint)
            try writeSummary(outcome)
            try sink.commit()
        } catch {
            sink.abandon()
            throw error
        }
        console.writeError(Self.summary(outcome))
        return .success
    }

    /// What is wrong with a saved state, from its decoding error: the field's path (`engine.covariance.elements`)
    /// and what was found there against what was expected.
    static func stateProblem(_ error: any Error) -> String {
        func path(_ context: DecodingError.Context, _ key: (any CodingKey)? = nil) -> String {
            let keys = context.codingPath + (key.map { [$0] } ?? [])
            let text = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.hasPrefix(".") ? String(text.dropFirst()) : text.isEmpty ? "the top level" : text
        }
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .keyNotFound(let key, let context): return "field '\(path(context, key))' is missing"
        case .valueNotFound(_, let context): return "field '\(path(context))' is null"
        case .typeMismatch(let type, let context): return "field '\(path(context))' is not a \(type)"
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "not valid JSON: \(context.underlyingError.map { "\($0)" } ?? context.debugDescription)"
        case .dataCorrupted(let context): return "field '\(path(context))': \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }

    /// Writes `state` to `--save-state`'s file, if given.
    private func writeState(_ state: AltitudeFilterCheckpoint?) throws(InputError) {
        guard let saveState, let state else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do { data = try encoder.encode(state) } catch {
            throw InputError(
                file: saveState, message: "could not encode the filter state: \(error)", exitCode: .software)
        }
        try AtomicFile.write(Array(data), to: saveState)
    }

    /// Writes the `--summary` file: `{"file": ..., "rows": ..., "skipped": ..., "tracks": [TrackSummary...]}`.
    private func writeSummary(_ outcome: FusePipeline.Outcome) throws(InputError) {
        guard let summaryPath else { return }
        let data: Data
        do { data = try JSONDocument.encode(RunSummary(outcome), snakeCase: true) } catch {
            throw InputError(file: summaryPath, message: "could not encode the summary: \(error)", exitCode: .software)
        }
        try AtomicFile.write(Array(data) + [10], to: summaryPath)
    }

    /// The `--summary` file's top-level object.
    struct RunSummary: Encodable {
        var file: String
        var rows: Int
        var skipped: Int
        var tracks: [TrackSummary]

        init(_ outcome: FusePipeline.Outcome) {
            file = outcome.header.file
            rows = outcome.rowCount
            skipped = outcome.skippedCount
            tracks = outcome.tracks
        }
    }

    /// The summary on stderr: rows, skipped rows, fixes used and gated, and per track the final altitude and QNH.
    static func summary(_ outcome: FusePipeline.Outcome) -> String {
        let tracks = outcome.tracks
        let fixes = tracks.reduce(0) { $0 + $1.fixesUsed }
        let gated = tracks.reduce(0) { $0 + $1.fixesGated }
        let rejected = tracks.reduce(0) { $0 + $1.rejected }
        let predicted = tracks.reduce(0) { $0 + $1.predicted }
        var text =
            "rows: \(outcome.rowCount) (skipped as invalid: \(outcome.skippedCount), rejected in all: \(rejected), "
            + "predicted: \(predicted)); GPS fixes used: \(fixes), gated: \(gated)\n"
        let shown = tracks.prefix(20)
        // Each track's line says which track it is when there are several (a multi-track GPX or TCX as well as a
        // `track_id` column): by name, or by number for a track without one.
        let labelled = outcome.header.hasTrackColumn || tracks.count > 1
        for (k, track) in shown.enumerated() {
            let label = !labelled ? "" : track.track.isEmpty ? "track \(k + 1): " : "track '\(track.track)': "
            guard let e = track.finalEstimate else {
                text += "\(label)no usable reading\n"
                continue
            }
            let qnh =
                track.barometerReadings > 0
                ? "QNH \(Fixed.text(e.seaLevelPressure, 2)) ± \(Fixed.text(e.seaLevelPressureStandardDeviation, 2)) hPa"
                : "QNH none (no barometer reading)"
            text +=
                "\(label)final altitude \(Fixed.text(e.altitude, 1)) ± \(Fixed.text(e.altitudeStandardDeviation, 1)) m, "
                + "\(qnh), fronts: \(track.fronts.count)"
            for front in track.fronts {
                text +=
                    " [\(Fixed.text(front.startTime, 0))–\(Fixed.text(front.endTime, 0)) s, \(Fixed.text(front.sizeHectopascals, 1)) hPa]"
            }
            text += "\n"
        }
        if tracks.count > shown.count { text += "... and \(tracks.count - shown.count) more tracks\n" }
        return text
    }
}
