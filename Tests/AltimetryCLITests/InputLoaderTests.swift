import Foundation
import Testing

@testable import AltimetryIO

@Suite("InputLoader: uploads in memory")
struct InputLoaderTests {
    static let gpx = """
        <?xml version="1.0"?>
        <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
        <trkpt lat="46.5" lon="7.9"><ele>112</ele><time>2024-05-01T12:00:01Z</time></trkpt>
        <trkpt lat="46.5" lon="7.9"><ele>113</ele><time>2024-05-01T12:00:03Z</time></trkpt>
        </trkseg></trk></gpx>
        """
    static let pressureCSV = "time,pressure_hpa\n2024-05-01T12:00:00Z,1000\n2024-05-01T12:00:02Z,1000.01\n"

    @Test("A track upload with a pressure upload reads as the two files do with --pressure, row for row")
    func trackWithPressure() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let gpxPath = try dir.file("walk.gpx", Self.gpx)
        let pressurePath = try dir.file("baro.csv", Self.pressureCSV)
        let files = try InputLoader.table(gpxPath, pressurePath: pressurePath, options: ReadOptions())
        let uploads = try InputLoader.table(
            Data(Self.gpx.utf8), file: "walk.gpx", pressure: Data(Self.pressureCSV.utf8), pressureFile: "baro.csv",
            options: ReadOptions())
        #expect(uploads.rows == files.rows)
        #expect(uploads.rows.map(\.time) == [1_714_564_800, 1_714_564_801, 1_714_564_802, 1_714_564_803])
        #expect(uploads.rows.map { $0.pressure != nil } == [true, false, true, false])
        #expect(uploads.file == "walk.gpx+baro.csv")
    }

    @Test("A pressure upload without a CSV or NDJSON name is read as NDJSON by its first byte")
    func pressureSniffed() throws {
        let ndjson = """
            {"time":"2024-05-01T12:00:00Z","pressure_hpa":1000}
            {"time":"2024-05-01T12:00:02Z","pressure_hpa":1000.01}
            """
        let table = try InputLoader.table(
            Data(Self.gpx.utf8), file: "walk.gpx", pressure: Data(ndjson.utf8), pressureFile: "upload-2",
            options: ReadOptions())
        #expect(table.rows.compactMap(\.pressure) == [1000, 1000.01])
    }

    @Test("A pressure upload beside a CSV upload is a usage error naming the upload")
    func pressureBesideCSV() {
        let csv = "t,gps_alt_m\n0,100\n"
        #expect {
            try InputLoader.table(
                Data(csv.utf8), file: "track.csv", pressure: Data(Self.pressureCSV.utf8), pressureFile: "baro.csv",
                options: ReadOptions())
        } throws: { error in
            guard let error = error as? InputError else { return false }
            return error.file == "track.csv" && error.exitCode == .usage && error.message.contains("--pressure")
        }
    }

    @Test("Pressure readings on another day are refused, naming both spans")
    func pressureElsewhere() {
        let otherDay = "time,pressure_hpa\n2024-05-02T12:00:00Z,1000\n"
        #expect {
            try InputLoader.table(
                Data(Self.gpx.utf8), file: "walk.gpx", pressure: Data(otherDay.utf8), pressureFile: "baro.csv",
                options: ReadOptions())
        } throws: { error in
            guard let error = error as? InputError else { return false }
            return error.file == "baro.csv" && error.message.contains("2024-05-02T12:00:00Z")
                && error.message.contains("2024-05-01T12:00:01Z")
        }
    }
}
