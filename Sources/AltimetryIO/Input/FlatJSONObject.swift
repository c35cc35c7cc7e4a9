/// One line of NDJSON scanned as a flat JSON object (RFC 8259): members whose values are numbers, strings,
/// `true`, `false` or `null`, found in place, without decoding anything that is not asked for.
///
/// Strict: what is not one such object (a nested object or array, a trailing comma, a missing quote, bytes
/// after the closing brace, a control character in a string, a malformed escape, a number outside JSON's
/// grammar such as `+1`, `.5`, `01` or `0x10`, bytes that are not UTF-8) is an error with its column. A key
/// given twice is an error too (JSON leaves its meaning open). Checked against Foundation's `JSONSerialization`
/// on random and mutated lines (FlatJSONObjectTests).
struct FlatJSONObject {
    /// What a member's value is.
    enum Kind: Equatable {
        case number, string, `true`, `false`, null
    }

    /// One member: the key's and the value's bytes (a string's without its quotes), whether a string holds
    /// escapes or bytes beyond ASCII (then it must be decoded rather than read as it stands), and a number's value.
    struct Member {
        var keyStart = 0, keyEnd = 0
        var keyIsPlain = true
        var kind = Kind.null
        var valueStart = 0, valueEnd = 0
        var valueIsPlain = true
        /// A number's value, read as the bytes were scanned (`FlatJSONObject.number`); NaN for other kinds.
        var number = Double.nan
    }

    /// Where scanning stopped, as a 1-based byte column, and why.
    struct Failure: Error {
        var column: Int
        var message: String
    }

    /// The members of the line last scanned.
    var members: ArraySlice<Member> { storage[..<count] }
    /// The members' storage, reused line after line: the first `count` are the last line's.
    private var storage: [Member] = []
    private var count = 0

    /// Scans `bytes[start..<end]` (one line without its line break).
    ///
    /// - Throws: `Failure` naming the column and what was expected.
    mutating func scan(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) throws(Failure) {
        count = 0
        var i = start
        func fail(_ message: String) -> Failure { Failure(column: i - start + 1, message: message) }
        func skipBlanks() {
            while i < end, bytes[i] == 32 || bytes[i] == 9 || bytes[i] == 13 { i += 1 }
        }
        skipBlanks()
        guard i < end, bytes[i] == UInt8(ascii: "{") else { throw fail("expected '{' to open a JSON object") }
        i += 1
        skipBlanks()
        if i < end && bytes[i] == UInt8(ascii: "}") {
            i += 1
        } else {
            while true {
                var member = Member()
                guard i < end, bytes[i] == 34 else { throw fail("expected a field name in double quotes") }
                (member.keyStart, member.keyEnd, member.keyIsPlain) = try string(bytes, &i, end, start)
                skipBlanks()
                guard i < end, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':' after the field name") }
                i += 1
                skipBlanks()
                guard i < end else { throw fail("expected a value") }
                switch bytes[i] {
                case 34:
                    member.kind = .string
                    (member.valueStart, member.valueEnd, member.valueIsPlain) = try string(bytes, &i, end, start)
                case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                    let (word, kind): (StaticString, Kind) =
                        bytes[i] == UInt8(ascii: "t")
                        ? ("true", .true)
                        : bytes[i] == UInt8(ascii: "f") ? ("false", .false) : ("null", .null)
                    guard matches(bytes, i, end, word) else {
                        throw fail("expected a number, a string, true, false or null")
                    }
                    member.kind = kind
                    member.valueStart = i
                    i += word.utf8CodeUnitCount
                    member.valueEnd = i
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    throw fail(
                        "found a nested \(bytes[i] == UInt8(ascii: "{") ? "object" : "array"); expected a number, "
                            + "a string, true, false or null (the format's objects are flat)")
                default:
                    member.kind = .number
                    member.valueStart = i
                    guard let number = Self.number(bytes, &i, end) else {
                        throw fail("expected a number, a string, true, false or null")
                    }
                    member.number = number
                    member.valueEnd = i
                }
                for k in 0..<count where Self.sameKey(bytes, storage[k], member) {
                    throw Failure(
                        column: member.keyStart - start,
                        message: "found the field '\(Self.key(bytes, member))' twice; expected each field once")
                }
                if count < storage.count { storage[count] = member } else { storage.append(member) }
                count += 1
                skipBlanks()
                guard i < end else { throw fail("expected ',' or '}'") }
                if bytes[i] == UInt8(ascii: ",") {
                    i += 1
                    skipBlanks()
                    continue
                }
                guard bytes[i] == UInt8(ascii: "}") else { throw fail("expected ',' or '}'") }
                i += 1
                break
            }
        }
        skipBlanks()
        guard i == end else {
            throw fail(
                bytes[start..<end].contains(13)
                    ? "found more after the object, past a carriage return: the file's lines "
                        + "end with CR alone; expected LF or CRLF line breaks"
                    : "found more after the object; expected one object per line")
        }
    }

    /// Whether `bytes[i...]` starts with `word`.
    private func matches(_ bytes: UnsafeRawBufferPointer, _ i: Int, _ end: Int, _ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard end - i >= count else { return false }
        for k in 0..<count where bytes[i + k] != word.utf8Start[k] { return false }
        return true
    }

    /// Scans a string from its opening quote at `i` to past its closing one.
    ///
    /// - Returns: the bytes between the quotes, and whether they are plain (ASCII, no escape).
    @inline(__always)
    private func string(
        _ bytes: UnsafeRawBufferPointer, _ i: inout Int, _ end: Int,
        _ lineStart: Int
    ) throws(Failure) -> (Int, Int, Bool) {
        i += 1
        let first = i
        var plain = true
        while i < end {
            // Eight bytes at a time up to the first that needs a look (a quote, a backslash, a control character, a
            // byte beyond ASCII): with 0x01 in every byte lane, (x − 0x01…) & ¬x has the top bit of each zero byte
            // of x set, here of w ⊕ 0x22… and w ⊕ 0x5C…, and (w − 0x20…) & ¬w that of each byte below 0x20; w's own
            // top bits are the bytes beyond ASCII. A borrow can mark a byte above a marked one, never below, so the
            // lowest mark is the first such byte (Warren, *Hacker's Delight*, §6-1). No word reaches past `end`.
            while end - i >= 8 {
                let w = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                let ones: UInt64 = 0x0101_0101_0101_0101
                let quote = w ^ (0x22 &* ones), backslash = w ^ (0x5C &* ones)
                let marks =
                    ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (w &- 0x20 &* ones) & ~w | w)
                    & (0x80 &* ones)
                if marks != 0 {
                    i += marks.trailingZeroBitCount / 8
                    break
                }
                i += 8
            }
            guard i < end else { break }
            let c = bytes[i]
            if c == 34 {
                i += 1
                if !plain && Self.decode(bytes, first, i - 1, plain: false) == nil {
                    throw Failure(
                        column: first - lineStart,
                        message: "found a string that is not UTF-8 (or holds a lone "
                            + "surrogate escape); expected UTF-8 text")
                }
                return (first, i - 1, plain)
            }
            if c < 32 {
                throw Failure(
                    column: i - lineStart + 1, message: "found a control character in a string; expected it escaped")
            }
            if c == 92 {
                plain = false
                guard i + 1 < end else { break }
                switch bytes[i + 1] {
                case 34, 92, 47, UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"),
                    UInt8(ascii: "t"):
                    i += 2
                case UInt8(ascii: "u"):
                    guard i + 5 < end, (2...5).allSatisfy({ Self.hexValue(bytes[i + $0]) != nil }) else {
                        throw Failure(
                            column: i - lineStart + 1,
                            message: "found a malformed \\u escape; expected four hexadecimal digits")
                    }
                    i += 6
                default:
                    throw Failure(
                        column: i - lineStart + 1,
                        message: "found an unknown escape; expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u")
                }
                continue
            }
            if c >= 0x80 { plain = false }
            i += 1
        }
        throw Failure(
            column: i - lineStart + 1, message: "found no closing quote; expected a string to end on its line")
    }

    /// Skips a number in JSON's grammar, `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][-+]?[0-9]+)?`.
    ///
    /// - Returns: false if the bytes at `i` are not one.
    static func skipNumber(_ bytes: UnsafeRawBufferPointer, _ i: inout Int, _ end: Int) -> Bool {
        number(bytes, &i, end) != nil
    }

    /// Reads a number in JSON's grammar, `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][-+]?[0-9]+)?`, from `i` to past it, and
    /// its value: the digits go into an integer mantissa as they are checked, so the bytes are read once.
    ///
    /// The value is the one `FastNumber.parse` gives for the same text (its grammar is this one's, with a `+`
    /// allowed): m / 10^k, correctly rounded, for at most 19 digits, m ≤ 2^53 and no exponent (Clinger's fast
    /// path), else `Double(String)`: an infinity beyond the doubles' range.
    ///
    /// - Returns: nil, with `i` where the grammar failed, if the bytes at `i` are not a number.
    @inline(__always)
    static func number(_ bytes: UnsafeRawBufferPointer, _ i: inout Int, _ end: Int) -> Double? {
        let start = i
        var mantissa: UInt64 = 0
        @inline(__always) func digits() -> Int {
            let first = i
            while i < end {
                let digit = bytes[i] &- 48
                if digit > 9 { break }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                i += 1
            }
            return i - first
        }
        let negative = i < end && bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        guard i < end else { return nil }
        var wholeDigits = 1
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            wholeDigits = digits()
            guard wholeDigits > 0 else { return nil }
        }
        var fractionDigits = 0
        if i < end && bytes[i] == UInt8(ascii: ".") {
            i += 1
            fractionDigits = digits()
            guard fractionDigits > 0 else { return nil }
        }
        var hasExponent = false
        if i < end && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            hasExponent = true
            i += 1
            if i < end && (bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+")) { i += 1 }
            let exponentStart = i
            while i < end && bytes[i] &- 48 <= 9 { i += 1 }
            guard i > exponentStart else { return nil }
        }
        return FastNumber.value(
            bytes, start..<i, mantissa: mantissa, digits: wholeDigits + fractionDigits,
            fractionDigits: fractionDigits, negative: negative, hasExponent: hasExponent) ?? .nan
    }

    static func hexValue(_ c: UInt8) -> UInt32? {
        switch c {
        case 48...57: return UInt32(c - 48)
        case 65...70: return UInt32(c - 55)
        case 97...102: return UInt32(c - 87)
        default: return nil
        }
    }

    /// The decoded text of a string's bytes (between its quotes), or nil when they are not valid UTF-8 or hold a
    /// lone surrogate escape.
    static func decode(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int, plain: Bool) -> String? {
        let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
        if plain { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        var i = start
        func hex4(_ at: Int) -> UInt32 {
            (0..<4).reduce(0) { $0 << 4 | (hexValue(bytes[at + $1]) ?? 0) }
        }
        while i < end {
            let c = bytes[i]
            guard c == 92 else {
                out.append(c)
                i += 1
                continue
            }
            let e = bytes[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "b"): out.append(8)
            case UInt8(ascii: "f"): out.append(12)
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "r"): out.append(13)
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "u"):
                var scalar = hex4(i)
                i += 4
                if (0xD800..<0xDC00).contains(scalar) {
                    guard i + 6 <= end, bytes[i] == 92, bytes[i + 1] == UInt8(ascii: "u") else { return nil }
                    let low = hex4(i + 2)
                    guard (0xDC00..<0xE000).contains(low) else { return nil }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                } else if (0xDC00..<0xE000).contains(scalar) {
                    return nil
                }
                guard let unicode = Unicode.Scalar(scalar) else { return nil }
                out.append(contentsOf: Array(String(unicode).utf8))
            default: out.append(e)
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    /// A member's key, decoded (for messages and unknown fields).
    static func key(_ bytes: UnsafeRawBufferPointer, _ member: Member) -> String {
        decode(bytes, member.keyStart, member.keyEnd, plain: member.keyIsPlain) ?? ""
    }

    private static func sameKey(_ bytes: UnsafeRawBufferPointer, _ a: Member, _ b: Member) -> Bool {
        if a.keyIsPlain && b.keyIsPlain {
            guard a.keyEnd - a.keyStart == b.keyEnd - b.keyStart else { return false }
            for k in 0..<(a.keyEnd - a.keyStart) where bytes[a.keyStart + k] != bytes[b.keyStart + k] { return false }
            return true
        }
        return key(bytes, a) == key(bytes, b)
    }
}
