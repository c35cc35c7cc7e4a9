/// Parses decimal numbers straight from UTF-8 bytes, without making a `String` per cell.
///
/// The fast path reads `[-+]digits[.digits]` with at most 15 significant digits as an integer mantissa m and a
/// count k of fraction digits, and returns m / 10^k. Both m (< 2^53) and 10^k (k ≤ 22) are exact doubles, so the
/// one IEEE division is correctly rounded: the result is the same double `Double(String)` gives (Clinger's fast
/// path). Anything else (exponents, more digits, `nan`, `inf`) goes to `Double(Substring)`, and non-finite
/// results are reported as not numbers by the callers.
enum FastNumber {
    /// The number in `bytes[start..<end]`, or nil if it is not a number.
    static func parse(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Double? {
        var i = start
        guard i < end else { return nil }
        var negative = false
        if bytes[i] == UInt8(ascii: "-") { negative = true; i += 1 } else if bytes[i] == UInt8(ascii: "+") { i += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var fraction = 0
        var sawDot = false
        var simple = i < end
        while i < end {
            let c = bytes[i]
            if c >= 48 && c <= 57 {
                if digits > 0 || c != 48 { digits += 1 }
                mantissa = mantissa &* 10 &+ UInt64(c - 48)
                if sawDot { fraction += 1 }
            } else if c == UInt8(ascii: "."), !sawDot {
                sawDot = true
            } else {
                simple = false
                break
            }
            i += 1
        }
        if simple, digits <= 15, fraction <= 22, end - start > (sawDot ? 1 : 0) + (negative ? 1 : 0) {
            let value = Double(mantissa) / .exactPowerOfTen(fraction)
            return negative ? -value : value
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        return Double(text)
    }
}
