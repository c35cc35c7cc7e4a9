import Foundation
import Randomness
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

/// `FlatJSONObject` against Foundation's `JSONSerialization` as the independent reference, on random flat
/// objects and on mutations of them. Three differences are on purpose: a key given twice and a trailing comma
/// (refused here, taken by Foundation), and a number beyond the doubles' range (taken here, refused as a value by
/// the reader).
@Suite("FlatJSONObject")
struct FlatJSONObjectTests {
    static let keys = [
        "t", "pressure_hpa", "gps_alt_m", "track_id", "user", "h\\u00e9", "a\\\"b", "x y", "é", "\\ud83d\\ude00",
    ]
    static let strings = [
        "", "walk", "2024-05-01T12:00:00Z", "\\n\\t\\\\", "\\u0041\\u00e9", "ünï", "\\ud83d\\ude00", "a/b\\/c",
    ]

    /// A random flat object: 0 to 5 members with random keys, and numbers, strings, true, false or null.
    static func line(_ random: inout SeededGenerator) -> String {
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        func number() -> String {
            var text = pick(["", "-"]) + pick(["0", "7", "42", "1013", "987654321", "12345678901234567890"])
            if random.next() % 2 == 0 { text += "." + pick(["0", "25", "000001", "999999999999"]) }
            if random.next() % 4 == 0 {
                text += pick(["e", "E"]) + pick(["", "+", "-"]) + pick(["0", "3", "22", "308", "400"])
            }
            return text
        }
        let count = Int(random.next() % 6)
        let members = (0..<count).map { _ -> String in
            let value: String
            switch random.next() % 5 {
            case 0, 1: value = number()
            case 2: value = "\"" + pick(strings) + "\""
            case 3: value = pick(["true", "false"])
            default: value = "null"
            }
            return "\"" + pick(keys) + "\"" + pick(["", " "]) + ":" + pick(["", " ", "\t"]) + value
        }
        return pick(["", " "]) + "{" + members.joined(separator: pick([",", ", "])) + "}" + pick(["", " ", "\r"])
    }

    /// `text` with one to three random edits: a byte deleted, inserted or replaced by one of JSON's own.
    static func mutate(_ text: String, _ random: inout SeededGenerator) -> [UInt8] {
        var bytes = Array(text.utf8)
        let alphabet = Array("{}[]\",:\\ -+.0123456789eEtfnul\u{0}x\r".utf8) + [0xC3, 0xA9, 0xFF]
        for _ in 0...(random.next() % 3) {
            let i = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count))
            let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
            switch random.next() % 3 {
            case 0 where !bytes.isEmpty: bytes.remove(at: i)
            case 1: bytes.insert(byte, at: i)
            default: if !bytes.isEmpty { bytes[i] = byte }
            }
        }
        return bytes.filter { $0 != 10 }
    }

    /// What Foundation makes of the line: its members when it is a flat object, nil when it is not one.
    static func reference(_ bytes: [UInt8]) -> [String: Any]? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes), options: []) as? [String: Any],
            object.values.allSatisfy({ !($0 is [Any]) && !($0 is [String: Any]) })
        else { return nil }
        return object
    }

    @Test(
        "accepts exactly the flat objects Foundation accepts, with the same members and values",
        arguments: [1, 2, 3] as [UInt64])
    func matchesFoundation(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var scanner = FlatJSONObject()
        var (accepted, refused) = (0, 0)
        for k in 0..<6_000 {
            let text = Self.line(&random)
            let bytes = k % 2 == 0 ? Array(text.utf8) : Self.mutate(text, &random)
            let expected = Self.reference(bytes)
            let outcome = bytes.withUnsafeBytes {
                raw -> Result<[(String, FlatJSONObject.Kind, String, Double)], FlatJSONObject.Failure> in
                do throws(FlatJSONObject.Failure) {
                    try scanner.scan(raw, 0, raw.count)
                    return .success(
                        scanner.members.map { m in
                            let value =
                                m.kind == .string
                                ? FlatJSONObject.decode(raw, m.valueStart, m.valueEnd, plain: m.valueIsPlain) ?? "?"
                                : String(
                                    decoding: UnsafeRawBufferPointer(rebasing: raw[m.valueStart..<m.valueEnd]),
                                    as: UTF8.self)
                            return (FlatJSONObject.key(raw, m), m.kind, value, m.number)
                        })
                } catch {
                    return .failure(error)
                }
            }
            let shown = String(decoding: bytes, as: UTF8.self).debugDescription
            switch (outcome, expected) {
            case (.success(let members), .some(let object)):
                accepted += 1
                #expect(members.count == object.count, "seed \(seed): \(shown)")
                func scanned(_ key: String) -> Double { members.first { $0.0 == key }?.3 ?? -1 }
                for (key, kind, value, _) in members {
                    let reference = object[key]
                    switch kind {
                    case .string: #expect(reference as? String == value, "seed \(seed): \(shown)")
                    case .null: #expect(reference is NSNull, "seed \(seed): \(shown)")
                    case .true, .false:
                        #expect((reference as? NSNumber)?.boolValue == (kind == .true), "seed \(seed): \(shown)")
                    case .number:
                        let number = try #require(reference as? NSNumber, "seed \(seed): \(shown)")
                        let ours = Array(value.utf8).withUnsafeBytes { FastNumber.parse($0, 0, $0.count) }
                        // The value read while scanning is FastNumber's, bit for bit.
                        #expect(
                            ours?.bitPattern == scanned(key).bitPattern,
                            "seed \(seed): \(shown): \(String(describing: ours)) vs \(scanned(key))")
                        let theirs = number.doubleValue
                        // Foundation keeps integers beyond 2^64 as Decimal, whose double may differ in the last bit.
                        #expect(
                            ours.map { $0 == theirs || abs($0 - theirs) <= 1e-15 * abs(theirs) } ?? false,
                            "seed \(seed): \(shown): \(String(describing: ours)) vs \(theirs)")
                    }
                }
            case (.failure(let failure), .some):
                // Refused on purpose: a key given twice, and a trailing comma (RFC 8259 has none; Foundation takes it).
                let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: " ", with: "")
                    .replacingOccurrences(of: "\t", with: "").replacingOccurrences(of: "\r", with: "")
                #expect(
                    failure.message.contains("twice") || text.hasSuffix(",}"),
                    "seed \(seed): refused what Foundation accepts: \(shown): \(failure.message)")
                refused += 1
            case (.success(let members), .none):
                // The one difference on purpose: a number beyond the doubles' range (1e400) is valid JSON, which
                // Foundation refuses and this scanner takes, leaving it to the reader to refuse as a value.
                let beyondRange = members.contains { _, kind, value, _ in
                    kind == .number
                        && (Array(value.utf8).withUnsafeBytes { FastNumber.parse($0, 0, $0.count) }?.isInfinite ?? false)
                }
                if !beyondRange { Issue.record("seed \(seed): accepted what Foundation refuses: \(shown)") }
            case (.failure(let failure), .none):
                refused += 1
                #expect(failure.column >= 1 && failure.column <= bytes.count + 1, "seed \(seed): \(shown)")
            }
        }
        #expect(accepted > 1_000 && refused > 1_000, "both sides exercised: \(accepted) accepted, \(refused) refused")
    }

    /// Strings are scanned eight bytes at a time up to the first byte that needs a look; each such byte, and the
    /// bytes either side of the boundary (DEL, a space, 0x1F), at every place in strings of 0 to 24 bytes, must be
    /// judged as Foundation judges it, and a string Foundation takes read to the same text.
    @Test(
        "reads every byte of a key and a string value alike at every place in the word",
        arguments: ["\"", "\\n", "\u{01}", "\u{1F}", " ", "\u{7F}", "é", "\\\"", "\\u00e9", "\\"])
    func everyPlaceInTheWord(special: String) {
        var scanner = FlatJSONObject()
        for length in 0...24 {
            for place in 0...length {
                let text =
                    String(repeating: "a", count: place) + special + String(repeating: "b", count: length - place)
                for line in ["{\"\(text)\":1}", "{\"k\":\"\(text)\"}"] {
                    let bytes = Array(line.utf8)
                    let expected = Self.reference(bytes)
                    let scanned = bytes.withUnsafeBytes { raw -> [String]? in
                        do throws(FlatJSONObject.Failure) {
                            try scanner.scan(raw, 0, raw.count)
                            return scanner.members.map { m in
                                m.kind == .string
                                    ? FlatJSONObject.key(raw, m) + "="
                                        + (FlatJSONObject.decode(raw, m.valueStart, m.valueEnd, plain: m.valueIsPlain)
                                            ?? "?")
                                    : FlatJSONObject.key(raw, m)
                            }
                        } catch {
                            return nil
                        }
                    }
                    let reference = expected.map { object in
                        object.map { key, value in value is String ? key + "=" + (value as? String ?? "") : key }
                    }
                    #expect(scanned == reference, "\(line.debugDescription)")
                }
            }
        }
    }
}
