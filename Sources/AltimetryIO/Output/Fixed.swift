/// Writes numbers as decimal text with a fixed number of decimals, straight into a byte buffer.
///
/// The value is scaled by 10^d and rounded half away from zero (`rounded()`), then its digits are written;
/// values too large for that (|x| 10^d ≥ 2^53) fall back to Swift's shortest representation. NaN writes
/// nothing (an empty cell), and a value that rounds to zero is written without a sign.
package enum Fixed {
    /// 10^d as an integer, d in 0...9.
    @inline(__always)
    private static func integerPowerOfTen(_ d: Int) -> UInt64 {
        switch d {
        case 0: return 1
        case 1: return 10
        case 2: return 100
        case 3: return 1_000
        case 4: return 10_000
        case 5: return 100_000
        case 6: return 1_000_000
        case 7: return 10_000_000
        case 8: return 100_000_000
        default: return 1_000_000_000
        }
    }

    /// y rounded to the nearest integer, halves away from zero (what `y.rounded()` gives), for 0 ≤ y < 2^53.
    ///
    /// Truncation t = ⌊y⌋ is exact, and so is y − t (both in [2^k, 2^(k+1)) or t = 0), so comparing the
    /// fraction with 1/2 decides exactly as `rounded()` does, without its library call.
    @inline(__always)
    static func roundedToInteger(_ y: Double) -> UInt64 {
        // Through Int64: one instruction each way on x86-64, where UInt64's conversions take a dozen.
        let t = Int64(y)
        return UInt64(truncatingIfNeeded: y - Double(t) >= 0.5 ? t + 1 : t)
    }

    /// Appends `value` with `decimals` (0 to 9) decimals.
    package static func append(_ value: Double, _ decimals: Int, to buffer: inout [UInt8]) {
        guard !value.isNaN else { return }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumLength) { digits in
            var length = 0
            if let base = digits.baseAddress, write(value, decimals, into: base, at: &length) {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: digits[0..<length]))
            } else {
                buffer.append(contentsOf: value.description.utf8)
            }
        }
    }

    /// The most bytes `write(_:_:into:at:)` writes: a sign, 16 digits below 2^53, the point and up to 9 decimals.
    static let maximumLength = 32

    /// Two ASCII digits for each of 00 to 99.
    private static var digitPairs: StaticString {
        """
        0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849\
        5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899
        """
    }

    /// Writes v's last `count` decimal digits, zero-padded, at `out[0..<count]`.
    @inline(__always)
    private static func writeDigits(_ v: UInt64, count: Int, at out: UnsafeMutablePointer<UInt8>) {
        let pairs = digitPairs.utf8Start
        var v = v
        var i = count
        while i >= 2 {
            let r = Int(v % 100)
            v /= 100
            i -= 2
            out[i] = pairs[2 * r]
            out[i + 1] = pairs[2 * r + 1]
        }
        if i == 1 { out[0] = UInt8(truncatingIfNeeded: v % 10) &+ 48 }
    }

    /// Writes `value` with `decimals` decimals as `append(_:_:to:)` does, into `out` from `position` (advanced
    /// past the text), for writers that assemble a line in a buffer of their own. NaN writes nothing.
    ///
    /// The value is scaled by 10^d and rounded half away from zero to an integer n < 2^53; the text is n's
    /// digits with the point d places from the right (at least one digit before it), and a minus sign when the
    /// value is negative and n is not 0.
    ///
    /// - Returns: false, writing nothing, for a value `append(_:_:to:)` would write through `description`
    ///   (infinite, or |x| 10^d ≥ 2^53).
    /// - Precondition: `out` has `maximumLength` bytes free from `position`.
    @inline(__always)
    static func write(_ value: Double, _ decimals: Int, into out: UnsafeMutablePointer<UInt8>, at position: inout Int)
        -> Bool
    {
        guard !value.isNaN else { return true }
        let scaled = abs(value) * .exactPowerOfTen(decimals)
        // For y ≥ 2^52 every double is an integer, so y < 2^53 exactly when its rounding is.
        guard value.isFinite, scaled < 9_007_199_254_740_992 else { return false }
        let n = roundedToInteger(scaled)
        if value < 0 && n != 0 {
            out[position] = UInt8(ascii: "-")
            position += 1
        }
        let unit = integerPowerOfTen(decimals)
        // Division by a constant is a multiplication; by a variable, tens of cycles: the usual cases are spelt out.
        let whole: UInt64
        switch decimals {
        case 2: whole = n / 100
        case 3: whole = n / 1_000
        case 4: whole = n / 10_000
        default: whole = n / unit
        }
        // Comparisons, not a loop of divisions: altitudes and pressures have 1 to 4 digits before the point.
        var digits = whole < 10 ? 1 : whole < 100 ? 2 : whole < 1_000 ? 3 : whole < 10_000 ? 4 : 5
        var m = whole / 10_000
        while m >= 10 {
            m /= 10
            digits += 1
        }
        writeDigits(whole, count: digits, at: out + position)
        position += digits
        if decimals > 0 {
            out[position] = UInt8(ascii: ".")
            writeDigits(n - whole * unit, count: decimals, at: out + position + 1)
            position += decimals + 1
        }
        return true
    }

    /// Appends a time in seconds: whole seconds without decimals, anything else in Swift's shortest form.
    ///
    /// Below 10¹² s in magnitude, a time with at most 3 decimals (a 0.5 s or 0.001 s clock) is written by
    /// `append(_:_:to:)` with its fewest decimals d: then the d-decimal text parses back to the same double
    /// (checked: m / 10^d with m < 2^53 is correctly rounded), no shorter one does, and the ulp (≤ 2⁻¹²) is far
    /// below 10⁻³, so that text is the one shortest round-trip representation, which is what `description`
    /// writes for these magnitudes — without making a `String` per row.
    static func appendTime(_ value: Double, to buffer: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumLength) { digits in
            var length = 0
            if let base = digits.baseAddress, writeTime(value, into: base, at: &length) {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: digits[0..<length]))
            } else {
                buffer.append(contentsOf: value.description.utf8)
            }
        }
    }

    /// Writes a time as `appendTime(_:to:)` does, into `out` from `position` (advanced past the text).
    ///
    /// - Returns: false, writing nothing, for a time `appendTime(_:to:)` writes through `description`.
    /// - Precondition: `out` has `maximumLength` bytes free from `position`.
    @inline(__always)
    static func writeTime(_ value: Double, into out: UnsafeMutablePointer<UInt8>, at position: inout Int) -> Bool {
        let magnitude = abs(value)
        // Whole seconds (`rounded() == value`, tested without the library call: below 2^53 the truncation is exact).
        if magnitude < 1e15 && Double(Int64(magnitude)) == magnitude {
            return write(value, 0, into: out, at: &position)
        }
        if magnitude >= 1e-3 && magnitude < 1e12 {
            for decimals in 1...3 {
                let scale = Double.exactPowerOfTen(decimals)
                // magnitude × scale < 10¹⁵ < 2^53.
                if Double(Int64(truncatingIfNeeded: roundedToInteger(magnitude * scale))) / scale == magnitude {
                    return write(value, decimals, into: out, at: &position)
                }
            }
        }
        return false
    }

    /// The text of `value` with `decimals` decimals.
    package static func text(_ value: Double, _ decimals: Int) -> String {
        var buffer: [UInt8] = []
        append(value, decimals, to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}
