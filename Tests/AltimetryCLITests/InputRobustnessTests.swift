import Altimetry
import Foundation
import Randomness
import Testing
@testable import AltimetryCLI

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

    @Test("Mutated inputs give a result or a typed error, never a crash", arguments: ["csv", "ndjson", "gpx"])
    func mutations(format: String) throws {
        let base = format == "csv" ? Self.csv : format == "ndjson" ? Self.ndjson : Self.gpx
        var random = SeededGenerator(seed: 2026)
        var outcomes = (ok: 0, errors: 0)
        for skipInvalid in [false, true] {
            for _ in 0..<1_000 {
                let data = Self.mutate(base, using: &random)
                do {
                    let options = ReadOptions(skipInvalid: skipInvalid)
                    let table = try format == "csv" ? CSVReader.read(data, file: "fuzz.csv", options: options)
                        : format == "ndjson" ? NDJSONReader.read(data, file: "fuzz.ndjson", options: options)
                        : GPXReader.read(data, file: "fuzz.gpx")
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

    @Test("A GPX file with a byte that is not UTF-8 is a clear error with its line and column")
    func invalidUTF8() throws {
        var bytes = Array(Self.gpx.utf8)
        let line2 = try #require(bytes.firstIndex(of: UInt8(ascii: "\n"))) + 1
        bytes.insert(0xC3, at: line2 + 15)
        #expect(throws: InputError.self) { try GPXReader.read(Data(bytes), file: "bad.gpx") }
        do {
            _ = try GPXReader.read(Data(bytes), file: "bad.gpx")
        } catch {
            #expect(error.description.contains("bad.gpx:2") && error.description.contains("column 16"), "\(error)")
        }
    }
}
