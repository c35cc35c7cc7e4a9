import Foundation
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

/// Every format of `fuse`'s output is valid whatever the rows: no `nan` or `inf`, a missing value empty in CSV and
/// `null` in JSON; a track file's tracks and positions reach CSV and NDJSON; the summary says which track is which.
@Suite("Output validity")
struct OutputValidityTests {
    /// A GPX of two tracks, the first with a point without a time (kept, rejected, under --skip-invalid).
    static let twoTracks = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
        <trk><trkseg>
        <trkpt lat="46.1" lon="7.1"><ele>1000</ele><time>2024-05-01T08:00:00Z</time></trkpt>
        <trkpt lat="46.1001" lon="7.1001"><ele>1002</ele><time>2024-05-01T08:00:01Z</time></trkpt>
        <trkpt lat="46.1002" lon="7.1002"><ele>1003</ele></trkpt>
        <trkpt lat="46.1003" lon="7.1003"><ele>1004</ele><time>2024-05-01T08:00:03Z</time></trkpt>
        </trkseg></trk>
        <trk><trkseg>
        <trkpt lat="46.2" lon="7.2"><ele>1100</ele><time>2024-05-01T18:00:00Z</time></trkpt>
        <trkpt lat="46.2001" lon="-7.2001"><ele>1101</ele><time>2024-05-01T18:00:01Z</time></trkpt>
        </trkseg></trk>
        </gpx>

        """

    /// Whether `text` holds a non-finite number as Swift or C print it.
    static func holdsNonFinite(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.contains("nan") || lower.contains("inf")
    }

    @Test("GIVEN a point without a time WHEN fused to CSV THEN its t is an empty cell, never nan")
    func csvWithoutTime() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = try dir.file("two.gpx", Self.twoTracks)
        let run = runAltimetry(["fuse", input, "--skip-invalid"])
        #expect(run.code == .success, "\(run.err)")
        #expect(!Self.holdsNonFinite(run.out), "\(run.out)")
        let lines = run.out.split(separator: "\n").map(String.init)
        let header = lines[0].split(separator: ",").map(String.init)
        #expect(header.starts(with: ["t", "time", "track_id", "altitude_m"]))
        #expect(header.suffix(3) == ["lat", "lon", "status"])
        let rejected = try #require(lines.first { $0.contains("rejected") })
        #expect(rejected.hasPrefix(",,track 1,,"), "\(rejected)")
        #expect(rejected.contains(",46.1002,7.1002,rejected"))
        #expect(lines.last?.contains(",track 2,") == true)
        #expect(lines.last?.contains(",46.2001,-7.2001,ok") == true)
    }

    @Test("GIVEN a point without a time WHEN fused to NDJSON THEN every line parses as strict JSON with t null")
    func ndjsonWithoutTime() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = try dir.file("two.gpx", Self.twoTracks)
        let run = runAltimetry(["fuse", input, "--skip-invalid", "--format", "ndjson"])
        #expect(run.code == .success, "\(run.err)")
        #expect(!Self.holdsNonFinite(run.out))
        let objects = try run.out.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        #expect(objects.count == 6)
        let rejected = try #require(objects.first { ($0["status"] as? String)?.hasPrefix("rejected") == true })
        #expect(rejected["t"] is NSNull && rejected["time"] is NSNull && rejected["altitude_m"] is NSNull)
        #expect(rejected["lat"] as? Double == 46.1002 && rejected["lon"] as? Double == 7.1002)
        #expect(
            objects.map { $0["track_id"] as? String } == Array(repeating: "track 1", count: 4) + ["track 2", "track 2"])
    }

    @Test("GIVEN a point without a time WHEN fused to GPX THEN it has no empty or non-finite element")
    func gpxWithoutTime() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = try dir.file("two.gpx", Self.twoTracks)
        let run = runAltimetry(["fuse", input, "--skip-invalid", "--format", "gpx"])
        #expect(run.code == .success, "\(run.err)")
        #expect(!Self.holdsNonFinite(run.out))
        #expect(!run.out.contains("></altimetry:") && !run.out.contains("<ele></ele>"))
    }

    @Test("GIVEN a TCX with positions WHEN fused to CSV and NDJSON THEN lat and lon are passed through")
    func tcxPositions() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = try dir.file(
            "run.tcx",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
            <Activities><Activity Sport="Running"><Id>2024-05-01T08:00:00Z</Id><Lap StartTime="2024-05-01T08:00:00Z">
            <Track>
            <Trackpoint><Time>2024-05-01T08:00:00Z</Time><Position><LatitudeDegrees>46.5</LatitudeDegrees>\
            <LongitudeDegrees>7.25</LongitudeDegrees></Position><AltitudeMeters>500</AltitudeMeters></Trackpoint>
            <Trackpoint><Time>2024-05-01T08:00:01Z</Time><AltitudeMeters>501</AltitudeMeters></Trackpoint>
            </Track></Lap></Activity></Activities></TrainingCenterDatabase>

            """)
        let csv = runAltimetry(["fuse", input])
        #expect(csv.code == .success, "\(csv.err)")
        let lines = csv.out.split(separator: "\n").map(String.init)
        #expect(lines[0].hasSuffix(",lat,lon,status"), "\(lines[0])")
        #expect(lines[1].hasSuffix(",46.5,7.25,ok"), "\(lines[1])")
        #expect(lines[2].hasSuffix(",,,ok"), "\(lines[2])")
        let ndjson = runAltimetry(["fuse", input, "--format", "ndjson"])
        #expect(ndjson.out.contains("\"lat\":46.5,\"lon\":7.25,"))
        #expect(ndjson.out.contains("\"lat\":null,\"lon\":null,"))
    }

    @Test("The stderr summary of a multi-track file names each track's final altitude")
    func labelledSummary() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = try dir.file("two.gpx", Self.twoTracks)
        let run = runAltimetry(["fuse", input, "--skip-invalid", "--out", dir.path("out.csv")])
        let finals = run.err.split(separator: "\n").filter { $0.contains("final altitude") }
        #expect(finals.count == 2)
        #expect(finals.first?.hasPrefix("track 'track 1': final altitude") == true, "\(run.err)")
        #expect(finals.last?.hasPrefix("track 'track 2': final altitude") == true, "\(run.err)")
    }

    @Test("--summary writes final: null for a track without a usable reading")
    func summaryFinalNull() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = try dir.file("none.csv", "t,pressure_hpa,gps_alt_m\n0,,\n1,,\n")
        let run = runAltimetry(["fuse", input, "--summary", dir.path("summary.json"), "--out", dir.path("o.csv")])
        #expect(run.code == .success, "\(run.err)")
        let text = try dir.read("summary.json")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let track = try #require((summary["tracks"] as? [[String: Any]])?.first)
        #expect(track["final"] is NSNull, "\(text)")
        #expect(track["ascent"] == nil)
    }
}
