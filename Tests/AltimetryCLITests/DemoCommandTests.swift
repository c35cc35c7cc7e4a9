import Foundation
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

@Suite("DemoCommand")
struct DemoCommandTests {
    @Test("The demo fuses a hike, prints the comparison and writes one row per reading")
    func demo() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let out = dir.path("nested/demo.csv")
        let run = runAltimetry(["demo", "--out", out, "--hikes", "2"])
        #expect(run.code == .success, "\(run.err)")
        for word in [
            "kalman", "smoother", "naive", "naive_600s", "Final altitude", "Final QNH", "Over 2 simulated hikes",
        ] {
            #expect(run.out.contains(word), "missing \(word)")
        }
        let lines = try dir.read("nested/demo.csv").split(separator: "\n")
        #expect(lines.first?.hasPrefix("t,altitude_m,sigma_m,smoothed_altitude_m") == true)
        #expect(lines.count == 43_200 + 1)
    }
}
