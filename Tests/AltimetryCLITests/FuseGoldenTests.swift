import Foundation
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

/// Golden files: `altimetry fuse` on a fixed input must print exactly the committed outputs, in every format.
///
/// The input (`Golden/input.csv`) is 90 s of the simulated hike with two interleaved tracks, reported accuracies
/// (one sigma 4.5 m and 30 m), temperatures and one +65 m GPS spike, which is gated. A deliberate change of
/// behaviour regenerates the outputs from the repository root with
///
///     for f in csv ndjson gpx; do
///       swift run altimetry fuse Tests/AltimetryCLITests/Golden/input.csv --format $f \
///         --out Tests/AltimetryCLITests/Golden/expected.$f
///     done
///
/// (and `--smooth --out Tests/AltimetryCLITests/Golden/expected-smooth.csv` for the smoothed track), and the diff
/// shows what changed.
@Suite("Fuse golden files")
struct FuseGoldenTests {
    static func golden(_ name: String) throws -> URL {
        let base = (name as NSString).deletingPathExtension, ext = (name as NSString).pathExtension
        return try #require(Bundle.module.url(forResource: base, withExtension: ext, subdirectory: "Golden"))
    }

    @Test("fuse prints the committed output byte for byte", arguments: ["csv", "ndjson", "gpx"])
    func format(_ format: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let out = dir.path("out.\(format)")
        let run = runAltimetry(["fuse", try Self.golden("input.csv").path, "--format", format, "--out", out])
        #expect(run.code == .success, "\(run.err)")
        #expect(run.err.contains("gated: 1"), "the spike is gated: \(run.err)")
        let expected = try Data(contentsOf: Self.golden("expected.\(format)"))
        let actual = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(actual == expected, "output differs from Golden/expected.\(format)")
    }

    @Test("fuse --smooth prints the committed smoothed track byte for byte")
    func smoothed() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let out = dir.path("out.csv")
        let run = runAltimetry(["fuse", try Self.golden("input.csv").path, "--smooth", "--out", out])
        #expect(run.code == .success, "\(run.err)")
        let expected = try Data(contentsOf: Self.golden("expected-smooth.csv"))
        let actual = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(actual == expected, "output differs from Golden/expected-smooth.csv")
    }
}
