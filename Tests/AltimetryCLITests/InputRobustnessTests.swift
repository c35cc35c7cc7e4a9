import Altimetry
import Foundation
import Randomness
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

/// Seeded mutation testing of the readers and the fuser: random byte edits of valid CSV, NDJSON and GPX must give
/// either a result or a typed `InputError`, never a trap. A trap would abort the test process, so passing is the
/// property. (A libFuzzer harness would search harder; this runs in every `make test`.)
@Suite("Input robustness")
struct InputRobustnessTests {
    static let csv = """
        # a comment
        t,pressure_hpa,gps_alt_m,gps_vacc_m,temperature_c,track_id,true_alt_m
        0,1001.25,101.5,4.2,12.5,a,100
        1,1001.24,,,,a,100.2
        1.5,,102.25,3.9,,b,100.4
        2,1001.2,99.75,,12.4,b,100.5
        3,100.12,103,5,,a,100.7
        4,1001.1,-inf,5,,a,100.9

        """
    static let ndjson = """
        {"t": 0, "pressure_hpa": 1001.25, "gps_alt_m": 101.5}
        {"t": 1, "pressure_kpa": 100.124}
        {"t": 2, "gps_alt_ellipsoid_m": 140.5, "geoid_sep_m": 40.1, "gps_vacc_m": 3}
        {"t": 3, "pressure_pa": 100110, "gps_alt_m": 99.5, "track_id": "x"}

        """
    static let gpx = """
        <?xml version="1.0"?><gpx version="1.1"><trk><trkseg>
        <trkpt lat="1" lon="2"><ele>101.5</ele><time>2024-05-01T10:00:00Z</time></trkpt>
        <trkpt lat="1" lon="2"><ele>102.0</ele><time>2024-05-01T10:00:01Z</time></trkpt>
        </trkseg></trk></gpx>

        """

    static let tcx = """
        <?xml version="1.0"?><TrainingCenterDatabase><Activities><Activity><Lap><Track>
        <Trackpoint><Time>2024-05-01T10:00:00Z</Time><Position><LatitudeDegrees>1</LatitudeDegrees><LongitudeDegrees>2</LongitudeDegrees></Position><AltitudeMeters>101.5</AltitudeMeters></Trackpoint>
        <Trackpoint><Time>2024-05-01T10:00:01Z</Time><AltitudeMeters>102</AltitudeMeters></Trackpoint>
        </Track></Lap><Creator><Name>x</Name></Creator></Activity></Activities></TrainingCenterDatabase>

        """

    static func mutate(_ text: String, using random: inout SeededGenerator) -> Data {
        var bytes = Array(text.utf8)
        let alphabet = Array(",.-+eE0123456789\n\r\"{}:<>/ #nainfNaN\u{0}\u{ff}".utf8)
        for _ in 0..<(1 + Int(random.next() % 6)) where !bytes.isEmpty {
            let i = Int(random.next() % UInt64(bytes.count))
            switch random.next() % 4 {
            case 0: bytes[i] = alphabet[Int(random.next() % UInt64(alphabet.count))]
            case 1: bytes.remove(at: i)
            case 2: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: i)
            default: bytes = Array(bytes[..<i])  // truncation
            }
        }
        return Data(bytes)
    }

    @Test("Mutated inputs give a result or a typed error, never a crash", arguments: ["csv", "ndjson", "gpx", "tcx"])
    func mutations(format: String) throws {
        let base = format == "csv" ? Self.csv : format == "ndjson" ? Self.ndjson : format == "gpx" ? Self.gpx : Self.tcx
        var random = SeededGenerator(seed: 2026)
        var outcomes = (ok: 0, errors: 0)
        for skipInvalid in [false, true] {
            for _ in 0..<1_000 {
                let data = Self.mutate(base, using: &random)
                do {
                    let options = ReadOptions(skipInvalid: skipInvalid)
                    let table =
                        try format == "csv"
                        ? CSVReader.read(data, file: "fuzz.csv", options: options)
                        : format == "ndjson"
                            ? NDJSONReader.read(data, file: "fuzz.ndjson", options: options)
                            : format == "gpx"
                                ? GPXReader.table(data, file: "fuzz.gpx")
                                : TCXReader.read(data, file: "fuzz.tcx").table
                    _ = try fuseRows(table, skipInvalid: skipInvalid)
                    outcomes.ok += 1
                } catch {
                    #expect(!error.description.isEmpty)
                    outcomes.errors += 1
                }
            }
        }
        // Both paths were exercised. (This found a trap in Foundation's XMLParser on malformed UTF-8 inside a
        // tag; the GPX reader now checks the encoding first.)
        #expect(outcomes.ok > 0 && outcomes.errors > 0, "\(outcomes)")
    }

    /// A FIT file with random edits, half of them with both CRCs made right again so the edits reach the
    /// decoder's definitions and data messages instead of stopping at the checksum.
    static func mutateFIT(_ original: [UInt8], using random: inout SeededGenerator) -> Data {
        var bytes = original
        for _ in 0..<(1 + Int(random.next() % 4)) where bytes.count > 16 {
            let i = Int(random.next() % UInt64(bytes.count))
            switch random.next() % 5 {
            case 0, 1: bytes[i] = UInt8(truncatingIfNeeded: random.next())
            case 2: bytes[i] ^= 1 << UInt8(random.next() % 8)
            case 3: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: i)
            default: bytes = Array(bytes[..<i])
            }
        }
        if random.next() % 2 == 0 && bytes.count >= 16 {
            if bytes[0] == 14 {
                let header = bytes.withUnsafeBytes { FITCRC.checksum($0, 0..<12) }
                bytes[12] = UInt8(header & 0xFF)
                bytes[13] = UInt8(header >> 8)
            }
            let n = bytes.count
            let whole = bytes.withUnsafeBytes { FITCRC.checksum($0, 0..<(n - 2)) }
            bytes[n - 2] = UInt8(whole & 0xFF)
            bytes[n - 1] = UInt8(whole >> 8)
        }
        return Data(bytes)
    }

    @Test("Mutated FIT files give a result or a typed error, never a crash", arguments: FITReaderTests.files)
    func fitMutations(file: String) throws {
        let original = try Array(FITReaderTests.fixture(file))
        var random = SeededGenerator(seed: 2026)
        var outcomes = (ok: 0, errors: 0)
        for k in 0..<1_500 {
            let data = Self.mutateFIT(original, using: &random)
            // Every other file with --skip-invalid, whose path keeps bad records as rejected rows.
            let skipInvalid = k % 2 == 1
            do {
                let table = try FITReader.read(data, file: "fuzz.fit", skipInvalid: skipInvalid).table
                _ = try fuseRows(table, skipInvalid: skipInvalid)
                outcomes.ok += 1
            } catch {
                #expect(!error.description.isEmpty)
                outcomes.errors += 1
            }
        }
        #expect(outcomes.ok > 0 && outcomes.errors > 0, "\(file): \(outcomes)")
    }

    @Test("A GPX file with a byte that is not UTF-8 is a clear error with its line and column")
    func invalidUTF8() throws {
        var bytes = Array(Self.gpx.utf8)
        let line2 = try #require(bytes.firstIndex(of: UInt8(ascii: "\n"))) + 1
        bytes.insert(0xC3, at: line2 + 15)
        #expect(throws: InputError.self) { try GPXReader.table(Data(bytes), file: "bad.gpx") }
        do {
            _ = try GPXReader.table(Data(bytes), file: "bad.gpx")
        } catch {
            #expect(error.description.contains("bad.gpx:2") && error.description.contains("column 16"), "\(error)")
        }
    }
}
