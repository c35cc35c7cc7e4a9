import AltimetryIO
import Foundation

extension FuzzTarget {
    /// The ISO 8601 time parser, reached the way input reaches it: as the `time` of one row of CSV, NDJSON and GPX.
    public static let time = FuzzTarget(
        name: "time", summary: "ISO 8601 times in every reader: no crash; an accepted time is finite and within years 0 to 9999"
    ) { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        let csv = Array("time,pressure_hpa\n".utf8) + bytes + Array(",1000\n".utf8)
        var ndjson = Array(#"{"pressure_hpa":1000,"time":"#.utf8)
        ndjson += (try? JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed)).map(Array.init) ?? Array(#""""#.utf8)
        ndjson += Array("}\n".utf8)
        let escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        let gpx = Array(#"<gpx><trk><trkseg><trkpt lat="1" lon="2"><ele>3</ele><time>"#.utf8) + Array(escaped.utf8)
            + Array("</time></trkpt></trkseg></trk></gpx>".utf8)
        let reads: [(String, () throws(InputError) -> InputTable)] = [
            ("CSV", { () throws(InputError) in try ScratchFile.table(csv, pathExtension: "csv") }),
            ("NDJSON", { () throws(InputError) in try ScratchFile.table(ndjson, pathExtension: "ndjson") }),
            ("GPX", { () throws(InputError) in try ScratchFile.table(gpx, pathExtension: "gpx") }),
        ]
        for (format, read) in reads {
            guard let table = try? read() else { continue }
            for row in table.rows where row.invalidReason == nil {
                // 0000-01-01 and 9999-12-31T23:59:59Z, in seconds since 1970.
                guard row.time >= -62_167_219_200, row.time < 253_402_300_800 else {
                    return FuzzFinding("\(format): time '\(text)' read as \(row.time) s")
                }
            }
        }
        return nil
    }
}
