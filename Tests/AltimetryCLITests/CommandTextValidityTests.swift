import Foundation
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

/// What the measuring commands print says what is so: no `0.0 ± 0.0 m`, dates as dates, no GPS said as such,
/// and no `nan` or `inf` in JSON (`JSONDocument`) or in words.
@Suite("Command texts and documents")
struct CommandTextValidityTests {
    /// `minutes` of a flat walk at 1 Hz, dated from 2024-05-01T08:00:00Z: pressure every row, GPS with `gps`.
    static func flatWalk(minutes: Int, gps: Bool) -> String {
        var text = gps ? "time,pressure_hpa,gps_alt_m,gps_vacc_m\n" : "time,pressure_hpa\n"
        for k in 0..<(minutes * 60) {
            let time = ISO8601Parser().text(1_714_550_400 + Double(k))
            let pressure = 1000 + 0.002 * sin(Double(k) / 7)
            text += "\(time),\(pressure)" + (gps ? ",\(110 + 2 * sin(Double(k) / 40)),4\n" : "\n")
        }
        return text
    }

    @Test("GIVEN a short flat walk WHEN ascent runs THEN neither total is 0.0 ± 0.0 m")
    func totalSigmaNeverZero() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = try dir.file("flat.csv", Self.flatWalk(minutes: 3, gps: true))
        let run = runAltimetry(["ascent", input])
        #expect(run.code == .success, "\(run.err)")
        let totals = run.out.split(separator: "\n").filter { $0.hasPrefix("Ascent:") || $0.hasPrefix("Descent:") }
        #expect(
            totals.count == 2 && totals.allSatisfy { !$0.hasSuffix("± 0.0 m") && !$0.hasSuffix("± 0.00 m") },
            "\(run.out)")
        let json = runAltimetry(["ascent", input, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(try #require(object["ascent_sigma_m"] as? Double) > 0)
        #expect(try #require(object["descent_sigma_m"] as? Double) > 0)
    }

    @Test("GIVEN a dated track with a climb WHEN ascent runs THEN segment times are RFC 3339, in text and JSON")
    func segmentTimesAsDates() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var text = "time,pressure_hpa,gps_alt_m\n"
        for k in 0..<1_200 {
            // 120 m up over the first 10 minutes (about 14.4 hPa), then flat.
            let climb = min(Double(k), 600) / 600 * 120
            text += "\(ISO8601Parser().text(1_714_550_400 + Double(k))),\(1000 - climb / 8.3),\(110 + climb)\n"
        }
        let input = try dir.file("climb.csv", text)
        let run = runAltimetry(["ascent", input])
        #expect(run.code == .success, "\(run.err)")
        let segment = try #require(run.out.split(separator: "\n").first { $0.hasPrefix("  2024-05-01T") }, "\(run.out)")
        #expect(segment.contains(" to 2024-05-01T"), "\(segment)")
        let json = runAltimetry(["ascent", input, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let first = try #require((object["segments"] as? [[String: Any]])?.first)
        #expect((first["start_time"] as? String)?.hasPrefix("2024-05-01T08:") == true, "\(first)")
        #expect(first["start_s"] is Double)
    }

    @Test("Relative times stay in seconds, and their segments' start_time is null")
    func relativeTimes() {
        #expect(InstantText.text(3.14) == "3.1 s")
        #expect(InstantText.text(1_714_550_400) == "2024-05-01T08:00:00Z")
        #expect(InstantText.date(86_400) == nil)
        #expect(InstantText.date(.nan) == nil)
    }

    @Test("GIVEN a barometer without GPS WHEN calibrate runs THEN it says there is no GPS altitude")
    func calibrateWithoutGPS() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = try dir.file("baro.csv", Self.flatWalk(minutes: 5, gps: false))
        let run = runAltimetry(["calibrate", input])
        #expect(run.code == .success, "\(run.err)")
        #expect(run.out.contains("the recording has no GPS altitude"), "\(run.out)")
        #expect(!run.out.contains("more minutes"))
        let json = runAltimetry(["calibrate", input, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(object["gps_fixes"] as? Int == 0)
        #expect(object["more_gps_minutes"] is NSNull && object["target_reached"] as? Bool == false)
    }

    @Test("JSONDocument writes null for NaN and infinities, from Encodable values and from JSONSerialization objects")
    func nonFiniteAsNull() throws {
        struct Figures: Encodable {
            var a = Double.nan
            var b = Double.infinity
            var c = -Double.infinity
            var d = 1.5
            var text = "nan inf"
        }
        let encoded = String(decoding: try JSONDocument.encode(Figures(), compact: true), as: UTF8.self)
        #expect(encoded == #"{"a":null,"b":null,"c":null,"d":1.5,"text":"nan inf"}"#)
        let serialized = try JSONDocument.serialize(["x": Double.nan, "y": [Double.infinity, 2.0]] as [String: Any])
        let object = try #require(try JSONSerialization.jsonObject(with: serialized) as? [String: Any])
        #expect(object["x"] is NSNull)
        #expect((object["y"] as? [Any])?.first is NSNull)
    }

    @Test("identify's numbers in words: an unbounded or undefined value is said so, never inf or nan")
    func identifyWords() {
        #expect(IdentifyCommand.significant(.infinity) == "unbounded")
        #expect(IdentifyCommand.significant(.nan) == "undefined")
        #expect(IdentifyCommand.significant(12.345) == "12.35")
    }
}

/// `evaluate`'s sensors-alone rows are filled whenever their sensor is there.
@Suite("Evaluate: the sensors alone")
struct EvaluateSensorsAloneTests {
    @Test("GIVEN a barometer without GPS WHEN evaluated under the default model THEN the barometer-alone row is filled")
    func barometerWithoutFix() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = try dir.file("baro.csv", CommandTextValidityTests.flatWalk(minutes: 15, gps: false))
        let run = runAltimetry(["evaluate", input, "--from", "60"])
        #expect(run.code == .success, "\(run.err)")
        let row = try #require(run.out.split(separator: "\n").first { $0.contains("barometer alone") }, "\(run.out)")
        #expect(!row.contains(" - m"), "\(row)")
        #expect(run.out.contains("GPS alone: no GPS fix after 60 s."), "\(run.out)")
    }
}
