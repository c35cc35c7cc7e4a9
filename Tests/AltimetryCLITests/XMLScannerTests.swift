import Foundation
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
}
