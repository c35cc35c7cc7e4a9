/// Parses decimal numbers straight from UTF-8 bytes, without making a `String` per cell.
///
/// The grammar is JSON's number with an optional leading `+`: `[-+]digits[.digits][(e|E)[-+]digits]`. Anything
/// else (hexadecimal `0x1p10`, `nan`, `inf`, a NUL or any other byte inside the number) is not a number: the
/// system's `strtod`, which `Double(String)` calls, would read `0x1p10` as 1024 and stop silently at a NUL.
///
/// The fast path reads the digits as an integer mantissa m and a count k of fraction digits, and, when there is
/// no exponent, at most 19 digits, m ≤ 2^53 and k ≤ 22, returns m / 10^k. Both are exact doubles, so the one IEEE
/// division is correctly rounded: the result is the same double `Double(String)` gives (Clinger's fast path).
/// Other valid numbers (an exponent, more digits) go to `Double(String)` once the bytes are known to be decimal.
enum FastNumber {
    /// The number in `bytes[start..<end]`, or nil if it is not a decimal number.
    static func parse(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Double? {
        guard start < end, end <= bytes.count, let base = bytes.baseAddress else { return nil }
        let text = base.assumingMemoryBound(to: UInt8.self)
        var i = start
        let negative = text[i] == UInt8(ascii: "-")
        if negative || text[i] == UInt8(ascii: "+") { i += 1 }
        // The whole part's digits, then the fraction's, into one mantissa: one comparison per digit (a byte below
        // '0' wraps to more than 9). Inlined: a capturing local function left as a call checks exclusive access.
        var mantissa: UInt64 = 0
        @inline(__always) func readDigits() -> Int {
            let first = i
            while i < end {
                let digit = text[i] &- 48
                if digit > 9 { break }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                i += 1
            }
            return i - first
        }
        let wholeDigits = readDigits()
        var fractionDigits = 0
        if i < end && text[i] == UInt8(ascii: ".") {
            i += 1
            fractionDigits = readDigits()
        }
        let digits = wholeDigits + fractionDigits
        guard digits > 0 else { return nil }
        if i == end {
            return value(
                bytes, start..<end, mantissa: mantissa, digits: digits, fractionDigits: fractionDigits,
                negative: negative, hasExponent: false)
        }
        // Only an exponent may follow, with at least one digit.
        if i < end && (text[i] == UInt8(ascii: "e") || text[i] == UInt8(ascii: "E")) {
            i += 1
            if i < end && (text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+")) { i += 1 }
            let exponentStart = i
            while i < end && text[i] &- 48 <= 9 { i += 1 }
            guard i > exponentStart else { return nil }
        }
        guard i == end else { return nil }
        return value(
            bytes, start..<end, mantissa: mantissa, digits: digits, fractionDigits: fractionDigits,
            negative: negative, hasExponent: true)
    }

    /// The value of a number's text `bytes[range]` whose grammar a reader has checked, from the mantissa m of its
    /// `digits` digits (`fractionDigits` of them after the point) read on the way: m / 10^k, correctly rounded,
    /// for at most 19 digits, m ≤ 2^53 and no exponent (Clinger's fast path: both are exact doubles, so the one
    /// IEEE division rounds correctly), else `Double(String)` on the text (an infinity beyond the doubles' range).
    @inline(__always)
    static func value(
        _ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, mantissa: UInt64, digits: Int, fractionDigits: Int,
        negative: Bool, hasExponent: Bool
    ) -> Double? {
        if !hasExponent, digits <= 19, mantissa <= 1 << 53 {
            let value = Double(mantissa) / .exactPowerOfTen(fractionDigits)
            return negative ? -value : value
        }
        return Double(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self))
    }

    /// How a message names `text` when it is a non-finite value (`NaN`, `an infinite value`: `nan`, `inf`,
    /// `infinity` in any case and sign, or a decimal number beyond the doubles' range), or nil.
    static func nonFiniteName(_ text: String) -> String? {
        let word = text.lowercased().trimmingPrefix(while: { $0 == "+" || $0 == "-" })
        if word == "nan" { return "NaN" }
        if word == "inf" || word == "infinity" { return "an infinite value" }
        var bytes = Array(text.utf8)
        let value = bytes.withUnsafeMutableBytes { parse(UnsafeRawBufferPointer($0), 0, $0.count) }
        return value.map { $0.isInfinite ? "an infinite value" : nil } ?? nil
    }
}
