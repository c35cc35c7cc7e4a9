import Foundation
import Randomness
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

@Suite("Fixed and FastNumber")
struct FixedTests {
    @Test("Fixed writes the value to within half a unit of its last decimal, in the same layout as printf")
    func fixedMatchesPrintf() {
        var generator = SeededGenerator(seed: 12_345)
        for _ in 0..<5_000 {
            let state = generator.next()
            let value = (Double(state >> 11) / Double(1 << 53) - 0.5) * pow(10, Double(Int(state % 9)) - 2)
            for decimals in [0, 2, 3, 4] {
                let text = Fixed.text(value, decimals)
                let parsed = Double(text) ?? .nan
                // Half a unit of the last decimal, plus the rounding of the scaled product (a few ulps).
                #expect(
                    abs(parsed - value) <= 0.5 * pow(10, -Double(decimals)) * (1 + 1e-9),
                    "seed state \(state): \(value) -> \(text)")
                // Same digits count as printf: only the last digit may differ, at a tie.
                #expect(text.count == String(format: "%.\(decimals)f", value).count || abs(parsed) < 1)
            }
        }
        #expect(Fixed.text(-0.0004, 3) == "0.000")
        #expect(Fixed.text(.nan, 3) == "")
        #expect(Fixed.text(12.5, 0) == "13")
    }

    @Test("Fixed.writeDigits writes an integer's decimal digits with the point placed, as String(n) does")
    func writeDigitsMatchesStringDigits() {
        var generator = SeededGenerator(seed: 2_718)
        var samples: [UInt64] = [
            0, 1, 9, 10, 99, 100, 9_999, 10_000, 99_999_999, 100_000_000, 100_000_001,
            (1 << 53) - 1, 9_007_199_254_740_991,
        ]
        for k in 0...15 { samples += [pow10(k), pow10(k) - 1, pow10(k) + 1] }
        for _ in 0..<20_000 {
            let state = generator.next()
            // Every length of 1 to 16 digits, below 2^53.
            samples.append((state >> 11) % pow10(Int(state % 16) + 1) % (1 << 53))
        }
        for n in samples {
            for decimals in 0...9 {
                // The reference: n's digits, padded to at least decimals + 1, the point decimals from the right.
                var digits = String(n)
                digits = String(repeating: "0", count: max(0, decimals + 1 - digits.count)) + digits
                if decimals > 0 { digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -decimals)) }
                var buffer = [UInt8](repeating: 0, count: Fixed.maximumLength)
                let length = buffer.withUnsafeMutableBufferPointer { out in
                    out.baseAddress.map { Fixed.writeDigits(n, decimals: decimals, at: $0) } ?? 0
                }
                #expect(String(decoding: buffer[..<length], as: UTF8.self) == digits, "n = \(n), decimals \(decimals)")
            }
        }
    }

    private func pow10(_ k: Int) -> UInt64 { (0..<k).reduce(1) { r, _ in r * 10 } }

    @Test(
        "Fixed.appendTime writes exactly what description writes, for clock-like and arbitrary times",
        arguments: [1, 2, 3] as [UInt64])
    func appendTimeMatchesDescription(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<20_000 {
            let state = generator.next()
            let decimals = Int(state % 5)
            let magnitude = pow(10, Double(Int((state >> 8) % 14)) - 2)
            let raw = (Double(state >> 11) / Double(1 << 53) - 0.3) * magnitude
            // Times on a clock of 0 to 4 decimals (the fast path's case), and the raw doubles (its fallback).
            let scale = pow(10, Double(decimals))
            for value in [(raw * scale).rounded() / scale, raw] {
                var bytes: [UInt8] = []
                Fixed.appendTime(value, to: &bytes)
                let expected = value.rounded() == value && abs(value) < 1e15 ? Fixed.text(value, 0) : value.description
                #expect(String(decoding: bytes, as: UTF8.self) == expected, "seed \(seed), state \(state): \(value)")
            }
        }
    }

    @Test("FastNumber gives the same double as Double(String) for decimal text, and nil for non-numbers")
    func fastNumber() {
        var generator = SeededGenerator(seed: 99)
        var samples = [
            "0", "-0", "1013.25", "+5", ".5", "5.", "1e3", "-2.5E-3", "123456789012345678", "0.1", "nan", "inf", "-",
            ".", "", "1.2.3", "abc", "12a",
            "9007199254740992", "9007199254740993", "-900719925474099.3", "0.0000000000000000001",
            "12345678901234567890", "1234567890.123456789", "00000000000000000001.5", "+", "-.", "5.5.",
            " 5", "5 ", "1.7976931348623157",
        ]
        for _ in 0..<5_000 {
            let state = generator.next()
            let digits = Int(state % 12) + 1
            let fraction = Int((state >> 8) % 8)
            let mantissa = (state >> 16) % UInt64(pow(10, Double(digits)))
            var text = String(mantissa)
            if fraction > 0 {
                text = String(repeating: "0", count: max(0, fraction - text.count + 1)) + text
                text.insert(".", at: text.index(text.endIndex, offsetBy: -fraction))
            }
            samples.append(state % 2 == 0 ? text : "-" + text)
        }
        for text in samples {
            let bytes = Array(text.utf8)
            let fast = bytes.withUnsafeBytes { FastNumber.parse($0, 0, bytes.count) }
            let reference = Double(text)
            if let reference, reference.isFinite {
                #expect(fast == reference, "\(text)")
            } else {
                // `nan` and `inf` are words, not numbers.
                #expect(fast == nil, "\(text)")
            }
        }
    }

    @Test(
        "FastNumber refuses what strtod would take silently: a NUL inside, hexadecimal, words, a bare exponent",
        arguments: ["987\u{0}1", "0x1p10", "0X10", "0x3f", "infinity", "1e", "1e+", "1e5x", "1\u{0}", "--1", "1_000"])
    func fastNumberRefuses(_ text: String) {
        let bytes = Array(text.utf8)
        #expect(bytes.withUnsafeBytes { FastNumber.parse($0, 0, bytes.count) } == nil, "\(text.debugDescription)")
    }

    /// The specification of `Fixed.write`, spelt out independently: n = round(|x| 10^d) half away from zero (by
    /// `rounded()`), its decimal digits (`String(n)`) zero-padded to d + 1, the point d places from the right,
    /// a minus sign when x < 0 and n ≠ 0.
    static func reference(_ value: Double, _ decimals: Int) -> String {
        let scaled = (abs(value) * pow(10, Double(decimals))).rounded()
        guard scaled < 9_007_199_254_740_992 else { return value.description }
        let n = UInt64(scaled)
        var digits = String(n)
        if digits.count < decimals + 1 { digits = String(repeating: "0", count: decimals + 1 - digits.count) + digits }
        if decimals > 0 { digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -decimals)) }
        return (value < 0 && n != 0 ? "-" : "") + digits
    }

    @Test(
        "Fixed writes exactly the reference text: random values of every magnitude, ties, and edges",
        arguments: [7, 8, 9] as [UInt64])
    func fixedMatchesReference(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var values: [Double] = [
            0, -0.0, 0.5, 1.5, 2.5, -0.5, 0.0005, -0.0005, 0.49999999999999994, 977.7225, 1013.25,
            4503599627370495.5, 9_007_199_254_740_991, 9_007_199_254_740_992, 1e300, .infinity,
            -.infinity, 0.125, 0.0625, 2.675, 1.005, 123.4565, 99.9995, 9.9995,
        ]
        for _ in 0..<20_000 {
            let state = generator.next()
            let magnitude = pow(10, Double(Int(state % 19)) - 6)
            let raw = (Double(state >> 11) / Double(1 << 53) - 0.5) * magnitude
            // Raw doubles, and values on a decimal grid (ties at the next decimal are common there).
            values.append(raw)
            values.append((raw * 2_000).rounded() / 2_000)
        }
        for value in values {
            for decimals in 0...9 {
                #expect(
                    Fixed.text(value, decimals) == Self.reference(value, decimals),
                    "seed \(seed): \(value) with \(decimals) decimals")
            }
        }
    }

    @Test("ByteBuffer keeps every byte through growth, in place and appended")
    func byteBuffer() {
        var buffer = ByteBuffer(capacity: 1)
        var expected: [UInt8] = []
        for k in 0..<5_000 {
            let line = Array("line \(k),\(k * k)\n".utf8)
            if k % 2 == 0 {
                let place = buffer.reserve(line.count)
                for (i, byte) in line.enumerated() { place[i] = byte }
                buffer.commit(line.count)
            } else {
                buffer.append(line)
            }
            expected += line
        }
        #expect(buffer.array == expected)
        buffer.removeAll()
        buffer.append("é,")
        #expect(buffer.array == Array("é,".utf8))
    }
}
