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
        name: "ndjson",
        summary: "NDJSON input: no crash; a typed error or a table whose usable rows hold finite numbers"
    ) { bytes in
        readerFinding(bytes, pathExtension: "ndjson")
    }

    /// The GPX reader on arbitrary bytes.
    public static let gpx = FuzzTarget(
        name: "gpx", summary: "GPX input: no crash; a typed error or a table whose rows hold finite numbers"
    ) { bytes in
        readerFinding(bytes, pathExtension: "gpx")
    }

    /// The TCX reader on arbitrary bytes.
    public static let tcx = FuzzTarget(
        name: "tcx", summary: "TCX input: no crash; a typed error or a table whose rows hold finite numbers"
    ) { bytes in
        readerFinding(bytes, pathExtension: "tcx")
    }

    /// The IGC reader on arbitrary bytes.
    public static let igc = FuzzTarget(
        name: "igc", summary: "IGC input: no crash; a typed error or a table whose usable rows hold finite numbers"
    ) { bytes in
        readerFinding(bytes, pathExtension: "igc")
    }

    /// The FIT reader on arbitrary bytes; for an input of even length, with its size and CRCs made to agree first.
    ///
    /// A FIT file carries the size of its records and a CRC of the whole file, checked before any record is
    /// decoded: a random mutation almost never keeps them right, so the fuzzer would test little beyond the
    /// check. Half the inputs (odd lengths) reach the reader as they are; the other half get the header's data
    /// size set to what follows the header, less the 2-byte CRC, the header's CRC zeroed (FIT's "not computed")
    /// and the file's CRC written, so their records reach the decoder.
    public static let fit = FuzzTarget(
        name: "fit",
        summary:
            "FIT input (sizes and CRCs made to agree for even lengths): no crash; a typed error or a table whose rows hold finite numbers"
    ) { bytes in
        readerFinding(bytes.count % 2 == 0 ? withAgreeingFITChecks(bytes) : bytes, pathExtension: "fit")
    }

    /// `bytes` with a 12- or 14-byte FIT header's data size and CRC and the trailing file CRC made to agree with
    /// the bytes (unchanged when too short for a header and a CRC).
    static func withAgreeingFITChecks(_ bytes: [UInt8]) -> [UInt8] {
        guard let first = bytes.first else { return bytes }
        let headerSize = first == 14 ? 14 : 12
        guard bytes.count >= headerSize + 2 else { return bytes }
        var repaired = bytes
        let dataSize = UInt32(bytes.count - headerSize - 2)
        for k in 0..<4 { repaired[4 + k] = UInt8(truncatingIfNeeded: dataSize >> (8 * k)) }
        if headerSize == 14 {
            repaired[12] = 0
            repaired[13] = 0
        }
        let crc = repaired.withUnsafeBytes { FITCRC.checksum($0, 0..<(bytes.count - 2)) }
        repaired[bytes.count - 2] = UInt8(truncatingIfNeeded: crc)
        repaired[bytes.count - 1] = UInt8(truncatingIfNeeded: crc >> 8)
        return repaired
    }

    /// Reads `bytes` as a file named `fuzz.EXTENSION` (the bytes handed to the reader from memory, as
    /// `InputLoader` hands over a file's bytes: an input of libFuzzer's few kilobytes is one chunk of a file too),
    /// and checks what comes back. One read per input keeps the fuzzer fast; its mutations change the length all
    /// the time, so the length picks the options: strict for an even number of bytes, `--skip-invalid` for an odd
    /// one; a track file's elevation by the format's default, as GPS or as barometric for a length of 0, 1 or 2
    /// modulo 3.
    ///
    /// The promises: no crash; a failure is an `InputError` with a message and an error exit code; a table keeps
    /// every row's line number positive and its track among the table's names, and a row without `invalidReason`
    /// holds finite numbers (a finite time; NaN only as "no reading").
    static func readerFinding(_ bytes: [UInt8], pathExtension: String) -> FuzzFinding? {
        let elevations: [ElevationSource?] = [nil, .gps, .barometric]
        let options = ReadOptions(skipInvalid: bytes.count % 2 == 1, elevation: elevations[bytes.count % 3])
        let table: InputTable
        do throws(InputError) {
            table = try InputLoader.table(Data(bytes), file: "fuzz." + pathExtension, options: options)
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
            for case (let name, let value?) in values where !value.isFinite {
                return FuzzFinding("line \(row.line): usable row with \(name) \(value)")
            }
        }
        return nil
    }
}
