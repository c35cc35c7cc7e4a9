import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads a GPX file's track points (`trkpt`: `lat`, `lon`, `ele`, `time`) as GPS fixes, with Foundation's `XMLParser`.
///
/// `ele` is taken as altitude above mean sea level (as GPX 1.1 defines it), in metres; `time` must be ISO 8601.
/// Points without `ele` are kept as rows without a fix. Each `trk` is one track when there are several.
public enum GPXReader {
    /// Parses `data` as the GPX file named `file` in messages.
    ///
    /// - Throws: `InputError` for XML that does not parse (with the parser's line and column), a file with no
    ///   track point, or a point whose time or elevation is unusable.
    public static func read(_ data: Data, file: String) throws(InputError) -> InputTable {
        guard !data.isEmpty else {
            throw InputError(file: file, message: "the file is empty; expected a GPX document with track points")
        }
        // Foundation's XMLParser on Linux can trap on malformed UTF-8 inside a tag, so the bytes are checked first.
        if let (line, column) = firstInvalidUTF8(data) {
            throw InputError(file: file, line: line,
                             message: "malformed GPX (column \(column): a byte sequence that is not UTF-8); expected a UTF-8 XML document")
        }
        let delegate = Delegate(file: file)
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        let ok = parser.parse()
        if let error = delegate.error { throw error }
        guard ok, parser.parserError == nil, delegate.open.isEmpty else {
            let detail = parser.parserError.map { ($0 as NSError).localizedDescription }
                ?? "unclosed element <\(delegate.open.last ?? "")>"
            throw InputError(file: file, line: parser.lineNumber,
                             message: "malformed GPX (XML error at column \(parser.columnNumber): \(detail)); expected well-formed XML")
        }
        guard !delegate.table.rows.isEmpty else {
            throw InputError(file: file, message: "found no track points (trkpt); expected a GPX track")
        }
        return delegate.table
    }

    /// The line and column (one-based, in bytes) of the first byte that does not start valid UTF-8, or of a NUL.
    static func firstInvalidUTF8(_ data: Data) -> (line: Int, column: Int)? {
        struct Counting: IteratorProtocol {
            var base: Data.Iterator
            var consumed = 0
            mutating func next() -> UInt8? {
                guard let byte = base.next() else { return nil }
                consumed += 1
                return byte
            }
        }
        var iterator = Counting(base: data.makeIterator())
        var decoder = UTF8()
        var line = 1, lineStart = 0, scalarStart = 0
        while true {
            scalarStart = iterator.consumed
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\0" { return (line, scalarStart - lineStart + 1) }
                if scalar == "\n" {
                    line += 1
                    lineStart = iterator.consumed
                }
            case .emptyInput:
                return nil
            case .error:
                return (line, scalarStart - lineStart + 1)
            }
        }
    }

    private final class Delegate: NSObject, XMLParserDelegate {
        let file: String
        var table: InputTable
        var error: InputError?
        var text = ""
        var current: InputRow?
        var currentTimeText = ""
        var trackCount = 0
        /// Elements opened and not yet closed, innermost last (libxml2 recovers from some mismatches silently).
        var open: [String] = []
        let iso = ISO8601Parser()

        init(file: String) {
            self.file = file
            table = InputTable(file: file)
            table.timeTexts = []
            table.trackNames = []
        }

        func fail(_ parser: XMLParser, _ message: String) {
            if error == nil { error = InputError(file: file, line: parser.lineNumber, message: message) }
            parser.abortParsing()
        }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            text = ""
            open.append(name)
            switch name {
            case "trk":
                trackCount += 1
                table.trackNames.append("track \(trackCount)")
            case "trkpt":
                if table.trackNames.isEmpty { table.trackNames = ["track 1"] }
                current = InputRow(line: parser.lineNumber, time: .nan, track: table.trackNames.count - 1,
                                   latitude: attributes["lat"].flatMap(Double.init),
                                   longitude: attributes["lon"].flatMap(Double.init))
                currentTimeText = ""
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            guard open.last == name else {
                return fail(parser, "malformed GPX: found </\(name)> where </\(open.last ?? "")> was expected; expected well-formed XML")
            }
            open.removeLast()
            guard current != nil else { return }
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            switch name {
            case "ele":
                guard let altitude = Double(value), altitude.isFinite, abs(altitude) < 20_000 else {
                    return fail(parser, "found ele '\(value)', expected a finite elevation in metres")
                }
                current?.gpsAltitude = altitude
            case "time":
                guard let seconds = iso.seconds(value) else {
                    return fail(parser, "found time '\(value)', expected an ISO 8601 time such as 2024-05-01T12:00:00Z")
                }
                current?.time = seconds
                currentTimeText = value
            case "trkpt":
                guard let row = current else { return }
                guard !row.time.isNaN else { return fail(parser, "found a track point without a time; expected <time>") }
                if let last = table.rows.last, last.track == row.track, row.time < last.time {
                    return fail(parser, "time went backwards: found \(value.isEmpty ? currentTimeText : value) "
                                + "before the previous point; expected times that never decrease")
                }
                table.rows.append(row)
                table.timeTexts?.append(currentTimeText)
                current = nil
            default: break
            }
        }
    }
}
