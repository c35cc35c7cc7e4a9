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
            targets: ["LinearAlgebra", "Randomness", "StateEstimation", "Altimetry", "Simulation"]
        ),
        .executable(name: "altimetry", targets: ["altimetry"]),
    ],
    targets: [
        // MARK: - System libraries

        /// Reference LAPACK and BLAS from Debian's `liblapack-dev` and `libblas-dev`.
        .systemLibrary(
            name: "CLAPACK",
            pkgConfig: nil,
            providers: [.apt(["liblapack-dev", "libblas-dev"])]
        ),

        // MARK: - Numerical foundations

        /// Column-major matrices and the only Swift wrapper over LAPACK and BLAS.
        .target(name: "LinearAlgebra", dependencies: ["CLAPACK"], swiftSettings: optimized),
        /// Portable seeded randomness: a generator, Gaussian draws, Gauss-Markov processes.
        .target(name: "Randomness"),

        // MARK: - Estimation

        /// The generic state-space engine: Kalman filter, gating, smoother, checkpoints. Knows nothing of altitude.
        .target(name: "StateEstimation", dependencies: ["LinearAlgebra"], swiftSettings: optimized),

        // MARK: - The altitude domain

        /// Atmosphere physics, GPS statistics, the altitude model, calibration, floors, the naive baseline.
        .target(name: "Altimetry", dependencies: ["LinearAlgebra", "StateEstimation", "Randomness"], swiftSettings: optimized),
        /// Scenario simulator: true profiles, weather, barometer and GPS with their errors; scoring against a truth.
        .target(name: "Simulation", dependencies: ["Altimetry", "Randomness"]),

        // MARK: - Command line

        /// The `altimetry` commands, file formats and plotting, as a testable library.
        .target(name: "AltimetryCLI", dependencies: ["Altimetry", "Simulation", "StateEstimation"]),
        .executableTarget(name: "altimetry", dependencies: ["AltimetryCLI"]),

        // MARK: - Benchmarks

        .executableTarget(
            name: "altimetry-bench",
            dependencies: ["LinearAlgebra", "StateEstimation", "Altimetry", "Simulation", "AltimetryCLI", "Randomness"],
            path: "Benchmarks/altimetry-bench"
        ),

        // MARK: - Tests

        .testTarget(name: "LinearAlgebraTests", dependencies: ["LinearAlgebra", "Randomness"]),
        .testTarget(name: "RandomnessTests", dependencies: ["Randomness"]),
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
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "Altimetry", "Randomness"]),
        .testTarget(
            name: "AltimetryCLITests",
            dependencies: ["AltimetryCLI", "Altimetry", "Simulation", "Randomness"],
            resources: [.copy("Golden")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
