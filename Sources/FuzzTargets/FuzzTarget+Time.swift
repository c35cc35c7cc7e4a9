import AltimetryIO
import Foundation

extension FuzzTarget {
    /// The ISO 8601 time parser, reached the way input reaches it: as the `time` of one row of CSV, NDJSON, GPX and TCX.
    public static let time = FuzzTarget(
        name: "time",
        summary:
            "ISO 8601 times in the CSV, NDJSON, GPX and TCX readers: no crash; an accepted time is finite and within years 0 to 9999"
    ) { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        let csv = Array("time,pressure_hpa\n".utf8) + bytes + Array(",1000\n".utf8)
        var ndjson = Array(#"{"pressure_hpa":1000,"time":"#.utf8)
        ndjson +=
            (try? JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed)).map(Array.init)
            ?? Array(#""""#.utf8)
        ndjson += Array("}\n".utf8)
        let escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        let gpx =
            Array(#"<gpx><trk><trkseg><trkpt lat="1" lon="2"><ele>3</ele><time>"#.utf8) + Array(escaped.utf8)
            + Array("</time></trkpt></trkseg></trk></gpx>".utf8)
        let tcx =
            Array("<TrainingCenterDatabase><Activities><Activity><Lap><Track><Trackpoint><Time>".utf8)
            + Array(escaped.utf8)
            + Array(
                "</Time><AltitudeMeters>3</AltitudeMeters></Trackpoint></Track></Lap></Activity></Activities></TrainingCenterDatabase>"
                    .utf8)
        let reads = [("CSV", "csv", csv), ("NDJSON", "ndjson", ndjson), ("GPX", "gpx", gpx), ("TCX", "tcx", tcx)].lazy
            .map { format, suffix, bytes in
                (format, try? InputLoader.table(Data(bytes), file: "time." + suffix, options: ReadOptions()))
            }
        for (format, table) in reads {
            guard let table else { continue }
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
