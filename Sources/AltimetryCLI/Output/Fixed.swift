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
        var n = UInt64(scaled)
        if value < 0 && n != 0 { buffer.append(UInt8(ascii: "-")) }
        // Digits are produced least significant first, so they are written backwards into reserved space.
        var count = 0
        var m = n
        repeat { m /= 10; count += 1 } while m > 0
        count = max(count, decimals + 1)
        let length = count + (decimals > 0 ? 1 : 0)
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: length))
        buffer.withUnsafeMutableBufferPointer { b in
            var position = start + length - 1
            var written = 0
            while written < count {
                if decimals > 0 && written == decimals {
                    b[position] = UInt8(ascii: ".")
                    position -= 1
                }
                b[position] = UInt8(truncatingIfNeeded: n % 10) + 48
                n /= 10
                position -= 1
                written += 1
            }
        }
    }

    /// Appends a time in seconds: whole seconds without decimals, anything else in Swift's shortest form.
    static func appendTime(_ value: Double, to buffer: inout [UInt8]) {
        if value.rounded() == value, abs(value) < 1e15 {
            append(value, 0, to: &buffer)
        } else {
            buffer.append(contentsOf: value.description.utf8)
        }
    }

    /// The text of `value` with `decimals` decimals.
    static func text(_ value: Double, _ decimals: Int) -> String {
        var buffer: [UInt8] = []
        append(value, decimals, to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}
