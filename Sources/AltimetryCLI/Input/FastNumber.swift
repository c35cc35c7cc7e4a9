/// Parses decimal numbers straight from UTF-8 bytes, without making a `String` per cell.
///
/// The fast path reads `[-+]digits[.digits]` with at most 19 digits as an integer mantissa m (no overflow below
/// 10¹⁹) and a count k of fraction digits, and, when m ≤ 2^53 and k ≤ 22, returns m / 10^k. Both are exact
/// doubles, so the one IEEE division is correctly rounded: the result is the same double `Double(String)` gives
/// (Clinger's fast path). Anything else (exponents, more digits, `nan`, `inf`) goes to `Double(Substring)`, and
/// non-finite results are reported as not numbers by the callers.
enum FastNumber {
    /// The number in `bytes[start..<end]`, or nil if it is not a number.
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
        if i == end, digits > 0, digits <= 19, mantissa <= 1 << 53 {
            let value = Double(mantissa) / .exactPowerOfTen(fractionDigits)
            return negative ? -value : value
        }
        return Double(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
    }
}
