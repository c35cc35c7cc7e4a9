import Foundation
import Testing

@testable import AltimetryIO

/// The executable reading FIT and GPX from standard input, known by their content.
@Suite("Track files on standard input")
struct StandardInputFormatTests {
    @Test("FIT and GPX on standard input fuse with the same rows as the named file")
    func sameRows() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fit = try FITReaderTests.fixture("activity_le.fit")
        let gpx = GPXReaderTests.gpx(
            (0..<30).map {
                "<trkpt lat=\"46.5\" lon=\"7.9\"><ele>\(1200 + $0)</ele>"
                    + "<time>2024-05-01T12:00:\($0 < 10 ? "0" : "")\($0)Z</time></trkpt>"
            }.joined())
        for (data, name) in [(fit, "a.fit"), (gpx, "a.gpx")] {
            let path = directory.path(name)
            try data.write(to: URL(fileURLWithPath: path))
            let named = try ExecutableTests.run(["fuse", path])
            let piped = try ExecutableTests.run(["fuse", "-"], input: data)
            #expect(named.status == 0 && piped.status == 0, "\(name): \(piped.err)")
            #expect(piped.out == named.out && piped.out.split(separator: "\n").count > 2, "\(name)")
        }
    }
}
