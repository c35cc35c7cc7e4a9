import Foundation
import Randomness
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

@Suite("Time texts")
struct TimeTextsTests {
    @Test("Rows appended as strings, bytes and times read back as an array of strings would, sliced and joined")
    func againstAnArray() {
        var random = SeededGenerator(seed: 16)
        let parser = ISO8601Parser()
        var texts = TimeTexts()
        var reference: [String] = []
        for k in 0..<500 {
            let seconds = Double(Int64(truncatingIfNeeded: random.next()) % 4_000_000_000_000) / 1_000
            switch k % 4 {
            case 0:
                texts.append(time: seconds)
                reference.append(parser.text(seconds))
            case 1:
                let text = parser.text(seconds).replacingOccurrences(of: "Z", with: "+02:00")
                Array(text.utf8).withUnsafeBytes { texts.append(utf8: $0) }
                reference.append(text)
            case 2:
                texts.append("")
                reference.append("")
            default:
                texts.append("2024-05-01T12:00:00.123456789é")
                reference.append("2024-05-01T12:00:00.123456789é")
            }
        }
        // Times no date-time can carry are written as their number of seconds, as the parser's text writes them.
        for seconds in [Double.infinity, -1e13, 3e11] {
            texts.append(time: seconds)
            reference.append(parser.text(seconds))
        }
        #expect(texts.count == reference.count)
        #expect((0..<texts.count).allSatisfy { texts[$0] == reference[$0] })
        for range in [0..<0, 0..<1, 3..<17, 250..<503, 502..<503] {
            let slice = texts[range]
            #expect(
                slice.count == range.count && zip(range, 0...).allSatisfy { slice[$1] == reference[$0] }, "\(range)")
        }
        var joined = texts[0..<100]
        joined.append(contentsOf: texts[100..<texts.count])
        #expect(joined == texts)
        joined.removeAll(keepingCapacity: true)
        #expect(joined.isEmpty && joined == [])
        #expect(TimeTexts(arrayLiteral: "a", "bc")[1] == "bc")
    }
}
