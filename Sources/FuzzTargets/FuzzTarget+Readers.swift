import AltimetryIO
import Foundation

extension FuzzTarget {
    /// The CSV reader on arbitrary bytes, stopping at the first invalid row or skipping invalid rows.
    public static let csv = FuzzTarget(
        name: "csv", summary: "CSV input: no crash; a typed error or a table whose usable rows hold finite numbers"
    ) { bytes in
        readerFinding(bytes, pathExtension: "csv")
    }

    /// The NDJSON reader on arbitrary bytes.
    public static let ndjson = FuzzTarget(
        name: "ndjson", summary: "NDJSON input: no crash; a typed error or a table whose usable rows hold finite numbers"
    ) { bytes in
        readerFinding(bytes, pathExtension: "ndjson")
    }

    /// The GPX reader on arbitrary bytes.
    public static let gpx = FuzzTarget(
        name: "gpx", summary: "GPX input: no crash; a typed error or a table whose rows hold finite numbers"
    ) { bytes in
        readerFinding(bytes, pathExtension: "gpx")
    }

    /// Reads `bytes` as a file with `pathExtension`, strict for an even number of bytes and with `skipInvalid` for an odd one (one
    /// read per input keeps the fuzzer fast; its mutations change the length all the time), and checks what comes
    /// back.
    ///
    /// The promises: no crash; a failure is an `InputError` with a message and an error exit code; a table keeps
    /// every row's line number positive and its track among the table's names, and a row without `invalidReason`
    /// holds finite numbers (a finite time; NaN only as "no reading").
    static func readerFinding(_ bytes: [UInt8], pathExtension: String) -> FuzzFinding? {
        let table: InputTable
        do throws(InputError) {
            table = try ScratchFile.table(bytes, pathExtension: pathExtension,
                                          options: ReadOptions(skipInvalid: bytes.count % 2 == 1))
        } catch {
            guard error.message.isEmpty || error.exitCode == .success else { return nil }
            return FuzzFinding("an error without a message or with exit code 0: \(error)")
        }
        return tableFinding(table)
    }

    /// The first row of `table` that breaks a reader's promises, as a finding.
    static func tableFinding(_ table: InputTable) -> FuzzFinding? {
        for row in table.rows {
            guard row.line > 0 else { return FuzzFinding("a row with line number \(row.line)") }
            guard row.track >= 0, row.track < table.trackNames.count else {
                return FuzzFinding("line \(row.line): track \(row.track) of \(table.trackNames.count) names")
            }
            guard row.invalidReason == nil else { continue }
            guard row.time.isFinite else { return FuzzFinding("line \(row.line): usable row with time \(row.time)") }
            let values: [(String, Double?)] = [
                ("pressure", row.pressure), ("gpsAltitude", row.gpsAltitude),
                ("gpsVerticalAccuracy", row.gpsVerticalAccuracy), ("temperature", row.temperature),
                ("reference", row.reference), ("latitude", row.latitude), ("longitude", row.longitude),
            ]
            for case let (name, value?) in values where !value.isFinite {
                return FuzzFinding("line \(row.line): usable row with \(name) \(value)")
            }
        }
        return nil
    }
}
