import Altimetry
import Foundation
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

/// `baro_alt_m`: a barometric altitude (a watch's, or Core Motion's relative altitude) read in place of a
/// pressure through the standard atmosphere, its unknown offset left to the weather state.
@Suite("Barometric altitude input")
struct BarometricAltitudeInputTests {
    /// A short walk: GPS every other second, the barometer every second, as altitude and as the pressure the
    /// standard atmosphere gives at it (computed here from the ICAO constants, not by the reader).
    static func files(offset: Double = 0) -> (altitude: String, pressure: String) {
        let exponent = 9.806_65 * 0.028_964_4 / (8.314_462_618 * 0.0065)
        var altitude = "t,baro_alt_m,gps_alt_m\n", pressure = "t,pressure_hpa,gps_alt_m\n"
        for k in 0..<60 {
            let h = 500 + 0.3 * Double(k)
            let gps = k % 2 == 0 ? String(format: "%.1f", h + 40) : ""
            altitude += "\(k),\(h + offset),\(gps)\n"
            pressure += "\(k),\(1013.25 * pow(1 - 0.0065 * (h + offset) / 288.15, exponent)),\(gps)\n"
        }
        return (altitude, pressure)
    }

    @Test("A baro_alt_m column fuses as the standard atmosphere's pressure at that altitude")
    func samePressure() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (altitude, pressure) = Self.files()
        let a = runAltimetry(["fuse", try dir.file("a.csv", altitude)])
        let p = runAltimetry(["fuse", try dir.file("p.csv", pressure)])
        #expect(a.code == .success && p.code == .success, "\(a.err) \(p.err)")
        let altitudes = { (text: String) in text.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[1] }
        }
        #expect(altitudes(a.out) == altitudes(p.out))
    }

    @Test("A constant offset of the barometric altitude goes into QNH, not into the fused altitude")
    func offsetToWeather() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let plain = runAltimetry(["fuse", try dir.file("a.csv", Self.files().altitude)])
        let shifted = runAltimetry(["fuse", try dir.file("b.csv", Self.files(offset: 150).altitude)])
        let last = { (text: String) -> (Double, Double) in
            let cells = text.split(separator: "\n").last?.split(separator: ",").map(String.init) ?? []
            return (Double(cells[1]) ?? .nan, Double(cells[3]) ?? .nan)
        }
        let (altitudeA, qnhA) = last(plain.out), (altitudeB, qnhB) = last(shifted.out)
        // The GPS fixes anchor the altitude; reading 150 m too high is a pressure too low for the place, so QNH
        // comes out lower by about 150 m / (8.3 m/hPa) ≈ 18 hPa.
        #expect(abs(altitudeA - altitudeB) < 3, "\(altitudeA) vs \(altitudeB)")
        #expect(qnhA - qnhB > 15 && qnhA - qnhB < 21, "\(qnhA) vs \(qnhB)")
    }

    @Test("NDJSON takes baro_alt_m too; out of the standard atmosphere it is an error naming the field")
    func ndjson() throws {
        let table = try NDJSONReader.read(Data("{\"t\":0,\"baro_alt_m\":1200}\n".utf8), file: "a.ndjson")
        #expect(table.rows.first?.pressure == (try StandardAtmosphere.pressure(atAltitude: 1200)))
        #expect {
            _ = try CSVReader.read(Data("t,baro_alt_m\n0,12000\n".utf8), file: "x.csv")
        } throws: { error in
            "\(error)".hasPrefix("x.csv:2: column 2 'baro_alt_m': found 12000.0, expected a barometric altitude")
        }
    }

    @Test("A CSV file starting with a UTF-8 byte-order mark reads its header (it broke the first column)")
    func byteOrderMark() throws {
        var data = Data([0xEF, 0xBB, 0xBF])
        data.append(Data("t,pressure_hpa\n0,1000\n1,1000.1\n".utf8))
        let table = try CSVReader.read(data, file: "bom.csv")
        #expect(table.rows.count == 2 && table.notices.isEmpty)
    }
}
