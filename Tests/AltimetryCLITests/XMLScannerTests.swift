import Foundation
import Randomness
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

@Suite("XML scanner")
struct XMLScannerTests {
    @Test("The name-byte bit set says what isNameStart or isNameRest says, for every byte")
    func nameBytes() {
        for value in 0...255 {
            let c = UInt8(value)
            #expect(
                XMLScanner.isNameByte(c) == (XMLScanner.isNameStart(c) || XMLScanner.isNameRest(c)), "byte \(value)")
        }
    }

    /// The events of `text`, as strings: `<name`, `</name`, and the decoded text.
    static func events(_ text: String) throws -> [String] {
        let data = Data(text.utf8)
        return try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws -> [String] in
            var scanner = try XMLScanner(bytes)
            var out: [String] = []
            while let event = try scanner.next() {
                switch event {
                case .start(let name, _): out.append("<" + scanner.string(name))
                case .end(let name): out.append("</" + scanner.string(name))
                case .text(let range, _):
                    var decoded: [UInt8] = []
                    scanner.appendDecoded(range, to: &decoded)
                    out.append(String(decoding: decoded, as: UTF8.self))
                }
            }
            return out
        }
    }

    @Test(
        "Names with digits, dots, dashes and prefixes end where the name ends; text is decoded with and without references"
    )
    func namesAndText() throws {
        #expect(
            try Self.events("<a-1.b:c_d x='1'>t&amp;u<e/>v</a-1.b:c_d>")
                == ["<a-1.b:c_d", "t&u", "<e", "</e", "v", "</a-1.b:c_d"])
        #expect(try Self.events("<é>plain text</é>") == ["<é", "plain text", "</é"])
    }

    /// Random bytes of length `count`, drawn from `alphabet`.
    static func bytes(_ count: Int, from alphabet: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        (0..<count).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
    }

    @Test("The word-at-a-time search finds the byte and the references a byte loop finds, at every offset and length")
    func findAgainstALoop() {
        var random = SeededGenerator(seed: 41)
        let alphabet = Array("<&\"'ab ".utf8)
        for trial in 0..<4_000 {
            let text = Self.bytes(Int(random.next() % 41), from: alphabet, &random)
            let start = text.isEmpty ? 0 : Int(random.next() % UInt64(text.count + 1))
            let (target, stop): (UInt8, UInt8) =
                trial % 2 == 0
                ? (UInt8(ascii: "<"), 0) : (trial % 4 == 1 ? UInt8(ascii: "\"") : UInt8(ascii: "'"), UInt8(ascii: "<"))
            var offset = start
            var references = false
            while offset < text.count && text[offset] != target && !(stop != 0 && text[offset] == stop) {
                if text[offset] == UInt8(ascii: "&") { references = true }
                offset += 1
            }
            let found = text.withUnsafeBytes { raw in
                // A copy with room before and after, so a base address exists for the empty text too.
                withUnsafeTemporaryAllocation(byteCount: text.count + 1, alignment: 1) { buffer in
                    buffer.copyMemory(from: raw)
                    return XMLScanner.find(
                        target, orEnd: text.count, from: start, in: UnsafeRawPointer(buffer.baseAddress!), noting: stop)
                }
            }
            #expect(
                found.offset == offset && found.hasReferences == references, "trial \(trial): \(text) from \(start)")
        }
    }

    @Test("The word-at-a-time name end is where a byte loop over isNameByte stops: every byte at every place in a word")
    func nameEndAgainstALoop() {
        // Each byte value after 0 to 8 name bytes, then name bytes: the first stop is that byte, or none.
        for value in 0...255 {
            for place in 0...8 {
                let text =
                    Array(repeating: UInt8(ascii: "a"), count: place) + [UInt8(value)]
                    + Array("b1-.:_é".utf8)
                var expected = 0
                while expected < text.count && XMLScanner.isNameByte(text[expected]) { expected += 1 }
                let found = text.withUnsafeBytes { XMLScanner.nameEnd(from: 0, to: text.count, in: $0.baseAddress!) }
                #expect(found == expected, "byte \(value) after \(place) name bytes")
            }
        }
        // Random mixes of name bytes and others, from random offsets, ending anywhere (the last 7 bytes go one
        // at a time; a load past `end` would read the guard bytes, which are name bytes, and go too far).
        var random = SeededGenerator(seed: 44)
        let alphabet = Array("aZ09-._:\u{7F}/>= \t\n\"'<&@[`{".utf8) + [0x80, 0xC3, 0xA9, 0xFF, 0x00, 0x40, 0x5B, 0x60]
        for trial in 0..<4_000 {
            let text = Self.bytes(Int(random.next() % 41), from: alphabet, &random)
            let start = text.isEmpty ? 0 : Int(random.next() % UInt64(text.count + 1))
            var expected = start
            while expected < text.count && XMLScanner.isNameByte(text[expected]) { expected += 1 }
            let guarded = text + Array(repeating: UInt8(ascii: "a"), count: 8)
            let found = guarded.withUnsafeBytes {
                XMLScanner.nameEnd(from: start, to: text.count, in: $0.baseAddress!)
            }
            #expect(found == expected, "trial \(trial): \(text) from \(start)")
        }
    }

    @Test("localName and name say what a comparison of strings says")
    func namesAgainstStrings() throws {
        let names = [
            "ele", "gpxtpx:ele", "xele", "el", "ele:", ":ele", "a:b:ele", "extensions", "ns3:extensions",
            "extension", "gpxtpx:TrackPointExtension", "TrackPointExtension", "atemp", "g:atemp", "Xatemp", "",
        ]
        for written in names {
            let data = Data(("<" + (written.isEmpty ? "r" : written) + "/>").utf8)
            try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws in
                var scanner = try XMLScanner(bytes)
                guard case .start(let range, _) = try scanner.next() else {
                    Issue.record("no start tag in \(written)")
                    return
                }
                let name = scanner.string(range)
                let local = name.split(separator: ":", omittingEmptySubsequences: false).last.map(String.init) ?? ""
                #expect(scanner.localName(range, is: "ele") == (local == "ele"), "\(name)")
                #expect(scanner.localName(range, is: "extensions") == (local == "extensions"), "\(name)")
                #expect(scanner.localName(range, is: "atemp") == (local == "atemp"), "\(name)")
                #expect(
                    scanner.localName(range, is: "TrackPointExtension") == (local == "TrackPointExtension"), "\(name)")
                #expect(scanner.name(range, is: "ele") == (name == "ele"), "\(name)")
                #expect(scanner.name(range, is: "extensions") == (name == "extensions"), "\(name)")
            }
        }
    }

    @Test("Word-at-a-time equality says what a byte-by-byte comparison says, for names of 0 to 40 bytes")
    func equalAgainstALoop() {
        var random = SeededGenerator(seed: 42)
        for trial in 0..<4_000 {
            let count = Int(random.next() % 41)
            let a = Self.bytes(count, from: Array("ab".utf8), &random)
            // Mostly equal names, some differing in one byte anywhere.
            var b = a
            if count > 0 && trial % 2 == 1 { b[Int(random.next() % UInt64(count))] = UInt8(ascii: "c") }
            let both = a + b
            let equal = both.withUnsafeBytes { XMLScanner.equal($0, 0, count, count: count) }
            #expect(equal == (a == b), "trial \(trial): \(a) and \(b)")
        }
    }

    @Test("The UTF-8 check finds the first byte Swift's own UTF-8 parser refuses, or the first NUL, at any length")
    func utf8AgainstTheStandardLibrary() {
        var random = SeededGenerator(seed: 43)
        // ASCII, two-, three- and four-byte characters, NUL, stray continuation bytes, an overlong form, a
        // surrogate and a value past U+10FFFF; mostly ASCII, so the 32- and 8-byte steps run.
        let pieces: [[UInt8]] =
            Array(repeating: Array("abcdefgh".utf8), count: 24) + [
                Array("é".utf8), Array("€".utf8), Array("𝄞".utf8), [0], [0x80], [0xC0, 0x80], [0xED, 0xA0, 0x80],
                [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82],
            ]
        for trial in 0..<3_000 {
            var bytes: [UInt8] = []
            while bytes.count < Int(random.next() % 80) { bytes += pieces[Int(random.next() % UInt64(pieces.count))] }
            var reference: Int?
            var parser = Unicode.UTF8.ForwardParser()
            var iterator = bytes.makeIterator()
            var offset = 0
            parsing: while true {
                switch parser.parseScalar(from: &iterator) {
                case .valid(let encoded):
                    if encoded.count == 1 && encoded.first == 0 {
                        reference = offset
                        break parsing
                    }
                    offset += encoded.count
                case .error:
                    reference = offset
                    break parsing
                case .emptyInput:
                    break parsing
                }
            }
            let found = bytes.withUnsafeBytes { XMLScanner.firstInvalidUTF8($0) }
            #expect(found == reference, "trial \(trial): \(bytes)")
        }
    }
}
