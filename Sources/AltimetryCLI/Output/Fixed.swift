/// Writes numbers as decimal text with a fixed number of decimals, straight into a byte buffer.
///
/// The value is scaled by 10^d and rounded half away from zero (`rounded()`), then its digits are written;
/// values too large for that (|x| 10^d ≥ 2^53) fall back to Swift's shortest representation. NaN writes
/// nothing (an empty cell), and a value that rounds to zero is written without a sign.
enum Fixed {
    private static let powersOfTen: [Double] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]

    /// Appends `value` with `decimals` (0 to 9) decimals.
    static func append(_ value: Double, _ decimals: Int, to buffer: inout [UInt8]) {
        guard !value.isNaN else { return }
        let scaled = (abs(value) * powersOfTen[decimals]).rounded()
        guard value.isFinite, scaled < 9_007_199_254_740_992 else {
            buffer.append(contentsOf: value.description.utf8)
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumLength) { digits in
            var length = 0
            if let base = digits.baseAddress, write(value, decimals, into: base, at: &length) {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: digits[0..<length]))
            }
        }
    }

    /// The most bytes `write(_:_:into:at:)` writes: a sign, 16 digits below 2^53, the point and up to 9 decimals.
    static let maximumLength = 32

    /// Writes `value` with `decimals` decimals as `append(_:_:to:)` does, into `out` from `position` (advanced
    /// past the text), for writers that assemble a line in a buffer of their own. NaN writes nothing.
    ///
    /// - Returns: false, writing nothing, for a value `append(_:_:to:)` would write through `description`
    ///   (infinite, or |x| 10^d ≥ 2^53).
    /// - Precondition: `out` has `maximumLength` bytes free from `position`.
    @inline(__always)
    static func write(_ value: Double, _ decimals: Int, into out: UnsafeMutablePointer<UInt8>, at position: inout Int) -> Bool {
        guard !value.isNaN else { return true }
        let scaled = (abs(value) * powersOfTen[decimals]).rounded()
        guard value.isFinite, scaled < 9_007_199_254_740_992 else { return false }
        var n = UInt64(scaled)
        if value < 0 && n != 0 {
            out[position] = UInt8(ascii: "-")
            position += 1
        }
        // Digits are produced least significant first, so they are written backwards into their space.
        var count = 0
        var m = n
        repeat { m /= 10; count += 1 } while m > 0
        count = max(count, decimals + 1)
        let length = count + (decimals > 0 ? 1 : 0)
        var index = position + length - 1
        var written = 0
        while written < count {
            if decimals > 0 && written == decimals {
                out[index] = UInt8(ascii: ".")
                index -= 1
            }
            out[index] = UInt8(truncatingIfNeeded: n % 10) &+ 48
            n /= 10
            index -= 1
            written += 1
        }
        position += length
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
        if value.rounded() == value, abs(value) < 1e15 {
            append(value, 0, to: &buffer)
            return
        }
        let magnitude = abs(value)
        if magnitude >= 1e-3 && magnitude < 1e12 {
            for decimals in 1...3 {
                let scale = powersOfTen[decimals]
                if (magnitude * scale).rounded() / scale == magnitude {
                    append(value, decimals, to: &buffer)
                    return
                }
            }
        }
        buffer.append(contentsOf: value.description.utf8)
    }

    /// Writes a time as `appendTime(_:to:)` does, into `out` from `position` (advanced past the text).
    ///
    /// - Returns: false, writing nothing, for a time `appendTime(_:to:)` writes through `description`.
    /// - Precondition: `out` has `maximumLength` bytes free from `position`.
    @inline(__always)
    static func writeTime(_ value: Double, into out: UnsafeMutablePointer<UInt8>, at position: inout Int) -> Bool {
        if value.rounded() == value, abs(value) < 1e15 { return write(value, 0, into: out, at: &position) }
        let magnitude = abs(value)
        if magnitude >= 1e-3 && magnitude < 1e12 {
            for decimals in 1...3 {
                let scale = powersOfTen[decimals]
                if (magnitude * scale).rounded() / scale == magnitude { return write(value, decimals, into: out, at: &position) }
            }
        }
        return false
    }

    /// The text of `value` with `decimals` decimals.
    static func text(_ value: Double, _ decimals: Int) -> String {
        var buffer: [UInt8] = []
        append(value, decimals, to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}
