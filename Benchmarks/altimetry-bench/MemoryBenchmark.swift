import Foundation
import Randomness

/// `altimetry-bench memory [--days 1,7] [--binary PATH] [--baseline PATH] [--modes stdout,out,gpx,smooth,summary]
/// [--adapt on|off]`: the peak resident memory of `altimetry fuse --adapt off` (with `--adapt on`, the adaptive bank) on
/// recordings of one day and one week (10 Hz pressure, 1 Hz GPS: 950,400 rows a day, 6.65 M a week), as a child
/// process.
///
/// Writes each recording as a CSV file (`t,pressure_hpa,gps_alt_m,gps_vacc_m`; a GPS fix on a row of its own,
/// half-way between two pressures) to a temporary directory, then runs the release `altimetry` next to this
/// benchmark's executable (or `--binary`) in four ways: CSV to standard output (a pipe read and dropped by this
/// process), CSV to a file with `--out`, GPX to standard output, `--smooth` (CSV) to standard output, and with `summary`
/// (not by default) `--smooth --summary FILE`, which measures each track's ascent too. For each it prints the peak resident set
/// size the kernel reports (`ru_maxrss` of `wait4`), the bytes per row above the shortest run of the same mode,
/// the rows per second (wall clock: on a shared machine, compare rows within one run) and the CPU seconds (user
/// and system, `ru_utime` + `ru_stime`). With `--baseline`, another build runs each case right after this one, on
/// the same input, and the line after gives its figures and the ratio of this build's CPU seconds to its.
enum MemoryBenchmark {
    static func run(arguments: [String]) -> Int32 {
        var days = [1.0, 7.0]
        if let i = arguments.firstIndex(of: "--days"), i + 1 < arguments.count {
            days = arguments[i + 1].split(separator: ",").compactMap { Double($0) }.filter { $0 > 0 }
        }
        var adapt = false
        if let i = arguments.firstIndex(of: "--adapt"), i + 1 < arguments.count { adapt = arguments[i + 1] == "on" }
        var modes = ["stdout", "out", "gpx", "smooth"]
        if let i = arguments.firstIndex(of: "--modes"), i + 1 < arguments.count {
            modes = arguments[i + 1].split(separator: ",").map(String.init)
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var binary = executable.deletingLastPathComponent().appendingPathComponent("altimetry").path
        if let i = arguments.firstIndex(of: "--binary"), i + 1 < arguments.count { binary = arguments[i + 1] }
        var binaries = [("this", binary)]
        if let i = arguments.firstIndex(of: "--baseline"), i + 1 < arguments.count {
            binaries.append(("baseline", arguments[i + 1]))
        }
        for (_, path) in binaries where !FileManager.default.isExecutableFile(atPath: path) {
            print("error: no altimetry executable at \(path); build it with swift build -c release, or pass --binary")
            return 66
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "altimetry-bench-memory-\(UUID().uuidString)")
        do { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) } catch {
            print("cannot create \(dir.path): \(error)")
            return 73
        }
        defer { try? FileManager.default.removeItem(at: dir) }
        print(
            "altimetry fuse, peak resident memory (ru_maxrss) and speed; "
                + binaries.map { "\($0): \($1)" }.joined(separator: ", "))
        print(
            "days  rows        mode     build     peak RSS (MB)  bytes/row above the first  rows/s     CPU s   CPU ratio"
        )
        var shortest: [String: (rows: Int, bytes: Int)] = [:]
        for d in days.sorted() {
            let input = dir.appendingPathComponent("days-\(d).csv").path
            let rows: Int
            do { rows = try writeRecording(days: d, to: input) } catch {
                print("error: cannot write \(input): \(error)")
                return 73
            }
            for mode in modes {
                // The fixed model unless `--adapt on`: the bank's 13 to 26 filters take the same memory at any length,
                // and ten times the CPU time.
                var arguments = ["fuse", input, "--adapt", adapt ? "on" : "off"]
                switch mode {
                case "out": arguments += ["--out", dir.appendingPathComponent("out.csv").path]
                case "gpx": arguments += ["--format", "gpx"]
                case "smooth": arguments += ["--smooth"]
                case "summary": arguments += ["--smooth", "--summary", dir.appendingPathComponent("summary.json").path]
                default: break
                }
                var cpu: [Double] = []
                for (build, path) in binaries {
                    let start = Date()
                    guard let measured = peakResidentBytes(path, arguments) else {
                        print("error: \(path) \(arguments.joined(separator: " ")) failed")
                        return 70
                    }
                    let (peak, seconds) = measured
                    let wall = Date().timeIntervalSince(start)
                    cpu.append(seconds)
                    let key = mode + build
                    var perRow = "-"
                    if let base = shortest[key], rows > base.rows {
                        perRow = String(format: "%.0f", Double(peak - base.bytes) / Double(rows - base.rows))
                    } else if shortest[key] == nil {
                        shortest[key] = (rows, peak)
                    }
                    let ratio = cpu.count > 1 ? String(format: "%.2f", cpu[0] / seconds) : "-"
                    let line = String(
                        format: "%-5g %-11d %@ %@ %-14.0f %@ %-10.0f %-7.1f %@", d, rows,
                        mode.padding(toLength: 8, withPad: " ", startingAt: 0),
                        build.padding(toLength: 9, withPad: " ", startingAt: 0), Double(peak) / 1_048_576,
                        perRow.padding(toLength: 26, withPad: " ", startingAt: 0), Double(rows) / wall, seconds, ratio)
                    print(line)
                }
                try? FileManager.default.removeItem(atPath: dir.appendingPathComponent("out.csv").path)
            }
            try? FileManager.default.removeItem(atPath: input)
        }
        return 0
    }

    /// Writes `days` of 10 Hz pressure and 1 Hz GPS (a walk up and down a hill, slow weather, noise) as CSV;
    /// returns the number of rows.
    static func writeRecording(days: Double, to path: String) throws -> Int {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw CocoaError(.fileWriteUnknown)
        }
        defer { try? handle.close() }
        var generator = SeededGenerator(seed: 0x5EED_0F_DA75)
        func noise() -> Double { generator.uniform() - 0.5 }
        var buffer: [UInt8] = Array("t,pressure_hpa,gps_alt_m,gps_vacc_m\n".utf8)
        buffer.reserveCapacity(1 << 20)
        var rows = 0
        let tenths = Int(days * 864_000)
        for k in 0..<tenths {
            let t = Double(k) / 10
            let altitude = 400 + 300 * sin(t / 3_000) + 2 * sin(t / 40)
            let qnh = 1013.25 + 6 * sin(t / 200_000)
            let pressure = qnh * pow(1 - 2.25577e-5 * altitude, 5.25588) + 0.012 * noise()
            buffer.append(contentsOf: String(format: "%.1f,%.4f,,\n", t, pressure).utf8)
            rows += 1
            if k % 10 == 5 {
                buffer.append(contentsOf: String(format: "%.2f,,%.2f,4.0\n", t, altitude + 6 * noise()).utf8)
                rows += 1
            }
            if buffer.count >= 1 << 20 {
                try handle.write(contentsOf: buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        try handle.write(contentsOf: buffer)
        return rows
    }

    /// Runs `binary` with `arguments`, its standard output read and dropped, its standard error dropped; returns
    /// its peak resident set size in bytes and the CPU seconds it used, or nil if it could not run or failed.
    static func peakResidentBytes(_ binary: String, _ arguments: [String]) -> (bytes: Int, cpuSeconds: Double)? {
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], STDOUT_FILENO)
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        let argv = ([binary] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, binary, &actions, nil, argv, environ) == 0 else {
            close(pipe[0])
            close(pipe[1])
            return nil
        }
        close(pipe[1])
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while chunk.withUnsafeMutableBytes({ read(pipe[0], $0.baseAddress, $0.count) }) > 0 {}
        close(pipe[0])
        var status: Int32 = 0
        var usage = rusage()
        guard wait4(pid, &status, 0, &usage) == pid, status == 0 else { return nil }
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return (usage.ru_maxrss * 1_024, seconds(usage.ru_utime) + seconds(usage.ru_stime))
    }
}
