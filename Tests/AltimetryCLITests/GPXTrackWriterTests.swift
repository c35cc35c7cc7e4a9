import Foundation
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

@Suite("GPX round trip")
struct GPXTrackWriterTests {
    /// A simulated hike split as a back end receives it: a GPX of the GPS fixes (with a Garmin extension per
    /// point: heart rate and air temperature), and the barometer's readings as CSV with ISO times.
    static func hike(in dir: TemporaryDirectory, relativePressureTimes: Bool = false) throws -> (
        gpx: String, pressure: String, points: Int
    ) {
        let simulated = runAltimetry(["simulate", "hike", "--seed", "5", "--duration", "900"])
        try #require(simulated.code == .success)
        let iso = ISO8601Parser()
        let start = 1_714_564_800.0
        var points = "", pressure = relativePressureTimes ? "t,pressure_hpa\n" : "time,pressure_hpa\n"
        var count = 0
        for line in simulated.out.split(separator: "\n").dropFirst() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard let t = Double(cells[0]) else { continue }
            if !cells[1].isEmpty {
                pressure += (relativePressureTimes ? cells[0] : iso.text(start + t)) + ",\(cells[1])\n"
            }
            if !cells[2].isEmpty {
                let latitude = String(format: "%.7f", 46.5 + Double(count) * 1e-5)
                points +=
                    "<trkpt lat=\"\(latitude)\" lon=\"7.9\"><ele>\(cells[2])</ele><time>\(iso.text(start + t))</time>"
                    + "<extensions><gpxtpx:TrackPointExtension><gpxtpx:atemp>8</gpxtpx:atemp>"
                    + "<gpxtpx:hr>\(100 + count % 50)</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>\n"
                count += 1
                if count == 40 { points += "</trkseg><trkseg>\n" }
            }
        }
        let gpx = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="phone app" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
            <metadata><name>Hike</name></metadata>
            <trk><name>Morning &amp; hike</name><type>hiking</type><trkseg>
            \(points)</trkseg></trk></gpx>
            """
        return (try dir.file("hike.gpx", gpx), try dir.file("baro.csv", pressure), count)
    }

    @Test(
        "GPX + pressure in, GPX out: the same points in order, same positions, times and extensions, fused ele and sigma"
    )
    func roundTrip() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (gpx, pressure, count) = try Self.hike(in: dir)
        let result = runAltimetry([
            "fuse", gpx, "--pressure", pressure, "--format", "gpx", "--out", dir.path("out.gpx"),
        ])
        try #require(result.code == .success, "\(result.err)")
        #expect(result.err.contains("elevation read as gps"))
        let input = try GPXReader.read(Data(contentsOf: URL(fileURLWithPath: gpx)), file: "in")
        let output = try GPXReader.read(
            Data(contentsOf: URL(fileURLWithPath: dir.path("out.gpx"))), file: "out", elevation: .gps)
        let (a, b) = (try #require(input.gpx), try #require(output.gpx))
        #expect(b.points.count == count && a.points.count == count)
        #expect(b.points.map { b.text($0.latitude) } == a.points.map { a.text($0.latitude) })
        #expect(b.points.map { b.text($0.longitude) } == a.points.map { a.text($0.longitude) })
        #expect(b.points.map(b.children) == a.points.map(a.children), "times and other elements as written")
        #expect(
            zip(a.points, b.points).allSatisfy { b.extensions($1).hasPrefix(a.extensions($0)) },
            "input extensions first")
        #expect(b.points.allSatisfy { b.extensions($0).contains("<altimetry:sigma_m>") })
        #expect(b.tracks.map(\.segments) == a.tracks.map(\.segments))
        #expect(b.tracks.first?.header == "<name>Morning &amp; hike</name><type>hiking</type>")
        #expect(b.metadata == "<metadata><name>Hike</name></metadata>")
        #expect(output.table.rows.map(\.time) == input.table.rows.map(\.time))
        // The fused elevation is the barometer's shape anchored by GPS: on average within three standard errors of
        // the fixes' mean, whose error over 900 s of the simulated 10 m / 60 s receiver is 10 √(2·60/900) = 3.7 m.
        let differences = zip(output.table.rows, input.table.rows).compactMap { pair -> Double? in
            guard let fused = pair.0.gpsAltitude, let fix = pair.1.gpsAltitude else { return nil }
            return fused - fix
        }
        #expect(differences.count == count)
        #expect(abs(differences.reduce(0, +) / Double(differences.count)) < 11)
    }

    @Test(
        "A pressure file with relative times beside a GPX is an error naming both time spans (it gave 1970 and QNH ±990 hPa)"
    )
    func relativeTimes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (gpx, pressure, _) = try Self.hike(in: dir, relativePressureTimes: true)
        let result = runAltimetry(["fuse", gpx, "--pressure", pressure])
        #expect(result.code == .dataError)
        #expect(result.out.isEmpty)
        #expect(result.err.contains("baro.csv: its times (1970-01-01T00:00:00"), "\(result.err)")
        #expect(result.err.contains("do not overlap the track's in") && result.err.contains("(2024-05-01T12:00:0"))
    }

    @Test("A barometric GPX elevation beside --pressure is not used as a GPS fix (one barometer counted once)")
    func barometricBesidePressure() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (gpx, pressure, _) = try Self.hike(in: dir)
        let result = runAltimetry(["fuse", gpx, "--pressure", pressure, "--ele", "barometric"])
        #expect(result.code == .success, "\(result.err)")
        #expect(result.err.contains("GPS fixes used: 0"))
        #expect(result.err.contains("is not used beside --pressure"))
    }

    @Test("GPX output from rows without positions has no point at 0,0: such rows are left out, with a notice")
    func noZeroPositions() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = try dir.file(
            "p.csv", "t,pressure_hpa,gps_alt_m,lat,lon\n0,1000,110,46.5,7.9\n1,1000.01,,,\n2,1000,111,46.6,7.8\n")
        let result = runAltimetry(["fuse", input, "--format", "gpx"])
        #expect(result.code == .success)
        #expect(result.out.components(separatedBy: "<trkpt").count - 1 == 2)
        #expect(!result.out.contains("lat=\"0"))
        #expect(
            result.err.contains("notice: rows without lat/lon are not GPX points and are left out of the GPX output"))
    }
}
