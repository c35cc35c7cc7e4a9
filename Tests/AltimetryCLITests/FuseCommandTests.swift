import Altimetry
import Foundation
import Simulation
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("FuseCommand")
struct FuseCommandTests {
    /// A small recording: pressure and GPS at separate and shared times, a blank row, a reference column.
    static let small = """
        # a comment line
        t,pressure_hpa,gps_alt_m,gps_vacc_m,true_alt_m
        0,1000.00,110.0,5,111
        1,1000.01,112.0,5,111
        2,999.99,,,111
        3,,109.0,4,111
        4,,,,111

        """

    /// The estimates of the same rows straight from `AltitudeFilter` with the command's default model (the adaptive
    /// one), to compare the command's output against.
    static func directEstimates() throws -> [AltitudeEstimate] {
        var filter = try AltitudeFilter(parameters: .adaptive)
        return try [
            AltitudeReading(time: 0, pressure: 1000.00, gpsAltitude: 110, gpsVerticalAccuracy: 5),
            AltitudeReading(time: 1, pressure: 1000.01, gpsAltitude: 112, gpsVerticalAccuracy: 5),
            AltitudeReading(time: 2, pressure: 999.99),
            AltitudeReading(time: 3, gpsAltitude: 109, gpsVerticalAccuracy: 4),
        ].map { try filter.process($0) }
    }

    @Test("CSV output has the documented header and one row per input row, with the filter's values")
    func csvGolden() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = try dir.file("small.csv", Self.small)
        let result = runAltimetry(["fuse", input])
        #expect(result.code == .success)
        let lines = result.out.split(separator: "\n").map(String.init)
        try #require(lines.count == 6)
        #expect(
            lines[0]
                == "t,altitude_m,sigma_m,qnh_hpa,qnh_sigma_hpa,gps_error_m,precision_m,relative_alt_m,column_temp_c,column_temp_sigma_c,true_alt_m,status"
        )
        for (k, e) in try Self.directEstimates().enumerated() {
            let expected = [
                "\(k)", Fixed.text(e.altitude, 3), Fixed.text(e.altitudeStandardDeviation, 3),
                Fixed.text(e.seaLevelPressure, 3), Fixed.text(e.seaLevelPressureStandardDeviation, 4),
                Fixed.text(e.gpsError, 3), Fixed.text(e.displayPrecision, 2), Fixed.text(e.relativeAltitude, 3),
                Fixed.text(e.columnTemperature - 273.15, 2), Fixed.text(e.columnTemperatureStandardDeviation, 2),
                "111.000", "ok",
            ].joined(separator: ",")
            #expect(lines[k + 1] == expected)
        }
        // A row with a time and no reading gets the filter's prediction: the estimate carried from t = 3 to 4 s,
        // its sigma grown by the process noise over that second.
        var filter = try AltitudeFilter(parameters: .adaptive)
        for reading in [
            AltitudeReading(time: 0, pressure: 1000.00, gpsAltitude: 110, gpsVerticalAccuracy: 5),
            AltitudeReading(time: 1, pressure: 1000.01, gpsAltitude: 112, gpsVerticalAccuracy: 5),
            AltitudeReading(time: 2, pressure: 999.99),
            AltitudeReading(time: 3, gpsAltitude: 109, gpsVerticalAccuracy: 4),
        ] { _ = try filter.process(reading) }
        let predicted = try #require(filter.predictedEstimate(at: 4))
        let last = try #require(try Self.directEstimates().last)
        #expect(predicted.altitudeStandardDeviation > last.altitudeStandardDeviation)
        #expect(abs(predicted.altitude - last.altitude) < 0.1)
        #expect(
            lines[5] == "4,\(Fixed.text(predicted.altitude, 3)),\(Fixed.text(predicted.altitudeStandardDeviation, 3)),"
                + "\(Fixed.text(predicted.seaLevelPressure, 3)),\(Fixed.text(predicted.seaLevelPressureStandardDeviation, 4)),"
                + "\(Fixed.text(predicted.gpsError, 3)),\(Fixed.text(predicted.displayPrecision, 2)),"
                + "\(Fixed.text(predicted.relativeAltitude, 3)),\(Fixed.text(predicted.columnTemperature - 273.15, 2)),"
                + "\(Fixed.text(predicted.columnTemperatureStandardDeviation, 2)),111.000,predicted")
        #expect(result.err.contains("rows: 5"))
        #expect(result.err.contains("GPS fixes used: 3, gated: 0"))
    }

    @Test("With --adapt off the fixed model's values are written, and a row without a reading gets its prediction")
    func fixedPrediction() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = try dir.file("small.csv", Self.small)
        let result = runAltimetry(["fuse", input, "--adapt", "off"])
        #expect(result.code == .success)
        let lines = result.out.split(separator: "\n").map(String.init)
        try #require(lines.count == 6)
        var filter = try AltitudeFilter(parameters: AltitudeModelParameters())
        for (k, reading) in [
            AltitudeReading(time: 0, pressure: 1000.00, gpsAltitude: 110, gpsVerticalAccuracy: 5),
            AltitudeReading(time: 1, pressure: 1000.01, gpsAltitude: 112, gpsVerticalAccuracy: 5),
            AltitudeReading(time: 2, pressure: 999.99),
            AltitudeReading(time: 3, gpsAltitude: 109, gpsVerticalAccuracy: 4),
        ].enumerated() {
            let e = try filter.process(reading)
            #expect(
                lines[k + 1].hasPrefix(
                    "\(k),\(Fixed.text(e.altitude, 3)),\(Fixed.text(e.altitudeStandardDeviation, 3)),"))
        }
        // The adaptive default differs from the fixed model on these rows.
        #expect(
            lines[1] != (runAltimetry(["fuse", input]).out.split(separator: "\n").map(String.init).dropFirst().first))
        let predicted = try #require(filter.predictedEstimate(at: 4))
        #expect(
            lines[5].hasPrefix(
                "4,\(Fixed.text(predicted.altitude, 3)),\(Fixed.text(predicted.altitudeStandardDeviation, 3)),"))
        #expect(lines[5].hasSuffix(",predicted"))
        #expect(result.err.contains("predicted: 1"))
    }

    @Test("NDJSON output carries the same fields and values as CSV, with null for empty estimates")
    func ndjsonGolden() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = try dir.file("small.csv", Self.small)
        let csv = runAltimetry(["fuse", input]).out.split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        let result = runAltimetry(["fuse", input, "--format", "ndjson"])
        #expect(result.code == .success)
        let lines = result.out.split(separator: "\n")
        try #require(lines.count == 5)
        let header = csv[0].map(String.init)
        for (k, line) in lines.enumerated() {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(Set(object.keys) == Set(header))
            for (c, name) in header.enumerated() where name != "status" {
                let cell = String(csv[k + 1][c])
                if cell.isEmpty {
                    #expect(object[name] is NSNull)
                } else {
                    #expect((object[name] as? NSNumber)?.doubleValue == Double(cell))
                }
            }
            #expect((object["status"] as? String) == String(csv[k + 1][header.count - 1]))
        }
        #expect(lines[0].hasPrefix("{\"t\":0,\"altitude_m\":"))
    }

    @Test("GPX output is well-formed XML with ele equal to the fused altitude and sigma in an extension")
    func gpxGolden() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        // The same rows with positions: GPX output has a point per row that has one.
        var lines = Self.small.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[1] += ",lat,lon"
        for k in 2..<7 { lines[k] += ",46.5,7.\(k)" }
        let input = try dir.file("small.csv", lines.joined(separator: "\n"))
        let result = runAltimetry(["fuse", input, "--out", dir.path("track.gpx")])
        #expect(result.code == .success)
        let text = try dir.read("track.gpx")
        let collector = ElementCollector()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = collector
        #expect(parser.parse())
        let estimates = try Self.directEstimates()
        #expect(collector.values["ele"]?.prefix(4) == estimates.map { Fixed.text($0.altitude, 3) }[...])
        #expect(
            collector.values["altimetry:sigma_m"]?.prefix(4)
                == estimates.map { Fixed.text($0.altitudeStandardDeviation, 3) }[...])
        #expect(collector.values["ele"]?.count == 5)
        #expect(collector.values["altimetry:status"]?.last == "predicted")
    }

    /// The rows of `small` as NDJSON, and the same with keys that change from line to line at one place and
    /// length (the reader remembers each place's key from the line before): `gps_vacc_m` and `true_alt_m` trade
    /// places (10 bytes each), and `pressure_kpa` differs from `pressure_hpa` in its tenth byte only.
    static let smallAsNDJSON = [
        """
        {"t":0,"pressure_hpa":1000.00,"gps_alt_m":110.0,"gps_vacc_m":5,"true_alt_m":111}
        {"t":1,"pressure_hpa":1000.01,"gps_alt_m":112.0,"gps_vacc_m":5,"true_alt_m":111}
        {"t":2,"pressure_hpa":999.99,"gps_alt_m":null,"true_alt_m":111}
        {"t":3,"gps_alt_m":109.0,"gps_vacc_m":4,"true_alt_m":111}
        {"t":4,"true_alt_m":111}

        """,
        """
        {"t":0,"pressure_hpa":1000.00,"gps_alt_m":110.0,"gps_vacc_m":5,"true_alt_m":111}
        {"t":1,"pressure_kpa":100.001,"gps_alt_m":112.0,"true_alt_m":111,"gps_vacc_m":5}
        {"t":2,"pressure_hpa":999.99,"gps_alt_m":null,"true_alt_m":111}
        {"t":3,"gps_alt_m":109.0,"gps_vacc_m":4,"true_alt_m":111}
        {"t":4,"true_alt_m":111}

        """,
    ]

    @Test(
        "NDJSON input gives the same output as the same rows in CSV, whatever the order of its keys",
        arguments: smallAsNDJSON)
    func ndjsonInput(text: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let csv = try dir.file("small.csv", Self.small)
        let ndjson = try dir.file("small.ndjson", text)
        #expect(runAltimetry(["fuse", ndjson]).out == runAltimetry(["fuse", csv]).out)
    }

    @Test(
        "Column order, kPa and Pa, ellipsoidal altitude with geoid separation and a 95 % accuracy all convert to the same rows"
    )
    func conversions() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let reference = try dir.file("a.csv", "t,pressure_hpa,gps_alt_m,gps_vacc_m\n0,1000,110,5\n1,1000.5,111,5\n")
        // 5 m one sigma = 9.79981992 m at 95 %.
        let converted = try dir.file(
            "b.csv",
            "gps_vacc_m,geoid_sep_m,pressure_kpa,gps_alt_ellipsoid_m,t,extra\n"
                + "9.79981992270027,47,100,157,0,a\n9.79981992270027,47,100.05,158,1,b\n")
        let pascals = try dir.file("c.csv", "t,pressure_pa,gps_alt_m,gps_vacc_m\n0,100000,110,5\n1,100050,111,5\n")
        let expected = runAltimetry(["fuse", reference]).out
        let b = runAltimetry(["fuse", converted, "--vacc-confidence", "0.95"])
        // The unknown column passes through, before `status`.
        let withoutExtra = b.out.split(separator: "\n").map { line in
            var cells = line.split(separator: ",", omittingEmptySubsequences: false)
            cells.remove(at: cells.count - 2)
            return cells.joined(separator: ",") + "\n"
        }.joined()
        #expect(withoutExtra == expected)
        #expect(b.out.split(separator: "\n").map { $0.split(separator: ",")[10] } == ["extra", "a", "b"])
        #expect(b.err.components(separatedBy: "passing unknown column 'extra' through").count == 2)
        #expect(runAltimetry(["fuse", pascals]).out == expected)
    }

    @Test("ISO 8601 times are read as seconds and echoed in a time column")
    func isoTime() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = try dir.file(
            "iso.csv", "time,pressure_hpa\n2024-05-01T12:00:00Z,1000\n2024-05-01T12:00:01.5Z,1000.01\n")
        let result = runAltimetry(["fuse", input])
        #expect(result.code == .success)
        let lines = result.out.split(separator: "\n")
        #expect(lines[1].hasPrefix("1714564800,2024-05-01T12:00:00Z,"))
        #expect(lines[2].hasPrefix("1714564801.5,2024-05-01T12:00:01.5Z,"))
    }

    @Test("A GPX track with a pressure file is fused on one time line")
    func gpxInput() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let gpx = try dir.file(
            "walk.gpx",
            """
            <?xml version="1.0"?>
            <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            <trkpt lat="46.5" lon="7.9"><ele>112</ele><time>2024-05-01T12:00:01Z</time></trkpt>
            <trkpt lat="46.5" lon="7.9"><ele>113</ele><time>2024-05-01T12:00:03Z</time></trkpt>
            </trkseg></trk></gpx>
            """)
        let pressure = try dir.file(
            "baro.csv", "time,pressure_hpa\n2024-05-01T12:00:00Z,1000\n2024-05-01T12:00:02Z,1000.01\n")
        let result = runAltimetry(["fuse", gpx, "--pressure", pressure])
        #expect(result.code == .success)
        let lines = result.out.split(separator: "\n")
        try #require(lines.count == 5)
        #expect(lines[1].hasPrefix("1714564800,2024-05-01T12:00:00Z,"))
        #expect(lines[2].hasPrefix("1714564801,2024-05-01T12:00:01Z,"))
        #expect(result.err.contains("GPS fixes used: 2"))
    }
}

/// Collects the text of every element by name.
final class ElementCollector: NSObject, XMLParserDelegate {
    var values: [String: [String]] = [:]
    var names: [String: Int] = [:]
    private var text = ""

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        text = ""
        names[name, default: 0] += 1
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        values[name, default: []].append(text.trimmingCharacters(in: .whitespacesAndNewlines))
        text = ""
    }
}
