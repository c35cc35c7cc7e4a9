/// Reads a decimal number written the way XML track files write them, and nothing else.
///
/// The form is `[+-]digits[.digits][(e|E)[+-]digits]` (a leading or trailing point with digits on the other side
/// is allowed), surrounded by optional XML white space. Swift's `Double(String)` also takes `nan`, `inf` and
/// hexadecimal (`0x1p10` is 1024), which no track file means: those are refused here. Plain numbers of up to 19
/// digits are converted as `FastNumber` does (one correctly rounded division); others by `Double(String)` once
/// their form is checked.
enum DecimalNumber {
    /// The finite value of `text`, or nil if it is not a decimal number.
    static func parse(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    /// The finite value of the UTF-8 bytes, or nil if they are not a decimal number.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Double? {
        let range = trimmed(bytes)
        var i = range.lowerBound
        let b = range.upperBound
        var negative = false
        if i < b && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        var digits = 0, fractionDigits = 0
        var mantissa: UInt64 = 0
        // The offsets and counts stay within the bytes' count, so they wrap rather than check.
        while i < b && bytes[i] &- 48 <= 9 {
            mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 48)
            i &+= 1
            digits &+= 1
        }
        if i < b && bytes[i] == UInt8(ascii: ".") {
            i &+= 1
            let first = i
            while i < b && bytes[i] &- 48 <= 9 {
                mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 48)
                i &+= 1
            }
            fractionDigits = i &- first
            digits &+= fractionDigits
        }
        guard digits > 0 else { return nil }
        if i == b && digits <= 19 && mantissa <= 1 << 53 {
            let value = Double(mantissa) / .exactPowerOfTen(fractionDigits)
            return negative ? -value : value
        }
        if i < b && (bytes[i] | 0x20) == UInt8(ascii: "e") {
            i += 1
            if i < b && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
            let first = i
            while i < b && bytes[i] &- 48 <= 9 { i += 1 }
            guard i > first else { return nil }
        }
        guard i == b,
            let value = Double(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)),
            value.isFinite
        else { return nil }
        return value
    }

    /// The range of `bytes` without leading and trailing XML white space.
    @inline(__always)
    static func trimmed(_ bytes: UnsafeRawBufferPointer) -> Range<Int> {
        var a = 0, b = bytes.count
        while a < b && XMLScanner.isSpace(bytes[a]) { a += 1 }
        while b > a && XMLScanner.isSpace(bytes[b - 1]) { b -= 1 }
        return a..<b
    }
}
