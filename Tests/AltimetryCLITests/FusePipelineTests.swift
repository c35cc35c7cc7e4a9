import Altimetry
import Foundation
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

/// `FusePipeline` on messy multi-track inputs: whatever the chunk size and the number of threads, each row gets
/// what its track's filter gives it on its own, in input order, and the skipped rows are reported in input order.
@Suite("FusePipeline")
struct FusePipelineTests {
    /// Runs the pipeline on `text` (CSV) and returns the output, the stderr lines and the outcome or error.
    static func run(
        _ text: String, chunkBytes: Int, jobs: Int, skipInvalid: Bool,
        format: OutputFormat = .csv
    ) throws -> (out: String, err: [String], error: InputError?) {
        let captured = CapturingConsole()
        let reader = try CSVReader(
            InputFile(bytes: Data(text.utf8), name: "m.csv"), options: ReadOptions(skipInvalid: skipInvalid))
        var pipeline = FusePipeline(parameters: AltitudeModelParameters())
        pipeline.skipInvalid = skipInvalid
        pipeline.chunkBytes = chunkBytes
        pipeline.jobs = jobs
        pipeline.format = format
        let sink = try OutputSink(path: nil, console: captured.console)
        var failure: InputError?
        do { _ = try pipeline.run(reader, to: sink, console: captured.console) } catch { failure = error }
        return (captured.standardOutput, captured.standardError.split(separator: "\n").map(String.init), failure)
    }

    @Test(
        "GIVEN messy tracks WHEN fused in chunks of any size on 1 to 3 threads THEN the output is each track's own filter's, in input order",
        arguments: 0..<6)
    func independentOfChunksAndThreads(seed: Int) throws {
        let text = CSVReaderChunkTests.messyCSV(seed: UInt64(seed), rows: 150 + seed * 37, isoTime: seed % 3 == 0)
        // The reference: the whole table read at once, each track fused on its own by its own TrackFusion.
        let table = try CSVReader.read(Data(text.utf8), file: "m.csv", options: ReadOptions(skipInvalid: true))
        let expected = try fuseRows(table, skipInvalid: true)
        var first: (out: String, err: [String], error: InputError?)?
        for (chunkBytes, jobs) in [(1 << 16, 1), (1, 1), (37, 2), (200, 3), (1 << 16, 3)] {
            let run = try Self.run(text, chunkBytes: chunkBytes, jobs: jobs, skipInvalid: true)
            #expect(run.error == nil, "seed \(seed): \(String(describing: run.error))")
            let lines = run.out.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().dropLast()
            try #require(lines.count == expected.count, "seed \(seed), chunks of \(chunkBytes), \(jobs) jobs")
            for (line, (estimate, status)) in zip(lines, expected) {
                let cells = line.split(separator: ",", omittingEmptySubsequences: false)
                var statusCell: [UInt8] = []
                FusedLineFormatter.appendCSVText(status.text, to: &statusCell)
                #expect(line.hasSuffix("," + String(decoding: statusCell, as: UTF8.self)), "seed \(seed): \(line)")
                let altitude = cells[table.timeTexts == nil ? 2 : 3]
                #expect(
                    String(altitude) == (estimate.map { Fixed.text($0.altitude, 3) } ?? ""), "seed \(seed): \(line)")
            }
            // The same bytes and the same reports, in the same order, every time.
            if let first {
                #expect(
                    run.out == first.out && run.err == first.err, "seed \(seed), chunks of \(chunkBytes), \(jobs) jobs")
            } else {
                first = run
                let skipped = run.err.filter { $0.hasPrefix("skipped: ") }
                #expect(skipped.count == table.skipped.count)
                let lineNumbers = skipped.compactMap { Int($0.split(separator: ":")[2]) }
                #expect(lineNumbers == lineNumbers.sorted(), "seed \(seed): skipped rows in input order")
            }
        }
    }

    @Test(
        "Without --skip-invalid the rows before the first bad row are written, on any chunk size and thread count",
        arguments: 0..<6)
    func stopsAfterTheRowsBefore(seed: Int) throws {
        let text = CSVReaderChunkTests.messyCSV(seed: UInt64(seed), rows: 150 + seed * 37, isoTime: false)
        let reference = Result { () throws(InputError) in try CSVReader.read(Data(text.utf8), file: "m.csv") }
        guard case .failure(let firstError) = reference else { return }
        let table = try CSVReader.read(Data(text.utf8), file: "m.csv", options: ReadOptions(skipInvalid: true))
        let before = table.rows.prefix { $0.line < (firstError.line ?? .max) }.count
        for (chunkBytes, jobs) in [(1 << 16, 1), (1, 1), (37, 2), (200, 3)] {
            let run = try Self.run(text, chunkBytes: chunkBytes, jobs: jobs, skipInvalid: false)
            #expect(run.error == firstError, "seed \(seed), chunks of \(chunkBytes), \(jobs) jobs")
            #expect(
                run.out.split(separator: "\n").count == before + 1,
                "seed \(seed), chunks of \(chunkBytes), \(jobs) jobs")
        }
    }
}
