import Foundation
import Randomness
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

@Suite("CSVReader in chunks")
struct CSVReaderChunkTests {
    /// A small CSV mixing everything the chunk merge must get right: interleaved tracks first seen in later
    /// chunks, comments and blank lines, bad cells, short and long rows, times going backwards, a row failing
    /// before its track cell, ISO 8601 times, and, for odd seeds, a last line
    /// without a line break.
    static func messyCSV(seed: UInt64, rows: Int, isoTime: Bool) -> String {
        var generator = SeededGenerator(seed: seed)
        func next(_ n: Int) -> Int { Int(generator.next() % UInt64(n)) }
        var text = isoTime ? "time,track_id,pressure_hpa,gps_alt_m\n" : "t,track_id,pressure_hpa,gps_alt_m\n"
        for i in 0..<rows {
            let t = Double(i / 3) - (next(40) == 0 ? 5 : 0)
            let time = isoTime ? ISO8601Parser().text(1_700_000_000 + t) : "\(t)"
            let track = "walk-\(next(5 + i / 50))"
            switch next(30) {
            case 0: text += "# a comment\n"
            case 1: text += "\n"
            case 2: text += "\(time),\(track),abc,300\n"
            case 3: text += "\(time),\(track)\n"
            case 4: text += "\(time),\(track),1000,300,7\n"
            case 5: text += "bad,\(track),1000,300\n"
            default:
                text += "\(time),\(track),\(1000 + Double(next(100)) / 10),\(next(2) == 0 ? "" : "\(300 + next(9))")\n"
            }
        }
        // An unterminated last line, short, or (a row of walk-0's, timed before its others) going backwards.
        if seed % 4 == 1 { text += "1e9,walk-last,1000" }
        if seed % 4 == 3 { text += isoTime ? "1970-01-01T00:00:00Z,walk-0,1000,300" : "-1,walk-0,1000,300" }
        return text
    }

    @Test(
        "reading in chunks of any size gives the same table, or the same first error, as one chunk",
        arguments: 0..<24)
    func chunksMatchOnePass(seed: Int) throws {
        let text = Self.messyCSV(seed: UInt64(seed), rows: 40 + seed * 13, isoTime: seed % 3 == 0)
        let data = Data(text.utf8)
        for skipInvalid in [false, true] {
            let options = ReadOptions(skipInvalid: skipInvalid)
            let expected = Result { () throws(InputError) in
                try readCSV(data, file: "m.csv", options: options, approximateBytes: 1 << 30)
            }
            for size in [1, 7, 64, 333] {
                let chunked = Result { () throws(InputError) in
                    try readCSV(data, file: "m.csv", options: options, approximateBytes: size)
                }
                let difference = Self.difference(chunked, expected)
                #expect(difference == nil, "seed \(seed), chunks of \(size) bytes, skipInvalid \(skipInvalid)")
            }
        }
    }

    /// The first difference between two outcomes, briefly (the tables are too long to print whole), or nil.
    ///
    /// Rows are compared by their descriptions: a row whose time could not be read has time NaN, which `==`
    /// never calls equal to itself.
    static func difference(_ a: Result<InputTable, InputError>, _ b: Result<InputTable, InputError>) -> String? {
        switch (a, b) {
        case (.failure(let x), .failure(let y)): return x == y ? nil : "errors \(x) vs \(y)"
        case (.success(let x), .success(let y)):
            if x.rows.count != y.rows.count { return "\(x.rows.count) vs \(y.rows.count) rows" }
            if let k = x.rows.indices.first(where: { "\(x.rows[$0])" != "\(y.rows[$0])" }) {
                return "row \(k): \(x.rows[k]) vs \(y.rows[k])"
            }
            if x.trackNames != y.trackNames { return "tracks \(x.trackNames) vs \(y.trackNames)" }
            if x.skipped != y.skipped { return "skipped \(x.skipped) vs \(y.skipped)" }
            var (u, v) = (x, y)
            (u.rows, v.rows) = ([], [])
            return u == v ? nil : "tables differ elsewhere"
        default: return "\(a) vs \(b)".prefix(2_000).description
        }
    }

    @Test("a file with only a header, or a header and one row, reads the same in chunks")
    func tinyFiles() throws {
        for text in ["t,pressure_hpa\n", "t,pressure_hpa", "t,pressure_hpa\n1,1000", "# c\n\nt,pressure_hpa\n1,1000\n"]
        {
            let data = Data(text.utf8)
            let one = try CSVReader.read(data, file: "x.csv")
            let chunked = try readCSV(data, file: "x.csv", options: ReadOptions(), approximateBytes: 1)
            #expect(Self.difference(.success(chunked), .success(one)) == nil, "\(text.debugDescription)")
        }
    }
}
