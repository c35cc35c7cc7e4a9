// swift-tools-version: 6.0
import PackageDescription

/// The libFuzzer driver for Altimetry's fuzz targets, kept out of the main package because every module it
/// reaches is built with the fuzzer's instrumentation: build it with `make fuzz` (or see Docs/reliability.md for the commands).
let package = Package(
    name: "AltimetryFuzz",
    dependencies: [.package(name: "Altimetry", path: "..")],
    targets: [
        /// Runs the target `ALTIMETRY_FUZZ_TARGET` names under libFuzzer.
        .executableTarget(
            name: "altimetry-fuzz",
            dependencies: [.product(name: "FuzzTargets", package: "Altimetry")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
