import Foundation
import Testing

@testable import Altimetry

@Suite("Decoder+UnknownKeys")
struct DecoderUnknownKeysTests {
    static func decode(_ json: String) throws -> AltitudeModelParameters {
        try JSONDecoder().decode(AltitudeModelParameters.self, from: Data(json.utf8))
    }

    /// GIVEN a parameters file with a known key and its nested fault thresholds, WHEN decoded, THEN the values are
    /// those given and the missing ones keep their defaults.
    @Test("Known keys, top level and nested, decode; the rest keep their defaults")
    func knownKeys() throws {
        let p = try Self.decode(#"{"gps_sigma": 4, "fault_thresholds": {"gps_reset_time": 90}}"#)
        #expect(p.gpsErrorStandardDeviation == 4)
        #expect(p.faultThresholds.gpsResetTime == 90)
        #expect(p.faultThresholds.barometerStepTime == FaultThresholds().barometerStepTime)
        #expect(p.gpsCorrelationTime == AltitudeModelParameters().gpsCorrelationTime)
    }

    /// GIVEN a misspelt key at the top level or inside `fault_thresholds`, WHEN decoded, THEN the decoding fails
    /// naming the key and its path, never ignoring it.
    @Test("A misspelt key is refused by name, at the top level and inside fault_thresholds")
    func misspeltKeys() {
        for (json, key, path) in [
            (#"{"gps_sigmaa": 4}"#, "model parameter 'gps_sigmaa'", ["gps_sigmaa"]),
            (
                #"{"fault_thresholds": {"gps_reset_tme": 90}}"#, "fault threshold 'gps_reset_tme'",
                ["fault_thresholds", "gps_reset_tme"]
            ),
        ] {
            do {
                _ = try Self.decode(json)
                Issue.record("\(json) decoded")
            } catch DecodingError.dataCorrupted(let context) {
                #expect(context.debugDescription == "unknown \(key)")
                #expect(context.codingPath.map(\.stringValue) == path)
            } catch {
                Issue.record("\(json): \(error)")
            }
        }
    }
}
