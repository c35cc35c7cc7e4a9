import Foundation
import Randomness
import Testing

@Suite("SeededGenerator")
struct SeededGeneratorTests {
    @Test("SplitMix64 matches its published reference outputs")
    func splitMixReference() {
        // Reference values for seed 1234567 from the authors' C implementation.
        var s = SplitMix64(state: 1_234_567)
        #expect(s.next() == 6_457_827_717_110_365_317)
        #expect(s.next() == 3_203_168_211_198_807_973)
        #expect(s.next() == 9_817_491_932_198_370_423)
    }

    @Test("The first outputs for seed 42 are pinned, so every platform draws the same numbers")
    func pinnedOutputs() {
        var g = SeededGenerator(seed: 42)
        let first = (0..<3).map { _ in g.next() }
        #expect(first == SeededGeneratorTests.pinned)
    }

    // Cross-checked against an independent Python implementation of SplitMix64 seeding and xoshiro256**.
    static let pinned: [UInt64] = [1_546_998_764_402_558_742, 6_990_951_692_964_543_102, 12_544_586_762_248_559_009]

    @Test("Same seed, same sequence; different seed, different sequence")
    func reproducible() {
        var a = SeededGenerator(seed: 7), b = SeededGenerator(seed: 7), c = SeededGenerator(seed: 8)
        let xs = (0..<100).map { _ in a.next() }
        #expect(xs == (0..<100).map { _ in b.next() })
        #expect(xs != (0..<100).map { _ in c.next() })
    }

    @Test("Gaussian draws have mean 0 and variance 1 within 4 standard errors over 10^6 draws")
    func gaussianMoments() {
        var g = SeededGenerator(seed: 3)
        let n = 1_000_000
        var sum = 0.0, squares = 0.0
        for _ in 0..<n {
            let x = g.gaussian()
            sum += x
            squares += x * x
        }
        let mean = sum / Double(n)
        let variance = squares / Double(n) - mean * mean
        #expect(abs(mean) < 4 / Double(n).squareRoot())
        #expect(abs(variance - 1) < 4 * (2 / Double(n)).squareRoot())
    }

    @Test("A decoded generator continues exactly where the encoded one was")
    func codable() throws {
        var g = SeededGenerator(seed: 99)
        _ = g.next()
        var decoded = try JSONDecoder().decode(SeededGenerator.self, from: JSONEncoder().encode(g))
        #expect((0..<10).map { _ in decoded.next() } == (0..<10).map { _ in g.next() })
    }
}
