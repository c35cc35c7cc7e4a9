import Altimetry
import Foundation
import Randomness
import Testing
@testable import AltimetryCLI

@Suite("StreamingFuser")
struct StreamingFuserTests {
    /// A clean CSV of `rows` rows over `tracks` interleaved tracks: optional columns by seed (an ISO 8601 `time`
    /// instead of `t`, a reference column, temperature), blank cells (rows with no reading at all among them),
    /// comments, blank lines, CRLF line ends, and, for some seeds, a last line without a line break.
    static func cleanCSV(seed: UInt64, rows: Int, tracks: Int) -> String {
        var generator = SeededGenerator(seed: seed)
        func next(_ n: Int) -> Int { Int(generator.next() % UInt64(n)) }
        let iso = seed % 3 == 1
        let reference = seed % 2 == 0
        let lineEnd = seed % 5 == 4 ? "\r\n" : "\n"
        var header = [iso ? "time" : "t", "pressure_hpa", "gps_alt_m", "gps_vacc_m", "temperature_c"]
        if tracks > 1 { header.insert("track_id", at: 1) }
        if reference { header.append("true_alt_m") }
        var text = header.joined(separator: ",") + lineEnd
        let parser = ISO8601Parser()
        for i in 0..<rows {
            let k = i / tracks
            let t = 1_700_000_000 + Double(k) * (iso ? 1 : 0.5)
            var cells = [iso ? parser.text(t) : Fixed.text(t - 1_700_000_000, 1)]
            if tracks > 1 { cells.append("\"walk \(i % tracks)\"") }
            let altitude = 300 + Double(next(2_000)) / 10
            let pressure = 1013.25 * pow(1 - 2.25577e-5 * altitude, 5.25588)
            let nothing = next(25) == 0
            cells.append(nothing || next(10) == 0 ? "" : Fixed.text(pressure, 4))
            let fix = !nothing && next(2) == 0
            cells.append(fix ? Fixed.text(altitude + Double(next(60)) / 10 - 3, 2) : "")
            cells.append(fix && next(3) > 0 ? "\(2 + next(8)).5" : "")
            cells.append(next(4) == 0 ? "\(next(30))" : "")
            if reference { cells.append(next(3) == 0 ? "" : Fixed.text(altitude, 2)) }
            text += cells.joined(separator: ",") + lineEnd
            if next(50) == 0 { text += "# a comment" + lineEnd }
            if next(60) == 0 { text += lineEnd }
        }
        if seed % 4 == 3, text.hasSuffix(lineEnd) { text.removeLast(lineEnd.count) }
        return text
    }

    /// The table path's output and summaries for `data`: `CSVReader`, `TrackFuser`, `FusedTrackWriter`.
    static func tablePath(_ data: Data, format: OutputFormat, options: ReadOptions,
                          resume: AltitudeFilterCheckpoint? = nil) throws -> (bytes: [UInt8], result: TrackFuser.Result) {
        let table = try CSVReader.read(data, file: "s.csv", options: options)
        let result = try TrackFuser(parameters: AltitudeModelParameters(), skipInvalid: options.skipInvalid,
                                    resume: resume, jobs: 1).fuse(table)
        return (FusedTrackWriter(table: table, fused: result.rows).bytes(format), result)
    }

    /// Runs the streaming path, collecting its bytes.
    static func streamed(_ data: Data, format: OutputFormat, options: ReadOptions, jobs: Int, chunkBytes: Int,
                         resume: AltitudeFilterCheckpoint? = nil) -> (bytes: [UInt8], outcome: StreamingFuser.Outcome?) {
        let sink = Sink()
        let fuser = StreamingFuser(parameters: AltitudeModelParameters(), skipInvalid: options.skipInvalid, resume: resume,
                                   jobs: jobs, format: format, chunkBytes: chunkBytes)
        let outcome = fuser.fuse(data, file: "s.csv", options: options) { sink.bytes.append(contentsOf: $0) }
        return (sink.bytes, outcome)
    }

    /// A checkpoint as `--save-state` writes it (the type is not `Equatable`), or nil.
    static func json(_ checkpoint: AltitudeFilterCheckpoint?) -> Data? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return checkpoint.flatMap { try? encoder.encode($0) }
    }

    final class Sink: @unchecked Sendable {
        // Appended to by one pipeline task at a time.
        var bytes: [UInt8] = []
    }

    /// Jobs 100 is above `maximumThreads`: 64 threads, 128 groups, most with no rows in a chunk.
    @Test("a clean input streams to the table path's bytes and summaries, for any jobs and chunk size",
          arguments: 0..<16)
    func cleanInputMatchesTablePath(seed: Int) throws {
        let tracks = [1, 2, 3, 8][seed % 4]
        let data = Data(Self.cleanCSV(seed: UInt64(seed), rows: 30 + 37 * seed, tracks: tracks).utf8)
        for format in [OutputFormat.csv, .ndjson] {
            let expected = try Self.tablePath(data, format: format, options: ReadOptions())
            for (jobs, chunkBytes) in [(1, 1), (1, 1 << 16), (2, 1), (2, 97), (2, 1 << 16), (3, 250), (100, 400)] {
                let (bytes, outcome) = Self.streamed(data, format: format, options: ReadOptions(), jobs: jobs, chunkBytes: chunkBytes)
                let context = "seed \(seed), \(format), jobs \(jobs), chunk \(chunkBytes) bytes"
                let got = try #require(outcome, "streaming refused a clean input: \(context)")
                #expect(bytes == expected.bytes, "\(context)")
                let rowCount = try CSVReader.read(data, file: "s.csv").rows.count
                #expect(got.rowCount == rowCount, "\(context)")
                let rejected = expected.result.rows.filter { if case .rejected = $0.status { true } else { false } }.count
                #expect(got.rejectedCount == rejected, "\(context)")
                #expect(got.tracks.map(\.name) == expected.result.tracks.map(\.name), "\(context)")
                #expect(got.tracks.map(\.rows) == expected.result.tracks.map(\.rows), "\(context)")
                #expect(got.tracks.map(\.fixes) == expected.result.tracks.map(\.fixes), "\(context)")
                #expect(got.tracks.map(\.final) == expected.result.tracks.map(\.final), "\(context)")
                #expect(got.tracks.map { Self.json($0.checkpoint) } == expected.result.tracks.map { Self.json($0.checkpoint) },
                        "\(context)")
            }
        }
    }

    @Test("an input with problems streams nothing usable: the caller falls back to the table path", arguments: 0..<12)
    func messyInputFallsBack(seed: Int) {
        let data = Data(CSVReaderChunkTests.messyCSV(seed: UInt64(seed), rows: 60 + seed * 11, isoTime: seed % 3 == 0).utf8)
        for skipInvalid in [false, true] {
            let options = ReadOptions(skipInvalid: skipInvalid)
            for jobs in [1, 2] {
                let (bytes, outcome) = Self.streamed(data, format: .csv, options: options, jobs: jobs, chunkBytes: 64)
                // Either the streaming path gave up, or (a problem-free draw) it gave the table path's bytes.
                if outcome != nil {
                    let expected = try? Self.tablePath(data, format: .csv, options: options)
                    #expect(bytes == expected?.bytes, "seed \(seed), jobs \(jobs), skipInvalid \(skipInvalid)")
                }
            }
        }
    }

    @Test("a row the reader skips, or a header error, makes the streaming path give up")
    func givesUpOnProblems() {
        let skipped = Data("t,pressure_hpa\n0,1000\n1,abc\n2,1000\n".utf8)
        #expect(Self.streamed(skipped, format: .csv, options: ReadOptions(skipInvalid: true), jobs: 1, chunkBytes: 1).outcome == nil)
        #expect(Self.streamed(skipped, format: .csv, options: ReadOptions(), jobs: 2, chunkBytes: 1).outcome == nil)
        let noHeader = Data("".utf8)
        #expect(Self.streamed(noHeader, format: .csv, options: ReadOptions(), jobs: 1, chunkBytes: 1).outcome == nil)
        let gpx = Data("t,pressure_hpa\n0,1000\n".utf8)
        #expect(Self.streamed(gpx, format: .gpx, options: ReadOptions(), jobs: 1, chunkBytes: 1).outcome == nil)
    }

    @Test("an input with a header and no rows streams the table path's header and one empty track")
    func headerOnly() throws {
        let data = Data("t,pressure_hpa,gps_alt_m\n".utf8)
        let expected = try Self.tablePath(data, format: .csv, options: ReadOptions())
        let (bytes, outcome) = Self.streamed(data, format: .csv, options: ReadOptions(), jobs: 2, chunkBytes: 1)
        let got = try #require(outcome)
        #expect(bytes == expected.bytes)
        #expect(got.rowCount == 0)
        #expect(got.tracks.map(\.name) == expected.result.tracks.map(\.name))
    }

    @Test("a resumed stream continues the checkpoint's filter exactly as the table path does")
    func resumeMatchesTablePath() throws {
        let whole = Self.cleanCSV(seed: 5, rows: 200, tracks: 1)
        let lines = whole.split(separator: "\n", omittingEmptySubsequences: false)
        let header = String(lines[0])
        let first = Data((lines[0...100].joined(separator: "\n") + "\n").utf8)
        let second = Data((header + "\n" + lines[101...].joined(separator: "\n")).utf8)
        let checkpoint = try #require(try Self.tablePath(first, format: .csv, options: ReadOptions()).result.tracks.first?.checkpoint)
        let expected = try Self.tablePath(second, format: .csv, options: ReadOptions(), resume: checkpoint)
        let (bytes, outcome) = Self.streamed(second, format: .csv, options: ReadOptions(), jobs: 2, chunkBytes: 300,
                                             resume: checkpoint)
        #expect(bytes == expected.bytes)
        #expect(Self.json(outcome?.tracks.first?.checkpoint) == Self.json(expected.result.tracks.first?.checkpoint))
    }
}
