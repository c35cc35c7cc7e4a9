import Altimetry
import Foundation
import Randomness
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

/// What the device measured, decided per file: from its identity (FIT `file_id`, a GPX or TCX creator), else
/// from the data's character; and the quirks of device files (zero placeholders, no altitude, times without a
/// zone, records out of order). The real files are python-fitparse's (MIT, `Fixtures/FIT/devices/`).
@Suite("Device elevation")
struct DeviceElevationTests {
    static func device(_ name: String) throws -> Data {
        let url = try #require(
            Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures/FIT/devices"))
        return try Data(contentsOf: url)
    }

    /// `count` GPX points a second from 2024-05-01T12:00:00Z at the elevations `elevation(k)`.
    static func gpx(
        _ count: Int, creator: String = "test", time: (Int) -> String = Self.time, _ elevation: (Int) -> String
    )
        -> Data
    {
        GPXReaderTests.gpx(
            (0..<count).map {
                "<trkpt lat=\"46.5\" lon=\"7.9\"><ele>\(elevation($0))</ele><time>\(time($0))</time></trkpt>\n"
            }.joined(), creator: creator)
    }

    static func time(_ k: Int) -> String {
        let two = { (x: Int) in x < 10 ? "0\(x)" : "\(x)" }
        return "2024-05-01T12:\(two(k / 60)):\(two(k % 60))Z"
    }

    @Test(
        "A FIT's device decides: Forerunner 110 and Edge 200 record GPS, an ELEMNT BOLT its barometer; --ele overrides",
        arguments: [
            ("forerunner-110.fit", ElevationSource.gps, "Garmin fr110 (product 1124), has no barometer"),
            ("edge-200.fit", .gps, "Garmin edge200 (product 1325), has no barometer"),
            ("elemnt-bolt.fit", .barometric, "Wahoo"),
        ])
    func fitDevice(file: String, expected: ElevationSource, says: String) throws {
        let data = try Self.device(file)
        let reading = try FITReader.read(data, file: file, skipInvalid: true)
        #expect(reading.elevation == expected)
        #expect(reading.elevationNote.contains(says), "\(reading.elevationNote)")
        let rows = reading.table.rows.filter { $0.invalidReason == nil }
        #expect(expected == .gps ? rows.allSatisfy { $0.pressure == nil } : rows.allSatisfy { $0.gpsAltitude == nil })
        let other: ElevationSource = expected == .gps ? .barometric : .gps
        let forced = try FITReader.read(data, file: file, elevation: other, skipInvalid: true)
        #expect(forced.elevation == other && forced.elevationNote.hasSuffix("(--ele \(other.rawValue))"))
    }

    @Test("The summary names the device's verdict on stderr")
    func summaryNote() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("fr110.fit")
        try Self.device("forerunner-110.fit").write(to: URL(fileURLWithPath: path))
        let run = runAltimetry(["fuse", path])
        #expect(run.code == .success)
        #expect(run.err.contains("elevation read as gps (the device, Garmin fr110 (product 1124), has no barometer"))
    }

    @Test("Unknown device: a wandering altitude is GPS, a smooth one stays the format's default")
    func dataCharacter() throws {
        var generator = SeededGenerator(seed: 44)
        let times = (0..<600).map(Double.init)
        // A climb at 0.3 m/s quantised to 0.2 m, as devices store it: smooth.
        let smooth = times.map { (($0 * 0.3) / 0.2).rounded() * 0.2 }
        #expect(try #require(ElevationCharacter.wander(times: times, elevations: smooth)) < 0.25)
        #expect(ElevationCharacter.verdict(times: times, elevations: smooth) == nil)
        // The same climb with GPS's white noise of 2 m: about 1.95 x 2 m.
        let noisy = smooth.map { $0 + 2 * Double.random(in: -1.732...1.732, using: &generator) }
        let wander = try #require(ElevationCharacter.wander(times: times, elevations: noisy))
        #expect(wander > 3 && wander < 5)
        #expect(ElevationCharacter.verdict(times: times, elevations: noisy)?.0 == .gps)
        // Too few equally spaced samples: no verdict.
        #expect(ElevationCharacter.wander(times: Array(times.prefix(50)), elevations: Array(noisy.prefix(50))) == nil)
        // Through the FIT reader, for a device not in the catalog.
        var messages = FITMessages()
        messages.manufacturer = 95
        for (k, t) in times.enumerated() {
            messages.records.append(FITMessages.Record(index: k, time: t, altitude: noisy[k]))
        }
        let (source, reason) = FITReader.elevation(nil, messages)
        #expect(source == .gps && reason.contains("wanders like GPS"))
        messages.records = times.enumerated().map { FITMessages.Record(index: $0, time: $1, altitude: smooth[$0]) }
        #expect(FITReader.elevation(nil, messages).0 == .barometric)
    }

    @Test(
        "A creator naming a model without a barometer is GPS, before the barometric families",
        arguments: [
            ("Garmin Edge 200", ElevationSource.gps), ("EDGE200", .gps), ("Forerunner 110", .gps),
            ("Garmin Edge 520", .barometric), ("Edge 205", .gps), ("Edge 2050 Pro", .barometric),
            ("fenix 6", .barometric), ("StravaGPX", .gps),
        ])
    func creator(name: String, expected: ElevationSource) {
        #expect(ElevationSource.resolved(nil, creator: name).0 == expected, "\(name)")
    }

    @Test("Runs of exact 0.0 next to real elevations are placeholders; zeros along a coast are kept")
    func zeroPlaceholders() throws {
        let mountain = try GPXReader.read(
            Self.gpx(120) { $0 < 5 || ($0 >= 60 && $0 < 63) ? "0" : "1200.5" }, file: "m.gpx")
        var reading = mountain
        reading.removeZeroElevationPlaceholders()
        let blank = reading.table.rows.enumerated().filter { $0.element.gpsAltitude == nil }.map(\.offset)
        #expect(blank == [0, 1, 2, 3, 4, 60, 61, 62])
        #expect(reading.table.notices.contains { $0.contains("elevation exactly 0.0 on 8 points") })
        var coast = try GPXReader.read(Self.gpx(120) { $0 % 10 == 0 ? "0" : "3" }, file: "c.gpx")
        coast.removeZeroElevationPlaceholders()
        #expect(coast.table.rows.allSatisfy { $0.gpsAltitude != nil })
    }

    @Test("A file without any altitude (or only placeholders) exits 65 saying so")
    func noAltitude() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let zeros = directory.path("zeros.gpx")
        try Self.gpx(120) { _ in "0" }.write(to: URL(fileURLWithPath: zeros))
        let run = runAltimetry(["fuse", zeros])
        #expect(run.code == .dataError)
        #expect(run.err.contains("zeros.gpx: found no altitude in any of its 120 points or records"), "\(run.err)")
        // A FIT whose records have a time and a position and no altitude.
        let fit = directory.path("noalt.fit")
        try Self.fitWithoutAltitude(records: 30).write(to: URL(fileURLWithPath: fit))
        let fitRun = runAltimetry(["fuse", fit])
        #expect(fitRun.code == .dataError)
        #expect(fitRun.err.contains("noalt.fit: found no altitude in any of its 30 points or records"), "\(fitRun.err)")
    }

    @Test("GPX times without a zone read as UTC, with a note")
    func zonelessTimes() throws {
        let data = Self.gpx(3, time: { "2024-05-01T12:00:0\($0)" }, { _ in "1200" })
        let reading = try GPXReader.read(data, file: "z.gpx")
        #expect(reading.table.rows.map(\.time) == [1_714_564_800, 1_714_564_801, 1_714_564_802])
        #expect(reading.table.notices.contains { $0.contains("3 times without a time zone (the first on line") })
    }

    @Test("A device file's record out of order is rejected with its reason, and the message names --skip-invalid")
    func outOfOrder() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("back.gpx")
        try Self.gpx(120, time: { Self.time($0 == 50 ? 49 - 1 : $0) }) { _ in "1200" }.write(
            to: URL(fileURLWithPath: path))
        let strict = runAltimetry(["fuse", path])
        #expect(strict.code == .dataError)
        #expect(strict.err.contains("time") && strict.err.contains("--skip-invalid rejects the record and reads on"))
        let skipping = runAltimetry(["fuse", path, "--skip-invalid"])
        #expect(skipping.code == .success && skipping.out.contains("rejected: "))
    }

    @Test("A GPS-only track reports no QNH: none in the summary on stderr, null in --summary")
    func gpsOnlyHasNoQNH() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fr110 = directory.path("fr110.fit"), summary = directory.path("summary.json")
        try Self.device("forerunner-110.fit").write(to: URL(fileURLWithPath: fr110))
        let run = runAltimetry(["fuse", fr110, "--summary", summary])
        #expect(run.code == .success)
        #expect(run.err.contains("QNH none (no barometer reading)"), "\(run.err)")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: summary)))
        let track = try #require(((object as? [String: Any])?["tracks"] as? [[String: Any]])?.first)
        let final = try #require(track["final"] as? [String: Any])
        #expect(final["qnh_hpa"] is NSNull && final["qnh_sigma_hpa"] is NSNull && final["altitude_m"] is Double)
        let barometric = runAltimetry(["fuse", fr110, "--ele", "barometric"])
        #expect(barometric.err.contains("QNH 10") && !barometric.err.contains("QNH none"))
    }

    @Test("An app's FIT (file_id names Strava) is decided by the creator's device_info: a Forerunner 110, GPS")
    func deviceInfo() throws {
        func le16(_ x: UInt16) -> [UInt8] { [UInt8(truncatingIfNeeded: x), UInt8(truncatingIfNeeded: x >> 8)] }
        // file_id (local 1): manufacturer 265 (Strava); device_info (local 2): device_index 0, Garmin, 1124.
        var body: [UInt8] = [0x41, 0, 0, 0, 0, 1, 1, 2, 0x84] + [0x01] + le16(265)
        body += [0x42, 0, 0, 23, 0, 3, 0, 1, 0x02, 2, 2, 0x84, 4, 2, 0x84] + [0x02, 0] + le16(1) + le16(1124)
        let data = Self.fit(body: body, records: 30, altitude: true)
        let reading = try FITReader.read(data, file: "strava.fit")
        #expect(reading.elevation == .gps)
        #expect(
            reading.elevationNote.contains("Garmin fr110 (product 1124), has no barometer")
                && reading.elevationNote.contains("(device_info)"))
    }

    /// A FIT file (14-byte header, little-endian) of `records` records holding a timestamp and a position only.
    static func fitWithoutAltitude(records: Int) -> Data { fit(body: [], records: records, altitude: false) }

    /// A FIT file of the messages in `body`, then `records` records a second (timestamp, position and, with
    /// `altitude`, an altitude of 1,200 m).
    static func fit(body start: [UInt8], records: Int, altitude: Bool) -> Data {
        var body = start + [0x40, 0, 0, 20, 0, altitude ? 4 : 3, 253, 4, 0x86, 0, 4, 0x85, 1, 4, 0x85]
        if altitude { body += [2, 2, 0x84] }
        func le32(_ x: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: x >> (8 * $0)) } }
        for k in 0..<records {
            body += [0x00] + le32(1_000_000_000 + UInt32(k)) + le32(554_687_500) + le32(94_250_000)
            if altitude { body += [UInt8(8_500 & 0xFF), UInt8(8_500 >> 8)] }
        }
        var file: [UInt8] = [14, 0x20, 0x08, 0x08] + le32(UInt32(body.count)) + Array(".FIT".utf8) + [0, 0] + body
        let crc = file.withUnsafeBytes { FITCRC.checksum($0, 0..<file.count) }
        file += [UInt8(truncatingIfNeeded: crc), UInt8(truncatingIfNeeded: crc >> 8)]
        return Data(file)
    }
}
