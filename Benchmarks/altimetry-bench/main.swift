import Foundation

// altimetry-bench <benchmark> [options]: one subcommand per benchmark.
let arguments = Array(CommandLine.arguments.dropFirst())
let usage = """
    USAGE: altimetry-bench <benchmark> [--json]

    BENCHMARKS:
      engine    Kalman filter predict + scalar update, smoother step, allocations per step
      ascent    total ascent against the simulated truth: fused with sigma, GPS alone, barometer [--seeds N] [--json]
      fuse      altimetry fuse end to end on a 1,000,000-row CSV: one track, 8 tracks on 1 and 2 jobs [--rows N] [--samples K]
    """

switch arguments.first {
case "engine":
    exit(EngineBenchmark.run(arguments: Array(arguments.dropFirst())))
case "ascent":
    exit(AscentBenchmarkCommand.run(arguments: Array(arguments.dropFirst())))
case "fuse":
    exit(FuseBenchmark.run(arguments: Array(arguments.dropFirst())))
case "-h", "--help", "help":
    print(usage)
    exit(0)
default:
    FileHandle.standardError.write(Data("altimetry-bench: unknown or missing benchmark '\(arguments.first ?? "")'\n\(usage)\n".utf8))
    exit(64) // EX_USAGE
}
