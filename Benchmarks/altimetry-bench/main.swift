import Foundation

// altimetry-bench <benchmark> [options]: one subcommand per benchmark.
let arguments = Array(CommandLine.arguments.dropFirst())
let usage = """
    USAGE: altimetry-bench <benchmark> [--json]

    BENCHMARKS:
      engine    Kalman filter predict + scalar update, smoother step, allocations per step
      ascent    total ascent against the simulated truth: fused with sigma, GPS alone, barometer [--seeds N] [--cases LIST] [--params FILE] [--json]
      fuse      altimetry fuse end to end on a 1,000,000-row CSV: one track, 8 tracks on 1 and 2 jobs [--rows N] [--samples K] [--write-inputs DIR]
      real      the fixed and the adaptive GPS error model on ../shared/data/real [--data DIR] [--params FILE]
      trace     the filter's inner state through one recording, a line a minute [--every S] [--adapt on|off]
      adaptive  the adaptive GPS error model against the fixed one on simulated receivers and the catalogue [--seeds N] [--hours H] [--scenarios static,hike] [--reports right,optimistic,pessimistic] [--catalogue-seeds M] [--params FILE] [--oracle] [--weather-walk Q]
      identify  identification on simulated static logs, 50 seeds per case [--seeds N] [--hours 2,8] [--sigmas 2,10,30] [--taus 30,300,3600] [--jobs J]
      inputs    the readers: CSV with t and with ISO times, GPX, TCX, FIT, against the t CSV [--rows N] [--samples K] [--only NAME]
      tracks    many live tracks in one process: memory, rows/s and checkpoint bytes per track [--tracks N] [--rows R] [--adapt on|off]
      consistency  the default filter told the true receiver: coverage and NEES over a grid of receivers, weather, profiles and effects [--seeds N] [--effects none,hot,cold,front,faults] [--jobs J]
      memory    altimetry fuse --adapt off's peak resident memory at 1 and 7 days of 10 Hz pressure, 1 Hz GPS [--days 1,7] [--modes stdout,out,gpx,smooth,summary] [--binary PATH] [--baseline PATH] [--adapt on|off]
    """

switch arguments.first {
case "engine":
    exit(EngineBenchmark.run(arguments: Array(arguments.dropFirst())))
case "ascent":
    exit(AscentBenchmarkCommand.run(arguments: Array(arguments.dropFirst())))
case "fuse":
    exit(FuseBenchmark.run(arguments: Array(arguments.dropFirst())))
case "trace":
    exit(TraceBenchmark.run(arguments: Array(arguments.dropFirst())))
case "real":
    exit(RealRecordingBenchmark.run(arguments: Array(arguments.dropFirst())))
case "adaptive":
    exit(AdaptiveBenchmark.run(arguments: Array(arguments.dropFirst())))
case "identify":
    exit(IdentifyBenchmark.run(arguments: Array(arguments.dropFirst())))
case "inputs":
    exit(InputsBenchmark.run(arguments: Array(arguments.dropFirst())))
case "tracks":
    exit(TracksBenchmark.run(arguments: Array(arguments.dropFirst())))
case "consistency":
    exit(ConsistencyBenchmark.run(arguments: Array(arguments.dropFirst())))
case "memory":
    exit(MemoryBenchmark.run(arguments: Array(arguments.dropFirst())))
case "-h", "--help", "help":
    print(usage)
    exit(0)
default:
    FileHandle.standardError.write(
        Data("altimetry-bench: unknown or missing benchmark '\(arguments.first ?? "")'\n\(usage)\n".utf8))
    exit(64)  // EX_USAGE
}
