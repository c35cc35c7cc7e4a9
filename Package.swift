// swift-tools-version: 6.0
import PackageDescription

/// Release builds optimise across modules, so the generic filter is specialised for the altitude model and the
/// matrix accessors inline into it (measured: see Docs/engine.md).
let optimized: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

let package = Package(
    name: "Altimetry",
    products: [
        .library(
            name: "Altimetry",
            targets: ["LinearAlgebra", "Randomness", "Optimization", "StateEstimation", "Altimetry", "Simulation"]
        ),
        /// The file readers and the fuse pipeline, for a server that reads uploads and fuses them in-process.
        .library(name: "AltimetryIO", targets: ["AltimetryIO"]),
        .executable(name: "altimetry", targets: ["altimetry"]),
        /// The fuzz checks, for the libFuzzer driver in `Fuzz/` (a package of its own, built with the fuzzer's flags).
        .library(name: "FuzzTargets", targets: ["FuzzTargets"]),
    ],
    targets: [
        // MARK: - System libraries

        /// Reference LAPACK and BLAS from Debian's `liblapack-dev` and `libblas-dev`.
        .systemLibrary(
            name: "CLAPACK",
            pkgConfig: nil,
            providers: [.apt(["liblapack-dev", "libblas-dev"])]
        ),

        /// Removes registered temporary files when SIGINT, SIGTERM or SIGHUP ends the process (async-signal-safe, so C).
        .target(name: "CSignalCleanup"),

        // MARK: - Numerical foundations

        /// Column-major matrices and the only Swift wrapper over LAPACK and BLAS.
        .target(name: "LinearAlgebra", dependencies: ["CLAPACK"], swiftSettings: optimized),
        /// Portable seeded randomness: a generator, Gaussian draws, Gauss-Markov processes.
        .target(name: "Randomness"),
        /// Derivative-free minimisation (Nelder-Mead) and numerical Hessians, for maximum-likelihood fits.
        .target(name: "Optimization", dependencies: ["LinearAlgebra"], swiftSettings: optimized),

        // MARK: - Estimation

        /// The generic state-space engine: Kalman filter, gating, smoother, checkpoints. Knows nothing of altitude.
        .target(name: "StateEstimation", dependencies: ["LinearAlgebra"], swiftSettings: optimized),

        // MARK: - The altitude domain

        /// Atmosphere physics, GPS statistics, the altitude model, calibration, identification, floors, the naive baseline.
        .target(
            name: "Altimetry", dependencies: ["LinearAlgebra", "StateEstimation", "Randomness", "Optimization"],
            swiftSettings: optimized),
        /// Scenario simulator: true profiles, weather, barometer and GPS with their errors; scoring against a truth.
        .target(name: "Simulation", dependencies: ["Altimetry", "StateEstimation", "Randomness"]),

        // MARK: - Files

        /// The file readers (CSV, NDJSON, GPX, TCX, FIT, IGC) and the fuse pipeline from rows to CSV, NDJSON or GPX.
        .target(name: "AltimetryIO", dependencies: ["Altimetry", "StateEstimation", "CSignalCleanup"]),

        // MARK: - Command line

        /// The `altimetry` commands: argument parsing, the console and exit codes, plotting, as a testable library.
        .target(name: "AltimetryCLI", dependencies: ["Altimetry", "AltimetryIO", "Simulation", "StateEstimation"]),
        .executableTarget(name: "altimetry", dependencies: ["AltimetryCLI"]),

        // MARK: - Fuzzing

        /// Checks run on arbitrary bytes by libFuzzer (`make fuzz`) and on the saved corpus by the tests.
        .target(
            name: "FuzzTargets", dependencies: ["AltimetryIO", "Altimetry", "StateEstimation", "LinearAlgebra"]),

        // MARK: - Benchmarks

        .executableTarget(
            name: "altimetry-bench",
            dependencies: [
                "LinearAlgebra", "StateEstimation", "Altimetry", "Simulation", "AltimetryIO", "AltimetryCLI",
                "Randomness",
            ],
            path: "Benchmarks/altimetry-bench"
        ),

        // MARK: - Tests

        .testTarget(name: "LinearAlgebraTests", dependencies: ["LinearAlgebra", "Randomness"]),
        .testTarget(name: "RandomnessTests", dependencies: ["Randomness"]),
        .testTarget(name: "OptimizationTests", dependencies: ["Optimization", "LinearAlgebra"]),
        .testTarget(
            name: "StateEstimationTests",
            dependencies: ["StateEstimation", "LinearAlgebra", "Randomness"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "AltimetryTests",
            dependencies: ["Altimetry", "Simulation", "Randomness", "StateEstimation"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "SimulationTests", dependencies: ["Simulation", "Altimetry", "StateEstimation", "Randomness"]),
        .testTarget(
            name: "AltimetryCLITests",
            dependencies: [
                "AltimetryCLI", "AltimetryIO", "Altimetry", "StateEstimation", "Simulation", "Randomness",
            ],
            resources: [.copy("Golden"), .copy("Fixtures")]
        ),
        /// The code samples of README.md, Docs/ and the DocC catalogs, compiled and run; the pages show them verbatim.
        .testTarget(
            name: "DocSamplesTests",
            dependencies: [
                "LinearAlgebra", "Randomness", "Optimization", "StateEstimation", "Altimetry", "Simulation",
                "AltimetryIO", "AltimetryCLI",
            ]
        ),
        .testTarget(name: "FuzzTargetsTests", dependencies: ["FuzzTargets"]),
    ],
    swiftLanguageModes: [.v6]
)
