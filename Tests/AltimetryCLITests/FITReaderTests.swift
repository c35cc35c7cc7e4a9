import Foundation
import Randomness
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

/// The FIT decoder against `fitdecode` (an independent Python decoder) on files written by
/// `Fixtures/FIT/make_fit_fixtures.py`, whose encoder is not this decoder either: both byte orders, 12- and
/// 14-byte headers, compressed timestamps with roll-overs, developer fields, a local type redefined mid-file,
/// unknown and manufacturer messages, invalid sentinels, `gps_metadata`, `barometer_data` with its arrays, values
/// out of range, a corrupt CRC and a truncated file.
@Suite("FIT reader")
struct FITReaderTests {
    static let files = [
        "activity_le.fit", "activity_be.fit", "compressed_timestamps.fit", "developer_fields.fit",
        "gps_metadata.fit", "barometer.fit", "bad_values.fit",
    ]

    static func fixture(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures/FIT"))
        return try Data(contentsOf: url)
    }

    static func expected() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: fixture("expected.json"))
        return try #require(object as? [String: Any])
    }

    static func decode(_ data: Data) throws -> FITMessages {
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws -> FITMessages in try FITDecoder.decode(bytes)
        }
    }

    /// `fitdecode`'s value (JSON null for none) and ours agree: both none, or within `tolerance`.
    static func same(_ ours: Double?, _ theirs: Any?, tolerance: Double) -> Bool {
        let reference = (theirs as? NSNumber)?.doubleValue
        guard let ours, let reference else { return ours == nil && reference == nil }
        return abs(ours - reference) <= tolerance
    }

    @Test("Records and GNSS fixes equal fitdecode's, field by field", arguments: files)
    func crossCheck(file: String) throws {
        let expected = try #require(Self.expected()[file] as? [String: Any])
        let messages = try Self.decode(Self.fixture(file))
        let records = try #require(expected["records"] as? [[String: Any]])
        let fixes = try #require(expected["gps_metadata"] as? [[String: Any]])
        try #require(
            messages.records.count == records.count && messages.gnssFixes.count == fixes.count,
            "\(file): \(messages.records.count) records, \(messages.gnssFixes.count) fixes")
        for (ours, theirs) in zip(messages.records, records) {
            let at = "\(file) message \(ours.index)"
            #expect(ours.index == (theirs["index"] as? Int), "\(at)")
            #expect(Self.same(ours.time, theirs["time"], tolerance: 0), "\(at): time \(String(describing: ours.time))")
            // Semicircles to degrees: both divide the same integer, so they agree to rounding.
            #expect(Self.same(ours.latitude, theirs["latitude"], tolerance: 1e-12), "\(at): latitude")
            #expect(Self.same(ours.longitude, theirs["longitude"], tolerance: 1e-12), "\(at): longitude")
            #expect(Self.same(ours.altitude, theirs["altitude"], tolerance: 1e-9), "\(at): altitude")
            // fitdecode expands `altitude` into `enhanced_altitude` (the profile's component), so the altitude a
            // reader uses is compared: enhanced where present, else the plain one.
            let theirsUsed = theirs["enhanced_altitude"] is NSNull ? theirs["altitude"] : theirs["enhanced_altitude"]
            #expect(
                Self.same(ours.enhancedAltitude ?? ours.altitude, theirsUsed, tolerance: 1e-9),
                "\(at): enhanced_altitude")
            #expect(Self.same(ours.temperature, theirs["temperature"], tolerance: 0), "\(at): temperature")
            #expect(
                Self.same(ours.absolutePressure, theirs["absolute_pressure"], tolerance: 0), "\(at): absolute_pressure")
        }
        for (ours, theirs) in zip(messages.gnssFixes, fixes) {
            let at = "\(file) message \(ours.index)"
            #expect(ours.index == (theirs["index"] as? Int), "\(at)")
            #expect(Self.same(ours.time, theirs["time"], tolerance: 1e-6), "\(at): time")
            #expect(Self.same(ours.latitude, theirs["latitude"], tolerance: 1e-12), "\(at): latitude")
            #expect(Self.same(ours.longitude, theirs["longitude"], tolerance: 1e-12), "\(at): longitude")
            #expect(Self.same(ours.altitude, theirs["altitude"], tolerance: 1e-9), "\(at): altitude")
        }
        // Each barometer_data message is several samples: sample k at the message's time plus its offset.
        let barometer = try #require(expected["barometer_data"] as? [[String: Any]])
        var samples: [(index: Int?, time: Double?, pressure: Any?)] = []
        for message in barometer {
            let pressures = try #require(message["baro_pres"] as? [Any])
            let offsets = try #require(message["sample_time_offset"] as? [Any])
            let time = (message["time"] as? NSNumber)?.doubleValue
            for (k, pressure) in pressures.enumerated() {
                let offset = k < offsets.count ? (offsets[k] as? NSNumber)?.doubleValue : nil
                samples.append(
                    (message["index"] as? Int, time.flatMap { t in offset.map { t + $0 / 1_000 } }, pressure))
            }
        }
        try #require(
            messages.barometerSamples.count == samples.count, "\(file): \(messages.barometerSamples.count) samples")
        for (ours, theirs) in zip(messages.barometerSamples, samples) {
            let at = "\(file) message \(ours.index)"
            #expect(ours.index == theirs.index, "\(at)")
            #expect(Self.same(ours.time, theirs.time.map { NSNumber(value: $0) }, tolerance: 1e-6), "\(at): time")
            #expect(Self.same(ours.pressure, theirs.pressure, tolerance: 0), "\(at): baro_pres")
        }
    }

    @Test(
        "A corrupt CRC and a truncated file are read as far as they decode, as Garmin's SDK reads them, with warnings",
        arguments: [
            (
                "corrupt_crc.fit",
                [
                    "at byte 7639: the file's CRC is 0xAFA0, its bytes give 0x9FDF",
                    "at byte 3850: stopped reading the damaged file here: found a data message of local type 3",
                ]
            ),
            (
                "truncated.fit",
                [
                    "at byte 4584: found 4570 bytes after the header, expected 7625 bytes of records and a 2-byte CRC "
                        + "(the file is truncated)",
                    "at byte 4564: stopped reading the damaged file here: found a data message of 24 bytes",
                ]
            ),
        ])
    func salvage(file: String, warnings: [String]) throws {
        let expected = try #require(Self.expected()[file] as? [String: Any])
        #expect(expected["error"] != nil)  // fitdecode refuses it
        let garminRecords = try #require(expected["garmin_records"] as? Int)
        let reading = try FITReader.read(Self.fixture(file), file: file)
        #expect(reading.table.rows.count == garminRecords)
        let shown = reading.table.notices.filter { $0.hasPrefix("warning: ") }
        #expect(shown.count == warnings.count)
        for (notice, warning) in zip(shown, warnings) {
            #expect(notice.hasPrefix("warning: \(file): \(warning)"), "\(notice)")
        }
        // The records read are the intact file's first ones, value for value.
        let intact = try FITReader.read(Self.fixture("activity_le.fit"), file: "activity_le.fit").table.rows
        #expect(Array(intact.prefix(garminRecords)) == reading.table.rows)
    }

    @Test("Chained files are read one after the other; a truncated last file keeps the ones before it whole")
    func chained() throws {
        let first = try Self.fixture("activity_le.fit"), second = try Self.fixture("activity_be.fit")
        // The two are the same activity: the second's times go back, its rows are kept as rejected.
        let read = { (data: Data) in try FITReader.read(data, file: "c.fit", skipInvalid: true).table }
        let count = { (data: Data) in try read(data).rows.count }
        let whole = try read(first + second)
        #expect(whole.rows.count == (try count(first)) + (try count(second)))
        #expect(!whole.notices.contains { $0.hasPrefix("warning: ") })
        let cut = try read(first + second.prefix(second.count * 3 / 5))
        #expect(cut.rows.count > (try count(first)) && cut.rows.count < whole.rows.count)
        #expect(
            cut.notices.contains { $0.hasPrefix("warning: c.fit: at byte \(first.count + second.count * 3 / 5): ") })
    }

    @Test("fuse reads a damaged FIT file with its warnings on stderr and exits 0")
    func salvageThroughFuse() throws {
        let url = try #require(
            Bundle.module.url(forResource: "truncated.fit", withExtension: nil, subdirectory: "Fixtures/FIT"))
        let run = runAltimetry(["fuse", url.path])
        #expect(run.code == .success)
        #expect(run.err.contains("warning: \(url.path): at byte 4584: ") && run.out.split(separator: "\n").count == 178)
    }

    @Test("Record altitude is barometric by default: a pressure through the standard atmosphere, not a GPS fix")
    func barometricDefault() throws {
        let reading = try FITReader.read(Self.fixture("activity_le.fit"), file: "a.fit")
        #expect(reading.elevation == .barometric)
        let rows = reading.table.rows
        #expect(rows.count == 300)
        #expect(rows.allSatisfy { $0.gpsAltitude == nil })
        let row = try #require(rows.first)
        let altitude = try #require(try Self.decode(Self.fixture("activity_le.fit")).records.first?.enhancedAltitude)
        let pressure = try #require(row.pressure)
        // p = 1013.25 (1 - L h / T0)^n, inverted independently here.
        let back = 288.15 / 0.0065 * (1 - pow(pressure / 1013.25, 1 / 5.255_877))
        #expect(abs(back - altitude) < 0.01, "\(back) vs \(altitude)")
        #expect(rows.filter { $0.latitude == nil }.count == 8, "records with an invalid position have none")
        #expect(rows.filter { $0.temperature == nil }.count == 7, "records with an invalid temperature have none")
        let gps = try FITReader.read(Self.fixture("activity_le.fit"), file: "a.fit", elevation: .gps)
        #expect(gps.table.rows.allSatisfy { $0.pressure == nil })
        #expect(gps.table.rows.filter { $0.gpsAltitude != nil }.count == 300 - 8)
    }

    @Test("gps_metadata altitudes are GPS fixes beside the barometric records, in time order")
    func gnssBesideBarometer() throws {
        let rows = try FITReader.read(Self.fixture("gps_metadata.fit"), file: "g.fit").table.rows
        #expect(rows.count == 200)
        #expect(rows.filter { $0.gpsAltitude != nil }.count == 100)
        #expect(rows.filter { $0.pressure != nil }.count == 100)
        #expect(zip(rows, rows.dropFirst()).allSatisfy { $0.time <= $1.time })
    }

    @Test("absolute_pressure, where recorded, is the pressure; big-endian fields read right")
    func absolutePressure() throws {
        let messages = try Self.decode(Self.fixture("activity_be.fit"))
        let rows = try FITReader.read(Self.fixture("activity_be.fit"), file: "b.fit").table.rows
        for (row, record) in zip(rows, messages.records) {
            if let pascals = record.absolutePressure {
                #expect(row.pressure == pascals / 100)
            } else {
                #expect(row.pressure != nil, "falls back to the barometric altitude")
            }
            #expect((row.latitude ?? 0) < 0 && (row.longitude ?? 0) < 0)
        }
        #expect(messages.manufacturer == 255 && messages.product == 42)
    }
}

extension FITReaderTests {
    @Test(
        "barometer_data samples are the pressure, in time order among the records, whose barometric altitude is not used besides"
    )
    func barometerData() throws {
        let messages = try Self.decode(Self.fixture("barometer.fit"))
        let reading = try FITReader.read(Self.fixture("barometer.fit"), file: "b.fit")
        let rows = reading.table.rows
        let valid = messages.barometerSamples.filter { $0.pressure != nil && $0.time != nil }
        #expect(valid.count == 60 * 4 - 1 + 2, "4 samples in 60 messages, one invalid, and the short message's 2")
        #expect(rows.count == messages.records.count + valid.count)
        let pressures = rows.filter { $0.pressure != nil }
        #expect(pressures.count == valid.count, "only the samples carry a pressure")
        #expect(pressures.allSatisfy { $0.latitude == nil && $0.gpsAltitude == nil })
        #expect(rows.filter { $0.latitude != nil }.count == messages.records.count, "the records keep their positions")
        #expect(zip(rows, rows.dropFirst()).allSatisfy { $0.time <= $1.time })
        // Sample j of the message at second k (even) is at k + 0.12 + 0.5 j s, Pa to hPa.
        let first = try #require(pressures.first)
        let start = try #require(messages.records.first?.time)
        #expect(abs(first.time - (start + 0.12)) < 1e-9)
        #expect(first.pressure == 973.05)
        #expect(reading.table.notices.contains { $0.contains("barometer_data") })
        // With --ele gps the records' altitude is a GPS fix beside the barometer's stream.
        let gps = try FITReader.read(Self.fixture("barometer.fit"), file: "b.fit", elevation: .gps).table.rows
        #expect(gps.filter { $0.gpsAltitude != nil }.count == messages.records.count)
        #expect(gps.filter { $0.pressure != nil }.count == valid.count)
    }

    @Test(
        "A record out of range is an error naming the message and field; --skip-invalid reports it and goes on",
        arguments: [
            (7, "position_lat", "latitude"), (11, "temperature", "air temperature"), (15, "timestamp", "backwards"),
        ])
    func badRecord(message: Int, field: String, says: String) throws {
        let data = try Self.fixture("bad_values.fit")
        do {
            _ = try FITReader.read(data, file: "bad.fit")
            Issue.record("bad.fit was accepted")
        } catch {
            // The first bad record stops the read.
            #expect(
                error.description.hasPrefix("bad.fit:7: field 'position_lat': in message 7: found 99.99"), "\(error)")
        }
        let table = try FITReader.read(data, file: "bad.fit", skipInvalid: true).table
        #expect(table.rows.count == 20, "every record is a row")
        #expect(table.skipped.map(\.line) == [7, 11, 15], "problems in file order")
        let problem = try #require(table.skipped.first { $0.line == message })
        #expect(
            problem.description.contains("bad.fit:\(message): field '\(field)'") && problem.description.contains(says),
            "\(problem)")
        let row = try #require(table.rows.first { $0.line == message })
        #expect(row.invalidReason == problem.message)
        #expect(table.rows.filter { $0.invalidReason == nil }.count == 17)
    }
}

@Suite("FIT CRC")
struct FITCRCTests {
    @Test("The sliced CRC equals the FIT SDK's nibble algorithm on random bytes, and CRC-16/ARC's check value")
    func byteTable() {
        var random = SeededGenerator(seed: 16)
        // Lengths around the 8-byte slices, and ranges that start inside the buffer.
        for length in [0, 1, 2, 7, 8, 9, 13, 16, 17, 100, 1_000] {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let nibbles = bytes.reduce(UInt16(0), FITCRC.nibbleStep)
            #expect(bytes.withUnsafeBytes { FITCRC.checksum($0, 0..<length) } == nibbles, "length \(length)")
            if length > 3 {
                let tail = bytes.dropFirst(3).reduce(UInt16(0), FITCRC.nibbleStep)
                #expect(bytes.withUnsafeBytes { FITCRC.checksum($0, 3..<length) } == tail, "from 3, length \(length)")
            }
        }
        // CRC-16/ARC of "123456789" is 0xBB3D (the catalogue's check value).
        #expect(Array("123456789".utf8).withUnsafeBytes { FITCRC.checksum($0, 0..<9) } == 0xBB3D)
    }

    @Test("A field's integer, read in one load for 1, 2, 4 and 8 bytes, is the bytes' value in either byte order")
    func integerReads() {
        var random = SeededGenerator(seed: 44)
        let bytes = (0..<64).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        bytes.withUnsafeBytes { raw in
            for size in 1...8 {
                for offset in 0...(64 - size) {
                    var little: UInt64 = 0, big: UInt64 = 0
                    for k in 0..<size {
                        little |= UInt64(bytes[offset + k]) << (8 * k)
                        big = big << 8 | UInt64(bytes[offset + k])
                    }
                    #expect(FITDecoder.read(raw, offset, size, bigEndian: false) == little, "size \(size) at \(offset)")
                    #expect(FITDecoder.read(raw, offset, size, bigEndian: true) == big, "size \(size) at \(offset)")
                }
            }
        }
        // The base types' sizes, from the FIT profile's table (enum, sint8, uint8, sint16, uint16, sint32, uint32,
        // string, float32, float64, uint8z, uint16z, uint32z, byte, sint64, uint64, uint64z).
        #expect((0...16).map { FITDecoder.baseSize(UInt8($0)) } == [1, 1, 1, 2, 2, 4, 4, 1, 4, 8, 1, 2, 4, 1, 8, 8, 8])
        #expect(FITDecoder.baseSize(17) == 0 && FITDecoder.baseSize(31) == 0)
    }
}
