import Altimetry
import AltimetryCLI
import Dispatch
import Foundation
import Randomness

/// `altimetry-bench fuse [--rows N] [--samples K]`: `altimetry fuse` end to end (read, filter, write) on a
/// generated CSV.
///
/// Writes a single-track file and a file of 8 interleaved tracks, each of N rows (default 1,000,000: a pressure
/// every row at 2 Hz, a GPS fix every other row), to a temporary directory, and runs the command in-process
/// with `--jobs 1` and `--jobs 2` (output to a file, atomically, as a user would), in K rounds (default 5) after
/// a warm-up round, each round running every configuration in turn; prints the median rows per second with the
/// fastest and slowest sample, the median of the rounds' 2-job speed-ups, and, for scale, what two independent
/// 1-job runs at once give over one (the most two threads can get on this machine). Also times, once each, the
/// table path's parts: the reader alone (on 1 and 2 threads), the filter alone and the CSV writer alone.
enum FuseBenchmark {
    static func run(arguments: [String]) -> Int32 {
        var rows = 1_000_000
        if let i = arguments.firstIndex(of: "--rows"), i + 1 < arguments.count, let n = Int(arguments[i + 1]), n > 0 { rows = n }
        var samples = 5
        if let i = arguments.firstIndex(of: "--samples"), i + 1 < arguments.count, let n = Int(arguments[i + 1]), n > 0 {
            samples = n
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("altimetry-bench-fuse-\(UUID().uuidString)")
        do { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) } catch {
            print("cannot create \(dir.path): \(error)")
            return 73
        }
        defer { try? FileManager.default.removeItem(at: dir) }
        let single = dir.appendingPathComponent("single.csv").path
        let multi = dir.appendingPathComponent("multi.csv").path
        guard FileManager.default.createFile(atPath: single, contents: Data(csv(rows: rows, tracks: 1))),
              FileManager.default.createFile(atPath: multi, contents: Data(csv(rows: rows, tracks: 8))) else {
            print("error: cannot write the benchmark's input files in \(dir.path)")
            return 73
        }
        let out = dir.appendingPathComponent("out.csv").path
        let console = Console(write: { _ in }, writeError: { _ in })

        if let data = FileManager.default.contents(atPath: single) {
            let start = Date()
            let table = try? CSVReader.read(data, file: single)
            let seconds = Date().timeIntervalSince(start)
            print("read only, single track:      \(format(Double(table?.rows.count ?? 0) / seconds)) rows/s (\(format(seconds, 3)) s)")
            let start2 = Date()
            let table2 = try? CSVReader.read(data, file: single, jobs: 2)
            let seconds2 = Date().timeIntervalSince(start2)
            print("read only, 2 threads:         \(format(Double(table2?.rows.count ?? 0) / seconds2)) rows/s (\(format(seconds2, 3)) s)")
            if let table, let fuser = Optional(TrackFuser(parameters: .init(), jobs: 1)) {
                let start = Date()
                if let result = try? fuser.fuse(table) {
                    let fuseSeconds = Date().timeIntervalSince(start)
                    print("filter only, single track:    \(format(Double(rows) / fuseSeconds)) rows/s (\(format(fuseSeconds, 3)) s)")
                    let writeStart = Date()
                    let bytes = FusedTrackWriter(table: table, fused: result.rows).bytes(.csv)
                    let writeSeconds = Date().timeIntervalSince(writeStart)
                    print("CSV writing only:             \(format(Double(rows) / writeSeconds)) rows/s (\(format(writeSeconds, 3)) s, \(bytes.count) bytes)")
                }
            }
        }
        // Rounds of every configuration in turn, so that a drift of the machine's speed (common on shared
        // machines) falls on all of them alike rather than on whichever ran last; round 0 warms up and is not counted.
        let configurations = [("fuse single track, 1 job: ", single, 1), ("fuse single track, 2 jobs:", single, 2),
                              ("fuse 8 tracks, 1 job:      ", multi, 1), ("fuse 8 tracks, 2 jobs:     ", multi, 2)]
        var seconds = Array(repeating: [Double](), count: configurations.count)
        var ceiling: [Double] = []
        for round in 0...samples {
            for (k, (label, path, jobs)) in configurations.enumerated() {
                let start = Date()
                let code = AltimetryCommandLine.run(arguments: ["fuse", path, "--out", out, "--jobs", "\(jobs)"], console: console)
                guard code == .success else { print("\(label) failed with exit code \(code.rawValue)"); return 70 }
                if round > 0 { seconds[k].append(Date().timeIntervalSince(start)) }
            }
            // What the machine gives two independent jobs: two single-job runs of the 8-track file at once.
            let start = Date()
            let codes = SharedCodes()
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                codes.set(i, AltimetryCommandLine.run(arguments: ["fuse", multi, "--out", out + ".\(i)", "--jobs", "1"],
                                                      console: console))
            }
            guard codes.allSucceeded else { print("two independent runs failed"); return 70 }
            if round > 0 { ceiling.append(Date().timeIntervalSince(start)) }
        }
        for (k, (label, _, _)) in configurations.enumerated() {
            let sorted = seconds[k].sorted()
            let median = sorted[sorted.count / 2]
            print("\(label) \(format(Double(rows) / median)) rows/s (median of \(samples): \(format(median, 3)) s; "
                  + "fastest \(format(sorted[0], 3)) s, slowest \(format(sorted[sorted.count - 1], 3)) s)")
        }
        // The ratios of each round's 1-job and 2-job times, then their median: robust to the machine's drift.
        let ratios = zip(seconds[2], seconds[3]).map { $0 / $1 }.sorted()
        print("speed-up of 2 jobs over 1 on 8 tracks: median \(format(ratios[ratios.count / 2], 2))x "
              + "(rounds: \(ratios.map { format($0, 2) }.joined(separator: ", ")))")
        let independent = zip(seconds[2], ceiling).map { 2 * $0 / $1 }.sorted()
        print("two independent 1-job runs at once, throughput over one: median \(format(independent[independent.count / 2], 2))x "
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

    /// A CSV of `rows` rows over `tracks` interleaved tracks: a gentle climb with pressure waves and GPS noise,
    /// from a fixed linear congruential sequence (the same file every run).
    static func csv(rows: Int, tracks: Int) -> [UInt8] {
        var text = tracks > 1 ? "track_id,t,pressure_hpa,gps_alt_m,gps_vacc_m\n" : "t,pressure_hpa,gps_alt_m,gps_vacc_m\n"
        var generator = SeededGenerator(seed: 0x9E37_79B9_7F4A_7C15)
        func noise() -> Double { generator.uniform() - 0.5 }
        var bytes: [UInt8] = Array(text.utf8)
        bytes.reserveCapacity(rows * 40)
        text = ""
        for i in 0..<rows {
            let track = i % tracks
            let k = i / tracks
            let t = Double(k) * 0.5
            let altitude = 300 + 0.2 * t.truncatingRemainder(dividingBy: 3_000) + 5 * sin(t / 100)
            let pressure = 1013.25 * pow(1 - 2.25577e-5 * altitude, 5.25588) + 0.01 * noise()
            var line = tracks > 1 ? "walk-\(track)," : ""
            line += String(format: "%.1f,%.4f,", t, pressure)
            if k % 2 == 0 { line += String(format: "%.2f,4.5", altitude + 3 * noise()) } else { line += "," }
            line += "\n"
            bytes.append(contentsOf: line.utf8)
        }
        return bytes
    }

    static func format(_ value: Double, _ decimals: Int = 0) -> String { String(format: "%.\(decimals)f", value) }
}
