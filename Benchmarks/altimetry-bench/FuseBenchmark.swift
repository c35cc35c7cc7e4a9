import Altimetry
import AltimetryCLI
import AltimetryIO
import Dispatch
import Foundation
import Randomness

/// `altimetry-bench fuse [--rows N] [--samples K]`: `altimetry fuse` end to end (read, filter, write) on generated
/// CSV and NDJSON inputs.
///
/// The pipeline's figures run the fixed model (`--adapt off`); one more configuration runs the command's default, the
/// adaptive bank, on the single-track CSV, and its time over the fixed model's is printed.
///
/// Writes a single-track file and a file of 8 interleaved tracks, each of N rows (default 1,000,000: a pressure
/// every row at 2 Hz, a GPS fix every other row), as CSV and as NDJSON, to a temporary directory, and runs the
/// command in-process with `--jobs 1` and `--jobs 2` (output CSV to a file, atomically, as a user would), in K
/// rounds (default 5) after a warm-up round, each round running every configuration in turn; prints the median
/// rows per second with the fastest and slowest sample, the medians of the rounds' 2-job speed-ups and of the
/// NDJSON-to-CSV time ratio, and, for scale, what two independent 1-job runs at once give over one (the most two
/// threads can get on this machine). Also times, once each, the CSV and NDJSON readers alone.
///
/// `--write-inputs DIR` writes the four inputs (`single.csv`, `multi.csv`, `single.ndjson`, `multi.ndjson`) to DIR
/// and stops, for profiling one run of `altimetry fuse` on them (Docs/cli.md).
enum FuseBenchmark {
    static func run(arguments: [String]) -> Int32 {
        var rows = 1_000_000
        if let i = arguments.firstIndex(of: "--rows"), i + 1 < arguments.count, let n = Int(arguments[i + 1]), n > 0 {
            rows = n
        }
        var samples = 5
        if let i = arguments.firstIndex(of: "--samples"), i + 1 < arguments.count, let n = Int(arguments[i + 1]), n > 0
        {
            samples = n
        }
        var keepsInputs = false
        var dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "altimetry-bench-fuse-\(UUID().uuidString)")
        if let i = arguments.firstIndex(of: "--write-inputs"), i + 1 < arguments.count {
            dir = URL(fileURLWithPath: arguments[i + 1])
            keepsInputs = true
        }
        do { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) } catch {
            print("cannot create \(dir.path): \(error)")
            return 73
        }
        defer { if !keepsInputs { try? FileManager.default.removeItem(at: dir) } }
        let single = dir.appendingPathComponent("single.csv").path
        let multi = dir.appendingPathComponent("multi.csv").path
        let singleJSON = dir.appendingPathComponent("single.ndjson").path
        let multiJSON = dir.appendingPathComponent("multi.ndjson").path
        guard FileManager.default.createFile(atPath: single, contents: Data(csv(rows: rows, tracks: 1))),
            FileManager.default.createFile(atPath: multi, contents: Data(csv(rows: rows, tracks: 8))),
            FileManager.default.createFile(atPath: singleJSON, contents: Data(ndjson(rows: rows, tracks: 1))),
            FileManager.default.createFile(atPath: multiJSON, contents: Data(ndjson(rows: rows, tracks: 8)))
        else {
            print("error: cannot write the benchmark's input files in \(dir.path)")
            return 73
        }
        if keepsInputs {
            print("wrote single.csv, multi.csv, single.ndjson and multi.ndjson (\(rows) rows each) to \(dir.path)")
            return 0
        }
        let out = dir.appendingPathComponent("out.csv").path
        let console = Console(write: { _ in }, writeError: { _ in })

        // The readers alone, once each: every row into one table.
        for (label, path) in [("read only, CSV:   ", single), ("read only, NDJSON:", singleJSON)] {
            let start = Date()
            let table = try? InputLoader.table(path, options: ReadOptions())
            let seconds = Date().timeIntervalSince(start)
            print("\(label) \(format(Double(table?.rows.count ?? 0) / seconds)) rows/s (\(format(seconds, 3)) s)")
        }
        // Rounds of every configuration in turn, so that a drift of the machine's speed (common on shared
        // machines) falls on all of them alike rather than on whichever ran last; round 0 warms up and is not counted.
        // The pipeline with the fixed model (`--adapt off`), then the command's default (the adaptive bank) once.
        let fixed = ["--adapt", "off"]
        let configurations = [
            ("fuse CSV single track, 1 job:    ", single, 1, fixed),
            ("fuse CSV single track, 2 jobs:   ", single, 2, fixed),
            ("fuse CSV 8 tracks, 1 job:        ", multi, 1, fixed),
            ("fuse CSV 8 tracks, 2 jobs:       ", multi, 2, fixed),
            ("fuse NDJSON single track, 1 job: ", singleJSON, 1, fixed),
            ("fuse NDJSON 8 tracks, 1 job:     ", multiJSON, 1, fixed),
            ("fuse NDJSON 8 tracks, 2 jobs:    ", multiJSON, 2, fixed),
            ("fuse CSV single track, adaptive:  ", single, 1, []),
        ]
        var seconds = Array(repeating: [Double](), count: configurations.count)
        var ceiling: [Double] = []
        for round in 0...samples {
            for (k, (label, path, jobs, model)) in configurations.enumerated() {
                let start = Date()
                let code = AltimetryCommandLine.run(
                    arguments: ["fuse", path, "--out", out, "--jobs", "\(jobs)"] + model, console: console)
                guard code == .success else {
                    print("\(label) failed with exit code \(code.rawValue)")
                    return 70
                }
                if round > 0 { seconds[k].append(Date().timeIntervalSince(start)) }
            }
            // What the machine gives two independent jobs: two single-job runs of the 8-track file at once.
            let start = Date()
            let codes = SharedCodes()
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                codes.set(
                    i,
                    AltimetryCommandLine.run(
                        arguments: ["fuse", multi, "--out", out + ".\(i)", "--jobs", "1"] + fixed,
                        console: console))
            }
            guard codes.allSucceeded else {
                print("two independent runs failed")
                return 70
            }
            if round > 0 { ceiling.append(Date().timeIntervalSince(start)) }
        }
        for (k, (label, _, _, _)) in configurations.enumerated() {
            let sorted = seconds[k].sorted()
            let median = sorted[sorted.count / 2]
            print(
                "\(label) \(format(Double(rows) / median)) rows/s (median of \(samples): \(format(median, 3)) s; "
                    + "fastest \(format(sorted[0], 3)) s, slowest \(format(sorted[sorted.count - 1], 3)) s)")
        }
        // The ratios of each round's 1-job and 2-job times, then their median: robust to the machine's drift.
        func medianRatio(_ a: [Double], _ b: [Double]) -> String {
            let ratios = zip(a, b).map { $0 / $1 }.sorted()
            return
                "median \(format(ratios[ratios.count / 2], 2))x (rounds: \(ratios.map { format($0, 2) }.joined(separator: ", ")))"
        }
        print("speed-up of 2 jobs over 1 on 8 tracks, CSV: \(medianRatio(seconds[2], seconds[3]))")
        print("speed-up of 2 jobs over 1 on 8 tracks, NDJSON: \(medianRatio(seconds[5], seconds[6]))")
        print("NDJSON over CSV, single track, 1 job (time ratio): \(medianRatio(seconds[4], seconds[0]))")
        print("adaptive over fixed, CSV single track, 1 job (time ratio): \(medianRatio(seconds[7], seconds[0]))")
        let independent = zip(seconds[2], ceiling).map { 2 * $0 / $1 }.sorted()
        print(
            "two independent 1-job runs at once, throughput over one: median \(format(independent[independent.count / 2], 2))x "
                + "(what this machine allows two threads)")
        return 0
    }

    /// Exit codes of concurrent runs, set from several threads.
    private final class SharedCodes: @unchecked Sendable {
        private let lock = NSLock()
        private var codes: [Int: ExitCode] = [:]
        func set(_ i: Int, _ code: ExitCode) { lock.withLock { codes[i] = code } }
        var allSucceeded: Bool { lock.withLock { codes.count == 2 && codes.values.allSatisfy { $0 == .success } } }
    }

    /// A CSV of `rows` rows over `tracks` interleaved tracks: gentle climbs and descents with GPS noise,
    /// from a fixed linear congruential sequence (the same file every run).
    static func csv(rows: Int, tracks: Int) -> [UInt8] {
        var text =
            tracks > 1 ? "track_id,t,pressure_hpa,gps_alt_m,gps_vacc_m\n" : "t,pressure_hpa,gps_alt_m,gps_vacc_m\n"
        var generator = SeededGenerator(seed: 0x9E37_79B9_7F4A_7C15)
        func noise() -> Double { generator.uniform() - 0.5 }
        var bytes: [UInt8] = Array(text.utf8)
        bytes.reserveCapacity(rows * 40)
        text = ""
        for i in 0..<rows {
            let track = i % tracks
            let k = i / tracks
            let t = Double(k) * 0.5
            // Up 600 m and down again every 100 min at 0.2 m/s (a sawtooth's 600 m drop in half a second would be a
            // barometer step to the fault monitor, after which every fix is refused: not a representative track).
            let phase = t.truncatingRemainder(dividingBy: 6_000)
            let altitude = 300 + 0.2 * min(phase, 6_000 - phase) + 5 * sin(t / 100)
            let pressure = 1013.25 * pow(1 - 2.25577e-5 * altitude, 5.25588) + 0.01 * noise()
            var line = tracks > 1 ? "walk-\(track)," : ""
            line += String(format: "%.1f,%.4f,", t, pressure)
            if k % 2 == 0 { line += String(format: "%.2f,4.5", altitude + 3 * noise()) } else { line += "," }
            line += "\n"
            bytes.append(contentsOf: line.utf8)
        }
        return bytes
    }

    /// The same rows as `csv(rows:tracks:)`, as NDJSON objects.
    static func ndjson(rows: Int, tracks: Int) -> [UInt8] {
        let text = String(decoding: csv(rows: rows, tracks: tracks), as: UTF8.self)
        var lines = text.split(separator: "\n")
        let names = lines.removeFirst().split(separator: ",").map(String.init)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(rows * 80)
        for line in lines {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            let fields = zip(names, cells).filter { !$0.1.isEmpty }.map { name, cell in
                name == "track_id" ? "\"\(name)\":\"\(cell)\"" : "\"\(name)\":\(cell)"
            }
            bytes.append(contentsOf: ("{" + fields.joined(separator: ",") + "}\n").utf8)
        }
        return bytes
    }

    static func format(_ value: Double, _ decimals: Int = 0) -> String { String(format: "%.\(decimals)f", value) }
}
