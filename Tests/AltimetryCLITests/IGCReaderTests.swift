import Altimetry
import Foundation
import Randomness
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

/// The IGC reader against aerofiles (an independent Python parser): `Fixtures/IGC/expected.json` holds the fixes
/// of each fixture as aerofiles reads them, written by `Fixtures/IGC/make_igc_fixture.py`; the real files are
/// from aerofiles' test data (MIT licence, `LICENSE-aerofiles` beside them), `midnight.igc` is generated there.
@Suite("IGC reader")
struct IGCReaderTests {
    static func fixture(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures/IGC"))
        return try Data(contentsOf: url)
    }

    /// aerofiles' fixes of one file, a field's values in file order.
    struct Expected: Decodable {
        var time: [Double]
        var latitude: [Double]
        var longitude: [Double]
        var valid: [Bool]
        var pressure_altitude: [Int]
        var gnss_altitude: [Int]
        var latitude_extra_digit: [Int?]
        var longitude_extra_digit: [Int?]
    }

    static func expected(_ name: String) throws -> Expected {
        let all = try JSONDecoder().decode([String: Expected].self, from: fixture("expected.json"))
        return try #require(all[name])
    }

    static func igc(_ records: [String]) -> Data { Data(records.joined(separator: "\r\n").utf8 + [13, 10]) }

    @Test(
        "Every fix reads as aerofiles reads it: time, position (with LAD and LOD), validity, both altitudes",
        arguments: ["skydrop-2019-04-15.igc", "xctrack-2020-09-04.igc", "midnight.igc"])
    func matchesAerofiles(name: String) throws {
        let expected = try Self.expected(name)
        let reading = try IGCReader.read(Self.fixture(name), file: name)
        let rows = reading.table.rows
        #expect(rows.count == expected.time.count)
        #expect(reading.elevation == .barometric)
        for (k, row) in rows.enumerated() {
            #expect(row.time == expected.time[k], "\(name) fix \(k)")
            // aerofiles leaves LAD and LOD out of the position: they add a digit to the minutes.
            let sign = { (x: Double) in x < 0 ? -1.0 : 1.0 }
            let latitude =
                expected.latitude[k]
                + sign(expected.latitude[k]) * Double(expected.latitude_extra_digit[k] ?? 0) / 10_000 / 60
            let longitude =
                expected.longitude[k]
                + sign(expected.longitude[k]) * Double(expected.longitude_extra_digit[k] ?? 0) / 10_000 / 60
            #expect(abs(try #require(row.latitude) - latitude) < 1e-9, "\(name) fix \(k)")
            #expect(abs(try #require(row.longitude) - longitude) < 1e-9, "\(name) fix \(k)")
            #expect(
                row.gpsAltitude == (expected.valid[k] ? Double(expected.gnss_altitude[k]) : nil), "\(name) fix \(k)")
            let pressure = try #require(row.pressure, "\(name) fix \(k)")
            let altitude = try StandardAtmosphere.altitude(atPressure: pressure)
            #expect(abs(altitude - Double(expected.pressure_altitude[k])) < 1e-6, "\(name) fix \(k)")
        }
    }

    @Test("A flight across midnight UTC goes on into the next day (here the next year); 'V' fixes keep the pressure")
    func midnightAndInvalidFixes() throws {
        let rows = try IGCReader.read(Self.fixture("midnight.igc"), file: "midnight.igc").table.rows
        #expect(zip(rows, rows.dropFirst()).allSatisfy { $1.time - $0.time == 1 })
        #expect(rows.last?.time == 1_704_067_209)  // 2024-01-01T00:00:09Z
        let flagged = rows.filter { $0.gpsAltitude == nil }
        #expect(flagged.map(\.line) == [13, 14, 15] && flagged.allSatisfy { $0.pressure != nil })
    }

    @Test("Both date forms read the same: HFDTEDDMMYY and HFDTEDATE:DDMMYY,NN")
    func dateForms() throws {
        let fix = "B1200004630000N00754000EA0050000530"
        let old = try IGCReader.read(Self.igc(["AXXX1", "HFDTE150419", fix]), file: "a.igc").table.rows
        let new = try IGCReader.read(Self.igc(["AXXX1", "HFDTEDATE:150419,01", fix]), file: "b.igc").table.rows
        #expect(old.first?.time == 1_555_329_600 && old.first?.time == new.first?.time)
    }

    @Test(
        "A bad record is named by file, line, field and columns, with what is expected",
        arguments: [
            (
                ["AXXX1", "HFDTE150419", "B1200004630000N00754000EA0050000530", "B1200014699000N00754000EA0050000530"],
                "x.igc:4: column 8 'latitude': found '4699000N' in columns 8-15; expected DDMMmmmN or S "
                    + "(degrees 0-90, minutes below 60)" + InvalidRowCollector.skipHint
            ),
            (
                ["AXXX1", "HFDTE150419", "B1200004630000N00754000EX0050000530"],
                "x.igc:3: column 25 'fix validity': found 'X' in columns 25-25; expected A (3D fix) or V (no GNSS altitude)"
                    + InvalidRowCollector.skipHint
            ),
            (
                ["AXXX1", "HFDTE150419", "B1200004630000N00754000EA00500005"],
                "x.igc:3: found a B record of 33 characters; expected at least 35 (time, latitude, longitude, fix "
                    + "validity, pressure altitude, GNSS altitude)" + InvalidRowCollector.skipHint
            ),
            (
                ["AXXX1", "B1200004630000N00754000EA0050000530"],
                "x.igc:2: found a B record before the date; expected an HFDTE record (HFDTEDDMMYY) before the fixes"
            ),
            (
                ["AXXX1", "HFDTE310219", "B1200004630000N00754000EA0050000530"],
                "x.igc:2: column 6 'date': found 'HFDTE310219'; expected HFDTEDDMMYY or HFDTEDATE:DDMMYY,NN (a UTC date)"
            ),
            (
                ["AXXX1", "HFDTE150419", "I013636LA", "B1200004630000N00754000EA0050000530"],
                "x.igc:3: column 4 'extensions': found '9 characters' in columns 4-9; expected 1 extensions of 7 "
                    + "characters (SSFFCCC), 10 characters in all"
            ),
            (
                ["AXXX1", "HFDTE150419", "B1200004630000N00754000EA0050000530", "B1159594630000N00754000EA0050000530"],
                "x.igc:4: column 2 'time': time went backwards: found 11:59:59 after 12:00:00; expected times that "
                    + "never decrease (a day later only across midnight); --skip-invalid rejects the record and reads on"
            ),
        ])
    func badRecords(records: [String], message: String) {
        #expect(throws: InputError.self) { try IGCReader.read(Self.igc(records), file: "x.igc") }
        do {
            _ = try IGCReader.read(Self.igc(records), file: "x.igc")
        } catch {
            #expect(error.description == message)
            #expect(error.exitCode == .dataError)
        }
    }

    @Test("--skip-invalid keeps a bad fix as a rejected row and reads on")
    func skipInvalid() throws {
        let records = [
            "AXXX1", "HFDTE150419", "B1200004630000N00754000EA0050000530", "B1200014630000N00754000EA00x0000530",
            "B1200024630000N00754000EA0050200532",
        ]
        let table = try IGCReader.read(Self.igc(records), file: "s.igc", skipInvalid: true).table
        #expect(table.rows.count == 3)
        #expect(table.rows[1].invalidReason?.hasPrefix("found '00x00' in columns 26-30") == true)
        #expect(table.rows[1].pressure == nil && table.rows[1].gpsAltitude == nil)
        #expect(table.skipped.map(\.line) == [4])
        #expect(table.rows[2].pressure != nil && table.rows[2].gpsAltitude == 532)
    }

    @Test("Zero placeholders are not altitudes: no pressure sensor, no GNSS altitude, or neither (an error)")
    func zeroPlaceholders() throws {
        let phone = try IGCReader.read(Self.fixture("xctrack-2022-04-07.igc"), file: "p.igc")
        #expect(phone.elevation == .gps && phone.table.rows.allSatisfy { $0.pressure == nil })
        #expect(phone.elevationNote.contains("every pressure altitude is 0, no pressure sensor"))
        let noGNSS = try IGCReader.read(
            Self.igc(["AXXX1", "HFDTE150419", "B1200004630000N00754000EA0050000000"]), file: "g.igc")
        #expect(noGNSS.table.rows.allSatisfy { $0.gpsAltitude == nil && $0.pressure != nil })
        #expect(throws: InputError.self) {
            try IGCReader.read(
                Self.igc(["AXXX1", "HFDTE150419", "B1200004630000N00754000EA0000000000"]), file: "z.igc")
        }
        // Zeros before the sensors read, then real altitudes: the first two fixes carry no reading.
        let start = try IGCReader.read(
            Self.igc([
                "AXXX1", "HFDTE150419", "B1200004630000N00754000EA0000000000", "B1200014630000N00754000EA0000000000",
                "B1200024630000N00754000EA0120001250", "B1200034630000N00754000EA0120101251",
            ]), file: "s.igc")
        #expect(start.table.rows.map { $0.pressure == nil } == [true, true, false, false])
        #expect(start.table.rows.map { $0.gpsAltitude == nil } == [true, true, false, false])
    }

    @Test("fuse reads an IGC file by its content, with or without the extension, and from standard input alike")
    func fuseByContent() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let data = try Self.fixture("skydrop-2019-04-15.igc")
        let named = directory.path("flight.igc"), bare = directory.path("flight")
        try data.write(to: URL(fileURLWithPath: named))
        try data.write(to: URL(fileURLWithPath: bare))
        let a = runAltimetry(["fuse", named]), b = runAltimetry(["fuse", bare])
        #expect(a.code == .success && a.out == b.out && a.out.split(separator: "\n").count == 534)
        let piped = try ExecutableTests.run(["fuse", "-"], input: data)
        #expect(piped.status == 0 && piped.out == a.out)
        #expect(InputFormat.detect(leading: Array("A,B\n1,2\n".utf8), name: "x") == .csv)
    }

    @Test("Mutated files give a typed error or rows with finite times and in-range values", arguments: 0..<8)
    func mutations(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let original = try [UInt8](Self.fixture("midnight.igc"))
        for _ in 0..<250 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let k = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[k] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes.remove(at: k)
                default: bytes.insert(bytes[k], at: k)
                }
            }
            do {
                let reading = try IGCReader.read(Data(bytes), file: "m.igc", skipInvalid: seed % 2 == 1)
                for row in reading.table.rows where row.invalidReason == nil {
                    #expect(row.time.isFinite && row.line > 0, "seed \(seed)")
                    #expect(row.pressure.map { $0.isFinite && $0 > 0 } ?? true, "seed \(seed)")
                    #expect(row.gpsAltitude.map { abs($0) < 100_000 } ?? true, "seed \(seed)")
                }
            } catch {
                #expect(!error.message.isEmpty && error.exitCode == .dataError, "seed \(seed)")
            }
        }
    }
}
