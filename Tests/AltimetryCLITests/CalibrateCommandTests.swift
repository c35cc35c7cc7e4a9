import Altimetry
import Foundation
import Simulation
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

@Suite("CalibrateCommand")
struct CalibrateCommandTests {
    static func write(_ dir: TemporaryDirectory, seconds: Double) throws -> String {
        let recording = try Scenario.named(.seedCalibration, seed: 2, duration: seconds).simulate()
        return try dir.file(
            "cal-\(Int(seconds)).csv", String(decoding: SimulateCommand.csv(recording.readings), as: UTF8.self))
    }

    /// The forecast is the fixed model's (`--adapt off`): it runs the model forward, which the simulated receiver
    /// matches. The adaptive default forecasts with its weights held, and a longer recording moves them.
    @Test("The predicted minutes of GPS are what a longer recording of the same kind actually needs")
    func predictionHolds() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let short = runAltimetry([
            "calibrate", try Self.write(dir, seconds: 120), "--json", "--target-sigma", "5", "--adapt", "off",
        ])
        #expect(short.code == .success)
        let report = try JSONDecoder().decode(CalibrateCommand.Report.self, from: Data(short.out.utf8))
        #expect(!report.targetReached)
        let minutes = try #require(report.moreGPSMinutes)
        // The recording's own length is rounded to whole seconds; one more second of 1 Hz data covers it.
        let long = runAltimetry([
            "calibrate", try Self.write(dir, seconds: 120 + (minutes * 60).rounded(.up) + 1), "--json", "--adapt",
            "off",
        ])
        let after = try JSONDecoder().decode(CalibrateCommand.Report.self, from: Data(long.out.utf8))
        // Exact under the model up to the linearisation point, which moves with the data by metres, and the moment
        // the barometer settles at rest, which its noise moves by seconds: 1 % of sigma.
        #expect(abs(after.altitudeSigmaMeters - 5) < 0.05)
        // The offset is the altitude minus the last pressure's standard-atmosphere altitude, with the same sigma.
        #expect(report.offsetSigmaMeters == report.altitudeSigmaMeters)
        // Two minutes cannot tell one receiver from another: the default's sigma rests on its prior over receivers
        // (up to 30 m correlated over an hour) and is wider than the fixed model's, which assumes the seed's receiver.
        let adaptive = runAltimetry(["calibrate", try Self.write(dir, seconds: 120), "--json"])
        let unsure = try JSONDecoder().decode(CalibrateCommand.Report.self, from: Data(adaptive.out.utf8))
        #expect(unsure.altitudeSigmaMeters > report.altitudeSigmaMeters)
    }

    @Test("Text output names QNH, the offset and the target; an unreachable target says so")
    func text() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = try Self.write(dir, seconds: 60)
        let result = runAltimetry(["calibrate", input, "--adapt", "off"])
        #expect(result.code == .success)
        #expect(result.out.contains("QNH: "))
        #expect(result.out.contains("Offset (altitude - pressure altitude at 1013.25 hPa): "))
        #expect(result.out.contains("more minutes of GPS needed"))
        let unreachable = runAltimetry(["calibrate", input, "--target-sigma", "0.05"])
        #expect(unreachable.out.contains("not reachable within 6 h"))
        #expect(
            runAltimetry(["calibrate", input, "--target-sigma", "1000", "--json"]).out.contains(
                "\"target_reached\" : true"))
    }
}
