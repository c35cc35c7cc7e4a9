import Foundation
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

/// `--skip-invalid` on the track files, end to end: a bad GPX point, TCX Trackpoint or FIT record is reported on
/// stderr with its file, line (or message) and field, rejected in the output, and every other point goes on;
/// without the flag it stops `fuse` with that message, as a bad CSV or NDJSON row does.
@Suite("Invalid track points under --skip-invalid")
struct InvalidRowCollectorTests {
    static let gpx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
        <trkpt lat="46.5" lon="7.9"><ele>1200</ele><time>2024-05-01T12:00:00Z</time></trkpt>
        <trkpt lat="999" lon="7.9"><ele>1201</ele><time>2024-05-01T12:00:01Z</time></trkpt>
        <trkpt lat="46.5" lon="7.9"><ele>12O2</ele><time>2024-05-01T12:00:02Z</time></trkpt>
        <trkpt lat="46.5" lon="7.9"><ele>1203</ele><time>2024-05-01T12:00:03Z</time></trkpt>
        </trkseg></trk><trk><trkseg>
        <trkpt lat="46.6" lon="7.9"><ele>1300</ele><time>2024-05-01T13:00:00Z</time></trkpt>
        </trkseg></trk></gpx>

        """

    static let tcx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Activities>
        <Activity Sport="Running"><Lap StartTime="2024-05-01T12:00:00Z"><Track>
        <Trackpoint><Time>2024-05-01T12:00:00Z</Time><AltitudeMeters>1200</AltitudeMeters></Trackpoint>
        <Trackpoint><Time>2024-05-01T12:00:01Z</Time><AltitudeMeters>-</AltitudeMeters></Trackpoint>
        <Trackpoint><Time>2024-05-01T12:00:02Z</Time><AltitudeMeters>1202</AltitudeMeters></Trackpoint>
        </Track></Lap></Activity></Activities></TrainingCenterDatabase>

        """

    /// Runs `fuse` on `name` with `contents`, with and without `--skip-invalid`.
    static func fuse(_ name: String, _ contents: Data, _ extra: [String] = []) throws
        -> (strict: (code: ExitCode, out: String, err: String), skipping: (code: ExitCode, out: String, err: String))
    {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path(name)
        try contents.write(to: URL(fileURLWithPath: path))
        return (runAltimetry(["fuse", path] + extra), runAltimetry(["fuse", path, "--skip-invalid"] + extra))
    }

    @Test("GPX: two bad points are reported and rejected; the other points and the next track go on")
    func gpxPoints() throws {
        let (strict, skipping) = try Self.fuse("hike.gpx", Data(Self.gpx.utf8))
        #expect(strict.code == .dataError)
        #expect(strict.err.contains("hike.gpx:4: field 'lat': found lat=\"999\""), "\(strict.err)")
        #expect(skipping.code == .success, "\(skipping.err)")
        let lines = skipping.out.split(separator: "\n")
        #expect(lines.count == 1 + 5, "the header and every point")
        #expect(lines.filter { $0.contains("rejected: found lat=") }.count == 1)
        #expect(lines.filter { $0.contains("rejected: found ele '12O2'") }.count == 1)
        #expect(
            skipping.err.contains("hike.gpx:4: field 'lat'") && skipping.err.contains("hike.gpx:5: field 'ele'"),
            "\(skipping.err)")
        #expect(skipping.err.contains("skipped as invalid: 2"), "\(skipping.err)")
    }

    @Test("GPX out has every point with a valid position; the one without is not written")
    func gpxOutput() throws {
        let (_, skipping) = try Self.fuse("hike.gpx", Data(Self.gpx.utf8), ["--format", "gpx"])
        #expect(skipping.code == .success, "\(skipping.err)")
        #expect(skipping.out.components(separatedBy: "<trkpt ").count - 1 == 4, "\(skipping.out)")
        #expect(!skipping.out.contains("lat=\"999\""))
        #expect(skipping.out.components(separatedBy: "<trk>").count - 1 == 2, "both tracks")
    }

    @Test("TCX: a bad AltitudeMeters is reported and rejected; the next Trackpoint goes on")
    func tcxPoint() throws {
        let (strict, skipping) = try Self.fuse("run.tcx", Data(Self.tcx.utf8))
        #expect(strict.code == .dataError)
        #expect(strict.err.contains("run.tcx:5: field 'AltitudeMeters': found '-'"), "\(strict.err)")
        #expect(skipping.code == .success, "\(skipping.err)")
        let lines = skipping.out.split(separator: "\n")
        #expect(lines.count == 1 + 3)
        #expect(lines[2].contains("rejected: found '-'") && lines[3].hasSuffix(",ok"), "\(skipping.out)")
        #expect(skipping.err.contains("skipped as invalid: 1"), "\(skipping.err)")
    }

    @Test("FIT: records out of range are reported with their message and field and rejected; the rest go on")
    func fitRecords() throws {
        let (strict, skipping) = try Self.fuse("bad.fit", FITReaderTests.fixture("bad_values.fit"))
        #expect(strict.code == .dataError)
        #expect(strict.err.contains("bad.fit:7: field 'position_lat'"), "\(strict.err)")
        #expect(skipping.code == .success, "\(skipping.err)")
        let lines = skipping.out.split(separator: "\n")
        #expect(lines.count == 1 + 20)
        #expect(lines.filter { $0.contains("rejected: ") }.count == 3, "\(skipping.out)")
        for field in [
            "bad.fit:7: field 'position_lat'", "bad.fit:11: field 'temperature'", "bad.fit:15: field 'timestamp'",
        ] {
            #expect(skipping.err.contains(field), "\(field): \(skipping.err)")
        }
        #expect(skipping.err.contains("skipped as invalid: 3"), "\(skipping.err)")
    }
}
