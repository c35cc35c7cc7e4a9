import Foundation
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

@Suite("GPX reader")
struct GPXReaderTests {
    static func gpx(_ points: String, creator: String = "test", root: String = "") -> Data {
        Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="\(creator)" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"\(root)>
            <trk><name>Morning hike</name><type>hiking</type><trkseg>
            \(points)
            </trkseg></trk></gpx>
            """.utf8)
    }

    static let point = """
        <trkpt lat="46.5" lon="7.9"><ele>1200.5</ele><time>2024-05-01T12:00:00Z</time>\
        <extensions><gpxtpx:TrackPointExtension><gpxtpx:atemp>12.5</gpxtpx:atemp><gpxtpx:hr>130</gpxtpx:hr>\
        </gpxtpx:TrackPointExtension></extensions></trkpt>
        """

    @Test("A point's position, time, elevation and atemp are read; extensions and track elements are kept as written")
    func reads() throws {
        let reading = try GPXReader.read(Self.gpx(Self.point), file: "a.gpx")
        let row = try #require(reading.table.rows.first)
        #expect(row.latitude == 46.5 && row.longitude == 7.9 && row.time == 1_714_564_800)
        #expect(row.gpsAltitude == 1200.5 && row.pressure == nil)
        #expect(row.temperature == 12.5 + 273.15)
        let document = try #require(reading.gpx)
        let point = try #require(document.points.first)
        #expect(document.extensions(point).contains("<gpxtpx:hr>130</gpxtpx:hr>"))
        #expect(document.children(point) == "<time>2024-05-01T12:00:00Z</time>")
        #expect(document.text(point.latitude) == "46.5" && document.text(point.longitude) == "7.9")
        #expect(document.tracks.first?.header == "<name>Morning hike</name><type>hiking</type>")
        #expect(
            document.namespaceDeclarations == [
                "xmlns:gpxtpx=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v1\""
            ])
    }

    /// A self-closing `<extensions/>` ends at its own start tag: its content is empty, not a range that ends
    /// before it begins (which trapped).
    @Test("A self-closing <extensions/> is an empty extension, also before the point's other children")
    func selfClosingExtensions() throws {
        for point in [
            #"<trkpt lat="1" lon="2"><ele>3</ele><time>2024-05-01T12:00:00Z</time><extensions/></trkpt>"#,
            #"<trkpt lat="1" lon="2"><extensions/><ele>3</ele><time>2024-05-01T12:00:00Z</time></trkpt>"#,
            #"<trkpt lat="1" lon="2"><ele>3</ele><time>2024-05-01T12:00:00Z</time><extensions /></trkpt>"#,
        ] {
            let reading = try GPXReader.read(Self.gpx(point), file: "e.gpx")
            #expect(reading.table.rows.first?.gpsAltitude == 3, "\(point)")
            let document = try #require(reading.gpx)
            let read = try #require(document.points.first)
            #expect(document.extensions(read) == "", "\(point)")
        }
    }

    @Test(
        "lat=999 and other positions outside the globe are refused, naming the field (they were taken silently)",
        arguments: [
            "lat=\"999\" lon=\"7\"", "lat=\"45\" lon=\"-181\"", "lat=\"nan\" lon=\"7\"", "lat=\"0x1p3\" lon=\"7\"",
            "lon=\"7\"", "lat=\"1\" lat=\"2\" lon=\"7\"",
        ])
    func positions(attributes: String) throws {
        let data = Self.gpx("<trkpt \(attributes)><time>2024-05-01T12:00:00Z</time></trkpt>")
        #expect {
            _ = try GPXReader.read(data, file: "p.gpx")
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("p.gpx:4: field '") && (text.contains("'lat'") || text.contains("'lon'"))
        }
    }

    @Test(
        "With --skip-invalid a bad point is reported with its line and field, kept as a rejected row, and the next is read",
        arguments: [
            ("<trkpt lat=\"999\" lon=\"7\"><time>2024-05-01T12:00:00Z</time></trkpt>", "p.gpx:4: field 'lat'"),
            ("<trkpt lat=\"1\" lat=\"2\" lon=\"7\"><time>2024-05-01T12:00:00Z</time></trkpt>", "p.gpx:4: field 'lat'"),
            ("<trkpt lon=\"7\"><ele>1</ele><time>2024-05-01T12:00:00Z</time></trkpt>", "p.gpx:4: field 'lat'"),
            (
                "<trkpt lat=\"1\" lon=\"7\"><ele>high</ele><time>2024-05-01T12:00:00Z</time></trkpt>",
                "p.gpx:4: field 'ele'"
            ),
            ("<trkpt lat=\"1\" lon=\"7\"><time>2024-02-30T12:00:00Z</time></trkpt>", "p.gpx:4: field 'time'"),
            ("<trkpt lat=\"1\" lon=\"7\"><ele>1</ele></trkpt>", "p.gpx:4: field 'time'"),
            (
                "<trkpt lat=\"1\" lon=\"7\"><time>2024-05-01T12:00:00Z</time><extensions><gpxtpx:TrackPointExtension>"
                    + "<gpxtpx:atemp>500</gpxtpx:atemp></gpxtpx:TrackPointExtension></extensions></trkpt>",
                "p.gpx:4: field 'atemp'"
            ),
            (
                "<trkpt lat=\"1\" lon=\"7\"><time>2024-05-01T12:00:05Z</time></trkpt>\n"
                    + "<trkpt lat=\"1\" lon=\"7\"><time>2024-05-01T12:00:04Z</time></trkpt>",
                "p.gpx:5: field 'time': time went backwards"
            ),
        ])
    func skipInvalid(points: String, prefix: String) throws {
        let next = "\n<trkpt lat=\"46.5\" lon=\"7.9\"><ele>1201</ele><time>2024-05-01T12:00:09Z</time></trkpt>"
        let data = Self.gpx(points + next)
        #expect {
            _ = try GPXReader.read(data, file: "p.gpx")
        } throws: { error in
            "\(error)".hasPrefix(prefix)
        }
        let reading = try GPXReader.read(data, file: "p.gpx", skipInvalid: true)
        let table = reading.table
        try #require(table.skipped.count == 1, "\(table.skipped)")
        #expect(table.skipped[0].description.hasPrefix(prefix), "\(table.skipped[0])")
        let bad = try #require(table.rows.first { $0.invalidReason != nil })
        #expect(bad.invalidReason == table.skipped[0].message && bad.line == table.skipped[0].line)
        let last = try #require(table.rows.last)
        #expect(last.invalidReason == nil && last.gpsAltitude == 1201 && last.time == 1_714_564_809)
        // A point is a GPX output point when its position is valid: the document has one per row with a position.
        let document = try #require(reading.gpx)
        #expect(document.points.count == table.rows.filter { $0.latitude != nil }.count)
        #expect(document.text(try #require(document.points.last).latitude) == "46.5")
    }

    @Test("A 35-digit fraction of a second is a time, not a crash")
    func longFraction() throws {
        let time = "2024-05-01T12:00:14." + String(repeating: "0", count: 35) + "Z"
        let rows = try GPXReader.table(
            Self.gpx("<trkpt lat=\"1\" lon=\"2\"><time>\(time)</time></trkpt>"), file: "f.gpx"
        ).rows
        #expect(rows.first?.time == 1_714_564_814)
    }

    @Test("A track point with 200,000 attributes is read in linear time (it took 28 s, quadratic)")
    func manyAttributes() throws {
        var attributes = ""
        attributes.reserveCapacity(200_000 * 12)
        for k in 0..<200_000 { attributes += " a\(k)=\"1\"" }
        let data = Self.gpx("<trkpt lat=\"1\" lon=\"2\"\(attributes)><time>2024-05-01T12:00:00Z</time></trkpt>")
        let clock = ContinuousClock()
        let start = clock.now
        let rows = try GPXReader.table(data, file: "many.gpx").rows
        let elapsed = clock.now - start
        #expect(rows.count == 1)
        // A guard against the quadratic cost coming back, not a speed target: a linear pass over these 2.6 MB takes
        // milliseconds even in a debug build on a loaded machine; the quadratic one took 28 s.
        #expect(elapsed < .seconds(5), "\(elapsed)")
    }

    @Test("--ele barometric reads ele as a pressure through the standard atmosphere, and never as a GPS fix")
    func barometric() throws {
        let reading = try GPXReader.read(Self.gpx(Self.point), file: "b.gpx", elevation: .barometric)
        let row = try #require(reading.table.rows.first)
        #expect(row.gpsAltitude == nil)
        let pressure = try #require(row.pressure)
        // The ICAO standard atmosphere: p = 1013.25 (1 − L h / T₀)^(g M / (R L)).
        let exponent = 9.806_65 * 0.028_964_4 / (8.314_462_618 * 0.0065)
        #expect(abs(pressure - 1013.25 * pow(1 - 0.0065 * 1200.5 / 288.15, exponent)) < 1e-9)
    }

    @Test(
        "The default elevation follows the creator: a device with a barometer gives barometric",
        arguments: [
            ("Garmin Connect", ElevationSource.gps), ("fenix 7X", .barometric), ("Edge 830", .barometric),
            ("Strava iPhone", .gps), ("COROS APEX 2", .barometric),
        ])
    func defaults(creator: String, expected: ElevationSource) throws {
        let reading = try GPXReader.read(Self.gpx(Self.point, creator: creator), file: "c.gpx")
        #expect(reading.elevation == expected)
        #expect(reading.elevationNote.contains(expected.rawValue))
    }

    @Test(
        "Malformed XML is an error with line and column",
        arguments: [
            "<trkpt lat=\"1\" lon=\"2\"><time>2024-05-01T12:00:00Z</time></trkseg>",
            "<trkpt lat=1 lon=\"2\"><time>2024-05-01T12:00:00Z</time></trkpt>",
            "<trkpt lat=\"1\" lon=\"2\"><time>2024-05-01T12:00:00Z&bogus;</time></trkpt>",
        ])
    func malformed(points: String) {
        #expect {
            _ = try GPXReader.read(Self.gpx(points), file: "m.gpx")
        } throws: { error in
            "\(error)".hasPrefix("m.gpx:4: malformed GPX (XML error at column ")
        }
    }

    @Test("A UTF-8 byte-order mark, comments, CDATA and entities are read")
    func xmlForms() throws {
        var data = Data([0xEF, 0xBB, 0xBF])
        data.append(
            Self.gpx(
                "<!-- a comment --><trkpt lat=\"1\" lon=\"2\"><ele><![CDATA[12]]></ele><time>2024-05-01T12:00:00&#x5A;</time></trkpt>"
            ))
        let row = try #require(try GPXReader.table(data, file: "x.gpx").rows.first)
        #expect(row.gpsAltitude == 12 && row.time == 1_714_564_800)
    }

    @Test("Values in pieces or with references (comments, CDATA, &#N;) read as if written plainly, times as written")
    func valuesInPieces() throws {
        func point(_ ele: String, _ time: String, _ atemp: String) -> String {
            "<trkpt lat=\"46.5\" lon=\"7.9\"><ele>\(ele)</ele><time>\(time)</time><extensions>"
                + "<gpxtpx:TrackPointExtension><gpxtpx:atemp>\(atemp)</gpxtpx:atemp></gpxtpx:TrackPointExtension>"
                + "</extensions></trkpt>\n"
        }
        let plain = Self.gpx(
            point("1200.5", "2024-05-01T12:00:00Z", "12.5") + point(" 1201 ", "2024-05-01T12:00:01.5Z", "-3")
                + point("1202", "2024-05-01T12:00:02Z", "4"))
        let pieces = Self.gpx(
            point("12<!-- c -->00.5", "2024-05-01T12:00:00&#x5A;", "1<![CDATA[2]]>.5")
                + point(" &#49;2<!---->01 ", "2024-05-01<![CDATA[T12]]>:00:01.5Z", "&#45;3")
                + point("<![CDATA[1202]]>", "&#50;024-05-01T12:00:02Z", "<!-- x -->4"))
        let a = try GPXReader.table(plain, file: "a.gpx")
        let b = try GPXReader.table(pieces, file: "a.gpx")
        #expect(a.rows.map(\.gpsAltitude) == [1200.5, 1201, 1202])
        let kelvin: [Double?] = [12.5, -3, 4].map { $0 + 273.15 }
        #expect(a.rows.map(\.temperature) == kelvin)
        #expect(a.rows.map(\.time) == [1_714_564_800, 1_714_564_801.5, 1_714_564_802])
        #expect(b.rows.map(\.gpsAltitude) == a.rows.map(\.gpsAltitude))
        #expect(b.rows.map(\.temperature) == a.rows.map(\.temperature))
        #expect(b.rows.map(\.time) == a.rows.map(\.time))
        let texts = try #require(b.timeTexts)
        let written = ["2024-05-01T12:00:00Z", "2024-05-01T12:00:01.5Z", "2024-05-01T12:00:02Z"]
        #expect((0..<texts.count).map { texts[$0] } == written)
        // A bad value in pieces is named as decoded.
        #expect {
            try GPXReader.table(Self.gpx(point("1<!-- c -->x&#50;", "2024-05-01T12:00:00Z", "1")), file: "m.gpx")
        } throws: { error in
            "\(error)".contains("found ele '1x2'")
        }
    }
}
