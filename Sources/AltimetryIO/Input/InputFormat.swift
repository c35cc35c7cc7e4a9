/// The formats the readers read, known from the input's first bytes, else from its name's extension.
///
/// Content comes first, so a FIT file without an extension, or GPX on standard input, reads as what it is:
/// - FIT: the header's data type `.FIT` at bytes 8 to 11 (FIT Protocol, "File Header").
/// - GPX or TCX: an XML document whose root element (after the declaration, comments and a DOCTYPE, any
///   namespace prefix dropped) is `gpx` or `TrainingCenterDatabase`.
/// - IGC: a first line that is an A record (`A`, the recorder's three-letter manufacturer code, and no comma,
///   semicolon or tab: no CSV header).
/// - NDJSON: a first non-blank byte `{` (a JSON object per line).
///
/// Otherwise the extension decides (`.gpx`, `.tcx`, `.fit`, `.igc`; `.ndjson`, `.jsonl`, `.json`; `.csv`), and a name
/// without one of these is CSV.
package enum InputFormat: Sendable, Equatable {
    case csv, ndjson
    case track(TrackFileFormat)

    /// The most leading bytes `detect` needs: enough for an XML declaration, a comment or two and the root tag.
    package static let sniffedByteCount = 4_096

    /// Whether `detect` could say more with more bytes than `leading` (of an input that has more): fewer than a
    /// FIT header, an XML document before its root tag, or an A record before its line break. A live input on a
    /// pipe (CSV, NDJSON) is then known from its first bytes, without waiting for a few kilobytes.
    package static func needsMoreBytes(_ leading: [UInt8]) -> Bool {
        guard leading.count < sniffedByteCount else { return false }
        if leading.count < 12 { return true }
        if leading[0] == UInt8(ascii: "A") && !leading.contains(10) && !leading.contains(13) { return true }
        guard let first = leading.firstIndex(where: { ![32, 9, 10, 13].contains($0) }) else { return true }
        return leading[first] == UInt8(ascii: "<") && xmlRootName(leading, from: first) == nil
    }

    /// The format of an input whose first bytes (a UTF-8 byte order mark already dropped) are `leading` and
    /// whose name is `name`.
    package static func detect(leading: [UInt8], name: String) -> InputFormat {
        content(of: leading) ?? InputFormat(extensionOf: name) ?? .csv
    }

    /// The format `name`'s extension names (any case), or nil.
    package init?(extensionOf name: String) {
        if let track = TrackFileFormat(path: name) {
            self = .track(track)
            return
        }
        let lower = name.lowercased()
        if [".ndjson", ".jsonl", ".json"].contains(where: lower.hasSuffix) {
            self = .ndjson
        } else if lower.hasSuffix(".csv") {
            self = .csv
        } else {
            return nil
        }
    }

    /// The format the bytes show, or nil when they show none of FIT, GPX, TCX, IGC or NDJSON.
    static func content(of bytes: [UInt8]) -> InputFormat? {
        if bytes.count >= 12, bytes[8...11].elementsEqual(".FIT".utf8) { return .track(.fit) }
        if isIGCRecord(bytes) { return .track(.igc) }
        guard let first = bytes.firstIndex(where: { ![32, 9, 10, 13].contains($0) }) else { return nil }
        switch bytes[first] {
        case UInt8(ascii: "{"): return .ndjson
        case UInt8(ascii: "<"):
            switch xmlRootName(bytes, from: first) {
            case "gpx": return .track(.gpx)
            case "TrainingCenterDatabase": return .track(.tcx)
            default: return nil
            }
        default: return nil
        }
    }

    /// The local name of the first element of the XML text in `bytes` from `start` (a `<`), skipping the
    /// declaration and processing instructions (`<?...?>`), comments (`<!--...-->`) and a DOCTYPE (`<!...>`);
    /// nil when `bytes` end first.
    static func xmlRootName(_ bytes: [UInt8], from start: Int) -> String? {
        var k = start
        func skip(past terminator: String) -> Bool {
            let end = Array(terminator.utf8)
            while k + end.count <= bytes.count {
                if bytes[k..<(k + end.count)].elementsEqual(end) {
                    k += end.count
                    return true
                }
                k += 1
            }
            return false
        }
        while k < bytes.count {
            let byte = bytes[k]
            if [32, 9, 10, 13].contains(byte) {
                k += 1
                continue
            }
            guard byte == UInt8(ascii: "<"), k + 1 < bytes.count else { return nil }
            let next = bytes[k + 1]
            if next == UInt8(ascii: "?") {
                guard skip(past: "?>") else { return nil }
            } else if bytes[k...].starts(with: "<!--".utf8) {
                guard skip(past: "-->") else { return nil }
            } else if next == UInt8(ascii: "!") {
                guard skip(past: ">") else { return nil }
            } else {
                var end = k + 1
                while end < bytes.count, ![32, 9, 10, 13, UInt8(ascii: ">"), UInt8(ascii: "/")].contains(bytes[end]) {
                    end += 1
                }
                guard end < bytes.count else { return nil }
                let qualified = String(decoding: bytes[(k + 1)..<end], as: UTF8.self)
                return qualified.split(separator: ":").last.map(String.init) ?? qualified
            }
        }
        return nil
    }

    /// Whether the first line of `bytes` is an IGC A record: `A`, three letters or digits (the manufacturer),
    /// and no comma, semicolon or tab up to the line break.
    static func isIGCRecord(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4, bytes[0] == UInt8(ascii: "A") else { return false }
        let isCode = { (b: UInt8) in (b >= 65 && b <= 90) || (b >= 48 && b <= 57) }
        guard bytes[1...3].allSatisfy(isCode) else { return false }
        let line = bytes.prefix { $0 != 10 && $0 != 13 }
        return !line.contains { [UInt8(ascii: ","), UInt8(ascii: ";"), 9].contains($0) }
    }
}
