import Foundation
import Testing

@testable import AltimetryCLI

/// `altimetry identify` on the 11-minute static ZED-F9P recording (../shared/data/real, read in place): far too
/// short for a correlation time of the receiver's slow error. Skipped when the recording is not beside the checkout.
@Suite("IdentifyCommand")
struct IdentifyCommandTests {
    static func realPath(_ folder: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../shared/data/real/\(folder)/data.csv").standardized.path
    }
    static let path = realPath("static_gpsd_zedf9p_dunedin_11min")

    @Test(
        "GIVEN an 11-minute static log WHEN identified THEN the Allan fit, like the likelihood, calls σ_e and τ not identifiable"
    )
    func allanFitVerdict() throws {
        guard FileManager.default.fileExists(atPath: Self.path) else {
            print("skipped: \(Self.path) is not beside the checkout")
            return
        }
        let text = runAltimetry(["identify", Self.path])
        #expect(text.code == .success, "\(text.err)")
        let fitLine = try #require(text.out.split(separator: "\n").first { $0.hasPrefix("Gauss-Markov + white fit") })
        #expect(fitLine.contains("gps_sigma and gps_tau not identifiable"), "\(fitLine)")
        #expect(fitLine.contains("beyond half the recording"), "\(fitLine)")
        #expect(text.out.contains("weather_q       not estimated (no barometer in the recording)"), "\(text.out)")

        let json = runAltimetry(["identify", Self.path, "--json"])
        #expect(json.code == .success, "\(json.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let fit = try #require(object["allan_fit"] as? [String: Any])
        #expect(fit["gps_sigma"] is NSNull && fit["gps_tau"] is NSNull)
        #expect(fit["gps_white"] is Double)
        let reasons = try #require(fit["not_identifiable"] as? [String: String])
        #expect(reasons["gps_tau"]?.contains("beyond half the recording") == true)
        // The likelihood's verdict on the same recording, and the --params file it writes: σ_e and τ not
        // identified, so the GPS error model is left to adapt rather than fixed at the defaults' receiver.
        #expect(object["gps_tau"] is NSNull)
        #expect(object["gps_adapt"] as? Bool == true)
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("identify-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: out) }
        let written = runAltimetry(["identify", Self.path, "--out", out.path])
        #expect(written.code == .success, "\(written.err)")
        #expect(written.out.contains("--out writes gps_adapt true"), "\(written.out)")
        let file = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out)) as? [String: Any])
        #expect(file["gps_adapt"] as? Bool == true && file["gps_tau"] == nil && file["gps_sigma"] == nil)
    }

    @Test(
        "GIVEN a 70 s drone flight with a barometer THEN q_b and σ_p are kept for its motion, not for a barometer it has"
    )
    func movingRecordingKeepsTheWeather() throws {
        let path = Self.realPath("px4_fmuv6c_flugdrohne_log66")
        guard FileManager.default.fileExists(atPath: path) else {
            print("skipped: \(path) is not beside the checkout")
            return
        }
        let json = runAltimetry(["identify", path, "--json"])
        #expect(json.code == .success, "\(json.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let reasons = try #require(object["not_identifiable"] as? [String: String])
        for key in ["weather_q", "baro_sigma"] {
            #expect(reasons[key]?.contains("moving recording") == true, "\(key): \(reasons[key] ?? "none")")
        }
        #expect(object["gps_white"] is Double, "σ_g is set by the shortest averaging times")
    }
}
