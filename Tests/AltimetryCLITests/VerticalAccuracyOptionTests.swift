import Altimetry
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

/// `--vacc-confidence` means the same on every command that takes it.
@Suite("--vacc-confidence")
struct VerticalAccuracyOptionTests {
    @Test("One sigma is 0.68, 0.683, 1 or absent; 95 % is 0.95; anything else is a usage error naming it")
    func values() throws {
        for value in [nil, "0.68", "0.683", "1"] as [String?] {
            #expect(try VerticalAccuracyConvention(optionValue: value) == .oneSigma)
        }
        #expect(try VerticalAccuracyConvention(optionValue: "0.95") == .ninetyFivePercent)
        #expect(throws: UsageError("option '--vacc-confidence' expects 0.68 or 0.95, got '0.9'")) {
            try VerticalAccuracyConvention(optionValue: "0.9")
        }
    }

    /// Before, `calibrate` refused 0.683 and 1, which `fuse` took.
    @Test("fuse and calibrate accept the same values", arguments: ["fuse", "calibrate"])
    func commands(command: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = try dir.file("in.csv", "t,pressure_hpa,gps_alt_m,gps_vacc_m\n0,1000.0,110,4\n1,1000.0,111,4\n")
        #expect(runAltimetry([command, input, "--vacc-confidence", "0.683"]).code == .success)
        #expect(runAltimetry([command, input, "--vacc-confidence", "1"]).code == .success)
        let bad = runAltimetry([command, input, "--vacc-confidence", "0.9"])
        #expect(bad.code == .usage)
        #expect(bad.err.contains("'0.9'"))
    }
}
