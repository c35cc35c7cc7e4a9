import Foundation
import Randomness
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

/// The strict RFC 3339 parser, checked against Foundation's `ISO8601DateFormatter` (ICU) as an independent
/// reference wherever that one is safe to call and uses the same calendar.
///
/// Foundation keeps milliseconds only (it truncates the fraction) and uses the Julian calendar before 1582-10-15,
/// so values are compared to within 1 ms and dates from 1583 on. It misreads fractions of more than 9 digits
/// (`.7777777777` gives 0.919 s: the digits overflow a 32-bit integer) and crashes on 35 digits or more, so it is
/// only asked about fractions of at most 9 digits.
@Suite("ISO 8601 parser")
struct ISO8601ParserTests {
    let parser = ISO8601Parser()

    /// Foundation's reading of `text`, with the RFC 3339 spellings it does not know (`t`, `z`, a space, a comma)
    /// made the ones it does. Formatters are made once per test (each costs more than a thousand parses).
    final class Reference {
        let plain = ISO8601DateFormatter()
        let fractional: ISO8601DateFormatter = {
            let f = ISO8601DateFormatter()
            f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return f
        }()

        func seconds(_ text: String) -> Double? {
            var normalized = Array(text.utf8)
            if normalized.count > 10, normalized[10] == UInt8(ascii: "t") || normalized[10] == UInt8(ascii: " ") {
                normalized[10] = UInt8(ascii: "T")
            }
            if normalized.count > 19, normalized[19] == UInt8(ascii: ",") { normalized[19] = UInt8(ascii: ".") }
            if normalized.last == UInt8(ascii: "z") { normalized[normalized.count - 1] = UInt8(ascii: "Z") }
            let string = String(decoding: normalized, as: UTF8.self)
            return (plain.date(from: string) ?? fractional.date(from: string))?.timeIntervalSince1970
        }
    }

    /// Whether `seconds` is Foundation's `reference` before it truncated the fraction to milliseconds (to within a
    /// few units in the last place of either, as large times carry about 30 µs).
    static func agrees(_ seconds: Double, _ reference: Double) -> Bool {
        let slack = 4 * max(seconds.ulp, reference.ulp) + 1e-6
        return seconds - reference >= -slack && seconds - reference < 0.001 + slack
    }

    /// Whether Foundation reads `text` right (no run of digits over 9) and shares our calendar.
    static func comparable(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var run = 0, longest = 0
        for b in bytes {
            run = (48...57).contains(b) ? run + 1 : 0
            longest = max(longest, run)
        }
        guard longest <= 9, bytes.count >= 4, let year = Int(String(decoding: bytes[0..<4], as: UTF8.self)) else {
            return false
        }
        return year >= 1583
    }

    @Test("A fraction of 35 digits or more is read, not a crash")
    func longFraction() throws {
        let text = "2024-05-01T12:00:14." + String(repeating: "0", count: 35) + "Z"
        #expect(parser.seconds(text) == 1_714_564_814)
        let long = "2024-05-01T12:00:14.25" + String(repeating: "9", count: 10_000) + "Z"
        let seconds = try #require(parser.seconds(long))
        #expect(abs(seconds - 1_714_564_814.26) < 1e-6)
    }

    @Test(
        "Every accepted form gives Foundation's time",
        arguments: [
            ("2024-05-01T12:00:00Z", 1_714_564_800.0),
            ("2024-05-01T12:00:00.5Z", 1_714_564_800.5),
            ("2024-05-01T12:00:00.123456789Z", 1_714_564_800.123456789),
            ("2024-05-01t12:00:00z", 1_714_564_800),
            ("2024-05-01 12:00:00Z", 1_714_564_800),
            ("2024-05-01T12:00:00,25Z", 1_714_564_800.25),
            ("2024-05-01T12:00:00+02:00", 1_714_557_600),
            ("2024-05-01T12:00:00+0200", 1_714_557_600),
            ("2024-05-01T12:00:00+02", 1_714_557_600),
            ("2024-05-01T12:00:00-05:30", 1_714_584_600),
            ("2024-05-01T12:00:00-00:00", 1_714_564_800),
            ("2024-02-29T00:00:00Z", 1_709_164_800),
            ("2000-02-29T23:59:59Z", 951_868_799),
            ("1969-12-31T23:59:59.5Z", -0.5),
            ("1970-01-01T00:00:00Z", 0),
            ("9999-12-31T23:59:59Z", 253_402_300_799),
            ("1600-03-01T00:00:00Z", -11_670_912_000),
        ])
    func forms(text: String, expected: Double) throws {
        let seconds = try #require(parser.seconds(text))
        #expect(abs(seconds - expected) < 1e-6)
        let foundation = try #require(Reference().seconds(text))
        #expect(Self.agrees(seconds, foundation), "\(text): Foundation \(foundation)")
    }

    @Test(
        "What is not an RFC 3339 time is refused, including what ICU lets through",
        arguments: [
            "", "2024-05-01", "2024-05-01T12:00:00", "2024-05-01T12:00Z", "20240501T120000Z", "2024-5-1T1:2:3Z",
            "2024-02-30T12:00:00Z", "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2024-04-31T00:00:00Z",
            "2024-13-01T00:00:00Z", "2024-00-01T00:00:00Z", "2024-05-00T00:00:00Z", "2024-05-01T24:00:00Z",
            "2024-05-01T12:60:00Z", "2024-05-01T12:00:60Z", "2024-05-01T12:00:00.Z", "2024-05-01T12:00:00.5",
            " 2024-05-01T12:00:00Z", "2024-05-01T12:00:00Z ", "2024-05-01T12:00:00Zjunk", "2024-05-01T12:00:00+24:00",
            "2024-05-01T12:00:00+02:60", "2024-05-01T12:00:00+2:00", "2024-05-01T12:00:00+02:0", "2024-05-01X12:00:00Z",
            "+2024-05-01T12:00:00Z", "2024-05-01T12:00:00\u{0}Z", "2024-05-01T12:00:00.1e3Z", "２０２４-05-01T12:00:00Z",
            "9999-12-31T23:18:59.999-01", "9999-12-31T23:30:00-01:00", "0000-01-01T00:30:00+01:00",
        ])
    func refusals(text: String) {
        #expect(parser.seconds(text) == nil, "\(text.debugDescription)")
    }

    /// A random valid time as text (years 1583-9999, any offset, fractions of 0 to `maximumFractionDigits`
    /// digits, every spelling).
    static func randomText(maximumFractionDigits: Int = 9, using random: inout SeededGenerator) -> String {
        func pick(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(random.next() % UInt64(range.count)) }
        func pad(_ v: Int, _ w: Int) -> String {
            String(repeating: "0", count: max(0, w - String(v).count)) + String(v)
        }
        let year = pick(1583...9999), month = pick(1...12)
        let day = pick(1...ISO8601Parser.daysInMonth(month, year: year))
        var text =
            "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))" + ["T", "t", " "][pick(0...2)]
            + "\(pad(pick(0...23), 2)):\(pad(pick(0...59), 2)):\(pad(pick(0...59), 2))"
        let fractionDigits = pick(0...maximumFractionDigits)
        if fractionDigits > 0 {
            text += [".", ","][pick(0...1)] + String((0..<fractionDigits).map { _ in Character(String(pick(0...9))) })
        }
        switch pick(0...4) {
        case 0: text += "Z"
        case 1: text += "z"
        case 2: text += ["+", "-"][pick(0...1)] + "\(pad(pick(0...23), 2)):\(pad(pick(0...59), 2))"
        case 3: text += ["+", "-"][pick(0...1)] + "\(pad(pick(0...23), 2))\(pad(pick(0...59), 2))"
        default: text += ["+", "-"][pick(0...1)] + pad(pick(0...23), 2)
        }
        return text
    }

    @Test("Random valid times agree with Foundation to the millisecond", arguments: [1, 2, 3] as [UInt64])
    func randomTimes(seed: UInt64) throws {
        let reference = Reference()
        var random = SeededGenerator(seed: seed)
        for _ in 0..<2_000 {
            let text = Self.randomText(using: &random)
            let seconds = try #require(parser.seconds(text), "seed \(seed): \(text)")
            guard Self.comparable(text) else { continue }
            let foundation = try #require(reference.seconds(text), "seed \(seed): \(text)")
            #expect(
                Self.agrees(seconds, foundation), "seed \(seed): \(text) gives \(seconds), Foundation \(foundation)")
        }
    }

    @Test("Mutated times: what we accept, Foundation accepts with the same value", arguments: [7, 8, 9] as [UInt64])
    func mutatedTimes(seed: UInt64) throws {
        let reference = Reference()
        var random = SeededGenerator(seed: seed)
        let alphabet = Array("0123456789-:.,TtZz+ 12".utf8)
        var accepted = 0, refused = 0
        for _ in 0..<3_000 {
            var bytes = Array(Self.randomText(maximumFractionDigits: 20, using: &random).utf8)
            for _ in 0..<(1 + Int(random.next() % 3)) where !bytes.isEmpty {
                let i = Int(random.next() % UInt64(bytes.count))
                let c = alphabet[Int(random.next() % UInt64(alphabet.count))]
                switch random.next() % 3 {
                case 0: bytes[i] = c
                case 1: bytes.remove(at: i)
                default: bytes.insert(c, at: i)
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            guard let seconds = parser.seconds(text) else {
                refused += 1
                continue
            }
            accepted += 1
            guard Self.comparable(text) else { continue }
            let foundation = try #require(
                reference.seconds(text), "seed \(seed): we accept \(text.debugDescription), Foundation does not")
            #expect(
                Self.agrees(seconds, foundation), "seed \(seed): \(text) gives \(seconds), Foundation \(foundation)")
        }
        #expect(accepted > 100 && refused > 100, "seed \(seed): \(accepted) accepted, \(refused) refused")
    }

    @Test("Written times read back to the millisecond", arguments: [11, 12] as [UInt64])
    func textRoundTrip(seed: UInt64) throws {
        let reference = Reference()
        var random = SeededGenerator(seed: seed)
        for k in 0..<2_000 {
            let seconds = (random.uniform() - 0.3) * 1e10
            let value = k % 2 == 0 ? seconds.rounded() : seconds
            let text = parser.text(value)
            let back = try #require(parser.seconds(text), "\(value) wrote \(text)")
            #expect(abs(back - (value * 1_000).rounded() / 1_000) < 1e-6, "\(value) wrote \(text)")
            if Self.comparable(text) {
                #expect(abs((reference.seconds(text) ?? .nan) - back) < 1e-6, "\(text)")
            }
        }
        #expect(parser.text(1_714_564_800) == "2024-05-01T12:00:00Z")
        #expect(parser.text(1_714_564_800.25) == "2024-05-01T12:00:00.250Z")
    }

    /// The writer keeps milliseconds, so every time whose millisecond lies in the years 0000-9999 is written as a
    /// date-time, up to 9999-12-31T23:59:59.999Z, and what rounds past either end is written as its seconds.
    @Test("The first and last milliseconds of the years 0000-9999 are written as date-times, and nothing beyond")
    func writableEdges() throws {
        for (text, seconds) in [
            ("9999-12-31T23:59:59.999Z", 253_402_300_799.999), ("0000-01-01T00:00:00Z", -62_167_219_200),
            ("9999-12-31T23:59:59.999Z", 253_402_300_799.9994), ("0000-01-01T00:00:00.000Z", -62_167_219_200.0004),
        ] {
            #expect(parser.text(seconds) == text, "\(seconds)")
            let back = try #require(parser.seconds(parser.text(seconds)))
            #expect(abs(back - (seconds * 1_000).rounded() / 1_000) < 1e-4, "\(seconds)")
        }
        for seconds in [253_402_300_799.9996, 253_402_300_800, -62_167_219_200.0006, .infinity, .nan] {
            #expect(parser.seconds(parser.text(seconds)) == nil, "\(seconds) wrote \(parser.text(seconds))")
        }
    }

    @Test("Day numbers and dates agree with a walk through the calendar, a day at a time, in years 0000-9999")
    func daysAgainstACalendarWalk() {
        // The walk knows only the month lengths and the leap rule; it covers the first and last centuries, and a
        // full 400-year cycle around 1970, every day.
        func days(in month: Int, of year: Int) -> Int {
            if month == 2 { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28 }
            return [4, 6, 9, 11].contains(month) ? 30 : 31
        }
        // 719,528 days from 0000-01-01 to 1970-01-01; 2,932,896 from 1970-01-01 to 9999-12-31.
        for (firstYear, lastYear, firstDay) in [(0, 100, -719_528), (1800, 2200, -62_091), (9900, 9999, 2_896_373)] {
            var n = firstDay
            var failures = 0
            for year in firstYear...lastYear {
                for month in 1...12 {
                    for day in 1...days(in: month, of: year) {
                        let civil = ISO8601Parser.civilFromDays(n)
                        if ISO8601Parser.daysFromCivil(year: year, month: month, day: day) != n
                            || civil != (year, month, day)
                        {
                            failures += 1
                            if failures < 5 { Issue.record("\(year)-\(month)-\(day) is day \(n); got \(civil)") }
                        }
                        n += 1
                    }
                }
            }
            #expect(failures == 0)
        }
    }
}
