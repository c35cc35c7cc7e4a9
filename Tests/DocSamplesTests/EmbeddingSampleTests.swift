import Altimetry
import AltimetryCLI
import AltimetryIO
import Foundation
import Simulation
import Testing

/// The AltimetryIO samples of README.md, Docs/backend-guide.md and the AltimetryIO catalog.
@Suite("AltimetryIO samples")
struct EmbeddingSampleTests {
    /// A simulated half-hour hike as an input CSV, with the truth, and one row whose pressure is not a number
    /// (line `badLine`).
    static func hikeCSV(badLine: Int) throws -> (csv: String, truth: [Double]) {
        let recording = try Scenario.named(.hike, seed: 3, duration: 1_800).simulate()
        var csv = "t,pressure_hpa,gps_alt_m,gps_vacc_m,true_alt_m\n"
        var truth: [Double] = []
        for row in recording.readings {
            let line = truth.count + 2
            let pressure = line == badLine ? "n/a" : row.pressure.map { "\($0)" } ?? ""
            csv += "\(row.time),\(pressure),\(row.gpsAltitude.map { "\($0)" } ?? ""),"
            csv += "\(row.gpsVerticalAccuracy.map { "\($0)" } ?? ""),\(row.trueAltitude)\n"
            truth.append(row.trueAltitude)
        }
        return (csv, truth)
    }

    @Test("An upload fused in-process gives the bytes `altimetry fuse --format ndjson --skip-invalid` writes")
    func fuseUploadMatchesTheCommand() throws {
        let (csv, truth) = try Self.hikeCSV(badLine: 100)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("upload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("hike.csv").path
        let output = directory.appendingPathComponent("fused.ndjson").path
        try Data(csv.utf8).write(to: URL(fileURLWithPath: input))
        let console = Console(write: { _ in }, writeError: { _ in })
        let code = AltimetryCommandLine.run(
            arguments: ["fuse", input, "--format", "ndjson", "--skip-invalid", "--out", output], console: console)
        #expect(code == .success)

        let (ndjson, tracks) = try fuseUpload(Data(csv.utf8), named: "hike.csv")
        #expect(ndjson == Array(try Data(contentsOf: URL(fileURLWithPath: output))))
        #expect(ndjson.split(separator: 10).count == truth.count)
        let track = try #require(tracks.first)
        #expect(tracks.count == 1 && track.rows == truth.count && track.rejected == 1)
        #expect(track.rejections.first?.line == 100)
        // The final estimate follows the truth within 3 sigma (a 0.3 % chance of failing for an honest sigma).
        let final = try #require(track.final)
        #expect(abs(final.altitudeM - (truth.last ?? 0)) < 3 * final.sigmaM)
    }

    @Test("An upload read into readings keeps every usable row and names the unusable one's line and field")
    func readUploadNamesTheBadRow() throws {
        let (csv, truth) = try Self.hikeCSV(badLine: 7)
        let (readings, problems) = try readUpload(Data(csv.utf8), named: "hike.csv")
        #expect(readings.count == truth.count - 1)
        let problem = try #require(problems.first)
        #expect(problems.count == 1 && problem.file == "hike.csv" && problem.line == 7)
        #expect(problem.column?.name == "pressure_hpa")
        // The readings are the rows' values: the filter fuses them as `fuse` does.
        var filter = try AltitudeFilter()
        let estimates = try readings.map { try filter.process($0) }
        let final = try #require(estimates.last)
        #expect(abs(final.altitude - (truth.last ?? 0)) < 3 * final.altitudeStandardDeviation)
    }

    @Test("A GPX upload is read as GPS fixes, its name saying the format")
    func readUploadReadsGPX() throws {
        let gpx = """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="a phone"><trk><trkseg>
            <trkpt lat="46.5" lon="7.9"><ele>1234.5</ele><time>2024-06-01T08:00:00Z</time></trkpt>
            <trkpt lat="46.5" lon="7.9"><ele>1236.0</ele><time>2024-06-01T08:00:10Z</time></trkpt>
            </trkseg></trk></gpx>
            """
        let (readings, problems) = try readUpload(Data(gpx.utf8), named: "upload.gpx")
        #expect(problems.isEmpty)
        #expect(readings.map(\.gpsAltitude) == [1234.5, 1236.0])
        #expect(readings.map(\.pressure) == [nil, nil])
        #expect(readings.map(\.time) == [1_717_228_800, 1_717_228_810])
    }
}
