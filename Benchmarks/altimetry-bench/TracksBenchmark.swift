import Altimetry
import Foundation
import Simulation

/// `altimetry-bench tracks [--tracks N] [--rows R] [--adapt on|off]`: what many live tracks in one process cost, with
/// the fixed model (the default here) or the adaptive bank (`--adapt on`, `AltitudeModelParameters.adaptive`).
///
/// N tracks (default 2,000) each receive the first R rows (default 600: ten minutes at 1 Hz) of a simulated
/// hike, interleaved (row 1 of every track, then row 2, ...), through one `AltitudeTracks`. It prints the
/// resident memory the tracks add per track (from /proc/self/statm, before and after; the readings are built
/// beforehand, so only the filters count), the rows per second of the interleaved run, of the same rows in
/// requests of 60 rows per track (`process(_:track:)` with an array, as a server receives them), and of each track
/// alone, the JSON checkpoint's bytes per track, and the time to encode and to restore the whole set. Times are
/// medians of 3 samples after a warm-up.
enum TracksBenchmark {
    nonisolated(unsafe) static var sink = 0.0

    static func run(arguments: [String]) -> Int32 {
        var tracks = 2_000
        var rows = 600
        var parameters = AltitudeModelParameters()
        var index = 0
        while index < arguments.count {
            let value = index + 1 < arguments.count ? Int(arguments[index + 1]) : nil
            switch arguments[index] {
            case "--tracks" where value.map { $0 > 0 } == true: tracks = value ?? tracks
            case "--rows" where value.map { $0 > 0 } == true: rows = value ?? rows
            case "--adapt" where index + 1 < arguments.count && ["on", "off"].contains(arguments[index + 1]):
                parameters.learnsReceiver = arguments[index + 1] == "on"
            case "-h", "--help":
                print("USAGE: altimetry-bench tracks [--tracks N] [--rows R] [--adapt on|off]")
                return 0
            default:
                FileHandle.standardError.write(Data("altimetry-bench tracks: bad option '\(arguments[index])'\n".utf8))
                return 64
            }
            index += 2
        }
        do {
            try measure(tracks: tracks, rows: rows, parameters: parameters)
            return 0
        } catch {
            FileHandle.standardError.write(Data("altimetry-bench tracks: \(error)\n".utf8))
            return 70
        }
    }

    static func measure(tracks: Int, rows: Int, parameters: AltitudeModelParameters) throws {
        let recording = try Scenario.named(.hike, seed: 1, duration: Double(rows) * 2).simulate()
        let source = SimulatedSource(scenario: recording.scenario)
        let readings = recording.readings.prefix(rows).map(source.reading)
        let ids = (0..<tracks).map { "track-\($0)" }

        // Resident memory added by the tracks' filters.
        let before = residentBytes()
        var set = try AltitudeTracks(parameters: parameters)
        for reading in readings {
            for id in ids { sink += try set.process(reading, track: id).altitude }
        }
        let perTrack = Double(residentBytes() - before) / Double(tracks)

        // Interleaved over many tracks against one track alone, same rows.
        let interleaved = try median(samples: 3) {
            var set = try AltitudeTracks(parameters: parameters)
            for reading in readings {
                for id in ids { sink += try set.process(reading, track: id).altitude }
            }
        }
        let requests = try median(samples: 3) {
            var set = try AltitudeTracks(parameters: parameters)
            for start in stride(from: 0, to: readings.count, by: 60) {
                let batch = Array(readings[start..<min(start + 60, readings.count)])
                for id in ids { sink += try set.process(batch, track: id).last?.altitude ?? 0 }
            }
        }
        let alone = try median(samples: 3) {
            for _ in 0..<tracks {
                var filter = try AltitudeFilter(parameters: parameters)
                for reading in readings { sink += try filter.process(reading).altitude }
            }
        }

        // The checkpoint: bytes per track, encoding and restoring the whole set.
        let encoder = JSONEncoder()
        let data = try encoder.encode(set.checkpoint)
        let encode = try median(samples: 3) { sink += Double(try encoder.encode(set.checkpoint).count) }
        let decoder = JSONDecoder()
        let restore = try median(samples: 3) {
            let restored = try AltitudeTracks(restoring: decoder.decode(AltitudeTracksCheckpoint.self, from: data))
            sink += Double(restored.filters.count)
        }
        let total = Double(tracks * readings.count)
        print("tracks: \(tracks) tracks x \(readings.count) rows of a simulated hike, interleaved")
        print(String(format: "  resident memory per live track: %.0f bytes", perTrack))
        print(
            String(format: "  row by row, interleaved over %d tracks: %.2f M rows/s", tracks, total / interleaved / 1e6)
        )
        print(String(format: "  in requests of 60 rows per track: %.2f M rows/s", total / requests / 1e6))
        print(String(format: "  each track alone: %.2f M rows/s", total / alone / 1e6))
        print(
            String(
                format: "  JSON checkpoint: %.0f bytes per track (%.1f MB in all)",
                Double(data.count) / Double(tracks), Double(data.count) / 1e6))
        print(
            String(
                format: "  encode the whole set: %.1f ms (%.1f us per track); restore: %.1f ms (%.1f us per track)",
                encode * 1e3, encode * 1e6 / Double(tracks), restore * 1e3, restore * 1e6 / Double(tracks)))
        print(String(format: "  (sink %.0f)", sink.truncatingRemainder(dividingBy: 1000)))
    }

    /// The median of `samples` timings of `body`, in seconds, after one warm-up run.
    static func median(samples: Int, _ body: () throws -> Void) rethrows -> Double {
        try body()
        var times: [Double] = []
        for _ in 0..<samples {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return times.sorted()[samples / 2]
    }

    /// The process's resident set in bytes (Linux /proc/self/statm; 0 where it is absent).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
