import Foundation
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

@Suite("TCX reader")
struct TCXReaderTests {
    static func tcx(_ trackpoints: String, creator: String = "Forerunner 55") -> Data {
        Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
             <Activities><Activity Sport="Running"><Id>2024-05-01T12:00:00Z</Id>
              <Lap StartTime="2024-05-01T12:00:00Z"><Track>
            \(trackpoints)
              </Track></Lap>
              <Creator xsi:type="Device_t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><Name>\(creator)</Name></Creator>
             </Activity></Activities>
            </TrainingCenterDatabase>
            """.utf8)
    }

    static let points = """
        <Trackpoint><Time>2024-05-01T12:00:00Z</Time><Position><LatitudeDegrees>46.5</LatitudeDegrees>\
        <LongitudeDegrees>7.9</LongitudeDegrees></Position><AltitudeMeters>1200.4</AltitudeMeters>\
        <HeartRateBpm><Value>120</Value></HeartRateBpm></Trackpoint>
        <Trackpoint><Time>2024-05-01T12:00:01.5Z</Time><AltitudeMeters>1201</AltitudeMeters></Trackpoint>
        <Trackpoint><Time>2024-05-01T12:00:03Z</Time></Trackpoint>
        """

    @Test("Trackpoints give time, position and altitude; one without a Position or altitude is still a row")
    func reads() throws {
        let reading = try TCXReader.read(Self.tcx(Self.points), file: "a.tcx")
        let rows = reading.table.rows
        try #require(rows.count == 3)
        #expect(reading.elevation == .gps, "a Forerunner 55 has no barometer")
        #expect(rows[0].time == 1_714_564_800 && rows[0].latitude == 46.5 && rows[0].longitude == 7.9)
        #expect(rows[0].gpsAltitude == 1200.4 && rows[1].gpsAltitude == 1201 && rows[2].gpsAltitude == nil)
        #expect(rows[1].time == 1_714_564_801.5 && rows[1].latitude == nil)
        #expect(rows.map(\.line) == [5, 6, 7])
        #expect(reading.table.timeTexts?[1] == "2024-05-01T12:00:01.5Z")
    }

    @Test("The Creator, written after the laps, decides the default elevation; --ele overrides it")
    func creator() throws {
        let fenix = try TCXReader.read(Self.tcx(Self.points, creator: "fenix 6 Pro"), file: "f.tcx")
        #expect(fenix.elevation == .barometric)
        #expect(fenix.table.rows[0].gpsAltitude == nil && fenix.table.rows[0].pressure != nil)
        let forced = try TCXReader.read(Self.tcx(Self.points, creator: "fenix 6 Pro"), file: "f.tcx", elevation: .gps)
        #expect(forced.table.rows[0].gpsAltitude == 1200.4)
    }

    @Test(
        "Bad values are errors naming the file, line and field",
        arguments: [
            ("<Trackpoint><Time>2024-02-30T12:00:00Z</Time></Trackpoint>", "t.tcx:5: field 'Time'"),
            (
                "<Trackpoint><Time>2024-05-01T12:00:00Z</Time><Position><LatitudeDegrees>91</LatitudeDegrees><LongitudeDegrees>7</LongitudeDegrees></Position></Trackpoint>",
                "t.tcx:5: field 'LatitudeDegrees'"
            ),
            (
                "<Trackpoint><Time>2024-05-01T12:00:00Z</Time><AltitudeMeters>inf</AltitudeMeters></Trackpoint>",
                "t.tcx:5: field 'AltitudeMeters'"
            ),
            ("<Trackpoint><AltitudeMeters>3</AltitudeMeters></Trackpoint>", "t.tcx:5: field 'Time'"),
            (
                "<Trackpoint><Time>2024-05-01T12:00:01Z</Time></Trackpoint><Trackpoint><Time>2024-05-01T12:00:00Z</Time></Trackpoint>",
                "t.tcx:5: field 'Time': time went backwards"
            ),
            ("<Trackpoint><Time>2024-05-01T12:00:00Z</Time></Trackpoint", "t.tcx:5: malformed TCX"),
        ])
    func errors(points: String, prefix: String) {
        #expect {
            _ = try TCXReader.read(Self.tcx(points), file: "t.tcx")
        } throws: { error in
            "\(error)".hasPrefix(prefix)
        }
    }

    @Test(
        "With --skip-invalid a bad Trackpoint is reported with its line and field, kept as a rejected row, and the next is read",
        arguments: [
            ("<Trackpoint><Time>2024-02-30T12:00:00Z</Time></Trackpoint>", "t.tcx:5: field 'Time'"),
            (
                "<Trackpoint><Time>2024-05-01T12:00:00Z</Time><Position><LatitudeDegrees>91</LatitudeDegrees><LongitudeDegrees>7</LongitudeDegrees></Position></Trackpoint>",
                "t.tcx:5: field 'LatitudeDegrees'"
            ),
            (
                "<Trackpoint><Time>2024-05-01T12:00:00Z</Time><AltitudeMeters>inf</AltitudeMeters></Trackpoint>",
                "t.tcx:5: field 'AltitudeMeters'"
            ),
            ("<Trackpoint><AltitudeMeters>3</AltitudeMeters></Trackpoint>", "t.tcx:5: field 'Time'"),
            (
                "<Trackpoint><Time>2024-05-01T12:00:01Z</Time></Trackpoint>\n<Trackpoint><Time>2024-05-01T12:00:00Z</Time></Trackpoint>",
                "t.tcx:6: field 'Time': time went backwards"
            ),
        ])
    func skipInvalid(points: String, prefix: String) throws {
        let next = "\n<Trackpoint><Time>2024-05-01T12:00:09Z</Time><AltitudeMeters>1201</AltitudeMeters></Trackpoint>"
        let table = try TCXReader.read(Self.tcx(points + next), file: "t.tcx", skipInvalid: true).table
        try #require(table.skipped.count == 1, "\(table.skipped)")
        #expect(table.skipped[0].description.hasPrefix(prefix), "\(table.skipped[0])")
        let bad = try #require(table.rows.first { $0.invalidReason != nil })
        #expect(bad.invalidReason == table.skipped[0].message && bad.line == table.skipped[0].line)
        #expect(
            bad.latitude == nil && bad.gpsAltitude == nil && bad.pressure == nil, "a rejected point gives no reading")
        let last = try #require(table.rows.last)
        #expect(last.invalidReason == nil && last.gpsAltitude == 1201 && last.time == 1_714_564_809)
        #expect(table.rows.filter { $0.invalidReason == nil }.count == table.rows.count - 1)
    }

    @Test("fuse reads a .tcx file")
    func fuse() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path("run.tcx")
        try Self.tcx(Self.points).write(to: URL(fileURLWithPath: path))
        let result = runAltimetry(["fuse", path])
        #expect(result.code == .success, "\(result.err)")
        #expect(result.out.split(separator: "\n").count == 4)
        #expect(result.err.contains("elevation read as gps"))
    }
}
