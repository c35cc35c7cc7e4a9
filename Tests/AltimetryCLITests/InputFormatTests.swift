import Foundation
import Testing

@testable import AltimetryIO

@Suite("Input format detection")
struct InputFormatTests {
    static func detect(_ text: String, name: String = "upload") -> InputFormat {
        InputFormat.detect(leading: Array(text.utf8), name: name)
    }

    @Test("FIT is known by '.FIT' at byte 8, whatever the name")
    func fitByHeader() throws {
        let data = try FITReaderTests.fixture("barometer.fit")
        for name in ["upload", "track.csv", "-", "a.gpx"] {
            #expect(InputFormat.detect(leading: Array(data.prefix(64)), name: name) == .track(.fit), "\(name)")
        }
    }

    @Test(
        "GPX and TCX are known by their root element after a declaration, comments, a DOCTYPE and a prefix",
        arguments: [
            ("<?xml version=\"1.0\"?>\n<gpx version=\"1.1\">", InputFormat.track(.gpx)),
            ("\n  <!-- exported --><!DOCTYPE gpx><gpx>", .track(.gpx)),
            ("<?xml version=\"1.0\"?><g:gpx xmlns:g=\"x\">", .track(.gpx)),
            ("<?xml version=\"1.0\"?>\r\n<TrainingCenterDatabase xmlns=\"x\">", .track(.tcx)),
            ("<ns:TrainingCenterDatabase>", .track(.tcx)),
        ])
    func xmlByRoot(text: String, expected: InputFormat) {
        #expect(Self.detect(text) == expected)
        #expect(Self.detect(text, name: "wrong.csv") == expected)
    }

    @Test("A JSON object line is NDJSON; anything else goes by the extension, else CSV")
    func jsonThenExtension() {
        #expect(Self.detect("  {\"t\": 1, \"pressure_hpa\": 1000}\n") == .ndjson)
        #expect(Self.detect("t,pressure_hpa\n0,1000\n") == .csv)
        #expect(Self.detect("t,pressure_hpa\n", name: "a.ndjson") == .ndjson)
        #expect(Self.detect("<html>", name: "a.gpx") == .track(.gpx))
        #expect(Self.detect("<html>") == .csv)
        #expect(Self.detect("") == .csv)
        #expect(Self.detect("", name: "A.TCX") == .track(.tcx))
    }
}

extension InputFormatTests {
    @Test("A few bytes decide CSV and NDJSON; FIT, XML before its root tag and an unfinished A record ask for more")
    func howManyBytes() {
        #expect(!InputFormat.needsMoreBytes(Array("t,pressure_hpa,gps_alt_m\n".utf8)))
        #expect(!InputFormat.needsMoreBytes(Array("{\"t\": 0, \"pressure_hpa\": 1000}".utf8)))
        #expect(InputFormat.needsMoreBytes(Array("t,press".utf8)))
        #expect(InputFormat.needsMoreBytes(Array("<?xml version=\"1.0\"?><!-- a long".utf8)))
        #expect(!InputFormat.needsMoreBytes(Array("<?xml version=\"1.0\"?><gpx creator=\"x\">".utf8)))
        #expect(InputFormat.needsMoreBytes(Array("AXXXABC FLIGHT:1 and more".utf8)))
        #expect(!InputFormat.needsMoreBytes(Array("AXXXABC FLIGHT:1\r\nHFDTE010203".utf8)))
    }
}
