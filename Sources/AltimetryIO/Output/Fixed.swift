/// Writes numbers as decimal text with a fixed number of decimals, straight into a byte buffer.
///
/// The value is scaled by 10^d and rounded half away from zero (`rounded()`), then its digits are written;
/// values too large for that (|x| 10^d ≥ 2^53) fall back to Swift's shortest representation. NaN writes
/// nothing (an empty cell), and a value that rounds to zero is written without a sign.
package enum Fixed {
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

    /// The most bytes `write(_:_:into:at:)` may touch from its position: a sign, then 16-byte stores of digits
    /// (the text itself is at most a sign, 16 digits below 2^53, the point and up to 9 decimals: 27 bytes).
    static let maximumLength = 40

    /// The 8 decimal digits of n < 10^8, zero-padded, as one byte each (values 0 to 9), the most significant in
    /// the lowest byte: stored little-endian, they are in reading order.
    ///
    /// Three rounds of division in parallel lanes (SWAR), no loop: n splits into two 4-digit halves in 32-bit
    /// lanes (n / 10⁴, n mod 10⁴), each into two 2-digit halves in 16-bit lanes (x / 100 as (x · 10,486) >> 20,
    /// exact for x < 43,699), each into two digits in bytes (x / 10 as (x · 103) >> 10, exact for x < 179).
    /// Every lane's product stays inside its lane, so the lanes never carry into each other.
    @inline(__always)
    static func digitBytes(_ n: UInt64) -> UInt64 {
        let high = n / 10_000
        var v = high | (n &- high &* 10_000) << 32
        let hundreds = (v &* 10_486) >> 20 & 0x0000_007F_0000_007F
        v = hundreds | (v &- hundreds &* 100) << 16
        let tens = (v &* 103) >> 10 & 0x000F_000F_000F_000F
        return tens | (v &- tens &* 10) << 8
    }

    /// Writes n < 2^53 as decimal text with the point `decimals` (0 to 9) places from the right and at least one
    /// digit before it, at `out`, in one pass: n's digits are made at once (`digitBytes`), the leading zeros
    /// counted from the zero bytes, and the digits stored a word at a time, the fraction moved past the point.
    ///
    /// Up to 8 digits (every altitude, pressure and sigma at the output's decimals) take one word; longer
    /// numbers, or more than 7 decimals, take two (`writeLongDigits`).
    ///
    /// - Returns: the text's length.
    /// - Precondition: `out` has 33 bytes free (stores write past the text).
    @inline(__always)
    static func writeDigits(_ n: UInt64, decimals: Int, at out: UnsafeMutablePointer<UInt8>) -> Int {
        guard n < 100_000_000, decimals < 8 else { return writeLongDigits(n, decimals: decimals, at: out) }
        let digits = digitBytes(n)
        // The significant digits (a zero word has 64 trailing zero bits: none), and at least decimals + 1.
        let count = max(8 &- digits.trailingZeroBitCount >> 3, decimals &+ 1)
        let text = digits | 0x3030_3030_3030_3030
        let target = UnsafeMutableRawPointer(out)
        // The first significant digit to the word's first byte; bytes past the text are overwritten or left.
        target.storeBytes(of: text &>> (8 &* (8 &- count)), as: UInt64.self)
        guard decimals > 0 else { return count }
        let whole = count &- decimals
        out[whole] = UInt8(ascii: ".")
        target.storeBytes(of: text &>> (8 &* (8 &- decimals)), toByteOffset: whole &+ 1, as: UInt64.self)
        return count &+ 1
    }

    /// `writeDigits` for any n < 2^53 and up to 9 decimals: n's 16 digits in two words (n / 10⁸ and n mod 10⁸),
    /// stored 16 bytes at a time.
    @inline(never)
    static func writeLongDigits(_ n: UInt64, decimals: Int, at out: UnsafeMutablePointer<UInt8>) -> Int {
        let high = n / 100_000_000
        let low = digitBytes(n &- high &* 100_000_000)
        let top = high == 0 ? 0 : digitBytes(high)
        // A zero word has 64 trailing zero bits: 8 leading zero digits.
        let leadingZeros = high == 0 ? 8 &+ low.trailingZeroBitCount >> 3 : top.trailingZeroBitCount >> 3
        let count = max(16 &- leadingZeros, decimals &+ 1)
        let zeros: UInt64 = 0x3030_3030_3030_3030
        // The 16 digits as text, then 16 bytes of anything, so that a 16-byte load from any digit stays inside.
        var text = (top | zeros, low | zeros, UInt64(0), UInt64(0))
        return withUnsafeBytes(of: &text) { digits in
            let source = UnsafeRawPointer(digits.baseAddress.unsafelyUnwrapped)
            let target = UnsafeMutableRawPointer(out)
            // The whole part and the fraction, 16 bytes from the first significant digit.
            let first = 16 &- count
            target.storeBytes(of: source.loadUnaligned(fromByteOffset: first, as: UInt64.self), as: UInt64.self)
            target.storeBytes(
                of: source.loadUnaligned(fromByteOffset: first &+ 8, as: UInt64.self), toByteOffset: 8,
                as: UInt64.self)
            guard decimals > 0 else { return count }
            // The point after the whole part, and the fraction (the last `decimals` digits) moved after it.
            let whole = count &- decimals
            let fraction = 16 &- decimals
            out[whole] = UInt8(ascii: ".")
            target.storeBytes(
                of: source.loadUnaligned(fromByteOffset: fraction, as: UInt64.self), toByteOffset: whole &+ 1,
                as: UInt64.self)
            target.storeBytes(
                of: source.loadUnaligned(fromByteOffset: fraction &+ 8, as: UInt64.self), toByteOffset: whole &+ 9,
                as: UInt64.self)
            return count &+ 1
        }
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
        position += writeDigits(n, decimals: decimals, at: out + position)
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
