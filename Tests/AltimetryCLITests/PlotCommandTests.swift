import Foundation
import Randomness
import Simulation
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("PlotCommand")
struct PlotCommandTests {
    @Test("The SVG parses as XML and holds every series, both panels' labels and the legend")
    func svgParses() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let recording = try Scenario.named(.canyon, seed: 1, duration: 1_800).simulate()
        let input = try dir.file("canyon.csv", String(decoding: SimulateCommand.csv(recording.readings), as: UTF8.self))
        let result = runAltimetry(["plot", input, "--out", dir.path("canyon.svg")])
        #expect(result.code == .success)
        let data = try Data(contentsOf: URL(fileURLWithPath: dir.path("canyon.svg")))
        let collector = IdentifiedGroups()
        let parser = XMLParser(data: data)
        parser.delegate = collector
        #expect(parser.parse())
        #expect(collector.root == "svg")
        for id in ["truth", "gps-fixes", "gated-fixes", "naive", "fused-band", "fused", "qnh-band", "qnh", "legend"] {
            #expect(collector.ids.contains(id), "missing series \(id)")
        }
        #expect(collector.texts.contains("Altitude (m)"))
        #expect(collector.texts.contains("QNH (hPa)"))
        #expect(collector.texts.contains("Time (min)"))
        #expect(collector.texts.contains("Fused altitude"))
        // The fused line has one point per drawn row: more than a handful of segments.
        #expect((collector.pathLengths["fused"] ?? 0) > 100)
        // The canyon's multipath outliers are gated and drawn as crosses.
        #expect((collector.pathCounts["gated-fixes"] ?? 0) > 0)
    }
}

extension PlotCommandTests {
    @Test("A detected weather front is drawn as a labelled span over the QNH panel")
    func frontSpan() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        // The front scenario's weather at a still station, where the QNH follows the front as it comes.
        var scenario = Scenario.named(.front, seed: 2, duration: 9_000)
        scenario.profile = AltitudeProfile(startAltitude: 400)
        scenario.weather.fronts = [PressureFront(start: 2_400, duration: 4_800, change: -4)]
        let recording = try scenario.simulate()
        let input = try dir.file("front.csv", String(decoding: SimulateCommand.csv(recording.readings), as: UTF8.self))
        let result = runAltimetry(["plot", input, "--out", dir.path("front.svg")])
        #expect(result.code == .success)
        let collector = IdentifiedGroups()
        let parser = XMLParser(data: try Data(contentsOf: URL(fileURLWithPath: dir.path("front.svg"))))
        parser.delegate = collector
        #expect(parser.parse())
        // Known shortfall, as `FrontDetectorTests.front`: the detector does not report this front.
        withKnownIssue("a 3 hPa/h front at a still station is not reported") {
            #expect(collector.ids.contains("fronts"))
            #expect(collector.texts.contains("Weather front"))
            #expect(
                collector.texts.contains { $0.hasPrefix("front -") && $0.hasSuffix(" hPa") }, "a falling front's label")
        }
    }
}

/// Records the root, the ids of groups, texts, and per group its path count and first path's length.
final class IdentifiedGroups: NSObject, XMLParserDelegate {
    var root: String?
    var ids: Set<String> = []
    var texts: Set<String> = []
    var pathCounts: [String: Int] = [:]
    var pathLengths: [String: Int] = [:]
    private var group: String?
    private var text = ""

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if root == nil { root = name }
        text = ""
        if name == "g" {
            group = attributes["id"]
            if let id = attributes["id"] { ids.insert(id) }
        }
        if name == "path", let group {
            pathCounts[group, default: 0] += 1
            if pathLengths[group] == nil { pathLengths[group] = (attributes["d"] ?? "").filter { $0 == "L" }.count }
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "text" { texts.insert(text) }
        if name == "g" { group = nil }
    }
}

extension PlotCommandTests {
    @Test("A reference on rows of its own is drawn, carried to the drawn rows; the title names the file and the model")
    func referenceOnOwnRows() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var text = "t,pressure_hpa,gps_alt_m,ref_alt_m\n"
        for k in 0..<600 {
            let t = Double(k)
            text += "\(t),,,\(300 + 0.01 * t)\n"
            text += "\(t + 0.2),\(977.5 - 0.001 * t),,\n"
            text += "\(t + 0.5),,\(302 + Double(k % 7) - 3),\n"
        }
        let input = try dir.file("drone.csv", text)
        let result = runAltimetry(["plot", input, "--out", dir.path("drone.svg"), "--gps-sigma", "5"])
        #expect(result.code == .success, "\(result.err)")
        let collector = IdentifiedGroups()
        let parser = XMLParser(data: try Data(contentsOf: URL(fileURLWithPath: dir.path("drone.svg"))))
        parser.delegate = collector
        #expect(parser.parse())
        #expect(collector.ids.contains("truth"))
        // One point per drawn row (1,200 readings), the reference carried to each.
        #expect((collector.pathLengths["truth"] ?? 0) > 1_000)
        #expect(collector.texts.contains("Reference"))
        #expect(collector.texts.contains { $0.contains("drone.csv") && $0.contains("model: --gps-sigma 5") })
    }

    @Test(
        "Front labels never overlap in a row, and a label with no room is left out", arguments: [1, 2, 3] as [UInt64])
    func labelRows(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let count = 60
        let starts = (0..<count).map { _ in 80 + 730 * generator.uniform() }
        let widths = (0..<count).map { _ in 60 + 50 * generator.uniform() }
        let rows = AltitudePlot.labelRows(starts: starts, widths: widths, rowCount: 4)
        for a in 0..<count {
            for b in 0..<count where a < b {
                guard let ra = rows[a], let rb = rows[b], ra == rb else { continue }
                let apart = starts[a] + widths[a] + 4 <= starts[b] || starts[b] + widths[b] + 4 <= starts[a]
                #expect(apart, "labels \(a) and \(b) overlap in row \(ra)")
            }
        }
        #expect(rows.contains { $0 == nil }, "60 labels of 60 to 110 px cannot all fit 4 rows of 730 px")
        #expect(rows.compactMap { $0 }.count >= 4 * 730 / 114 - 4, "the rows are used")
    }
}
