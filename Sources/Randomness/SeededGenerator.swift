import Foundation

/// A portable, seedable random number generator: xoshiro256** seeded through SplitMix64.
///
/// The same seed gives the same sequence on every platform and every Swift version, which the
/// system generator does not promise. Blackman and Vigna's xoshiro256** passes BigCrush, has a period of
/// 2²⁵⁶ − 1 and needs four 64-bit words of state; SplitMix64 expands one 64-bit seed into those four words,
/// as its authors recommend, so that similar seeds give unrelated streams.
public struct SeededGenerator: RandomNumberGenerator, Sendable, Equatable, Hashable, Codable {
    /// The four words of xoshiro256** state; never all zero.
    private var state: (UInt64, UInt64, UInt64, UInt64)

    /// A generator whose whole sequence is fixed by `seed`.
    public init(seed: UInt64) {
        var splitMix = SplitMix64(state: seed)
        state = (splitMix.next(), splitMix.next(), splitMix.next(), splitMix.next())
        if state == (0, 0, 0, 0) { state.0 = 0x9E37_79B9_7F4A_7C15 }
    }

    /// The next 64 random bits (xoshiro256**).
    public mutating func next() -> UInt64 {
        let result = rotateLeft(state.1 &* 5, by: 7) &* 9
        let t = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= t
        state.3 = rotateLeft(state.3, by: 45)
        return result
    }

    /// A uniform draw in [0, 1) with 53 random bits, built from the top bits so it is identical everywhere.
    public mutating func uniform() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A standard normal draw, N(0, 1), by the Box-Muller transform.
    ///
    /// Each call consumes two uniforms and returns one deviate (the sine partner is dropped), so that the
    /// generator's state is its whole state: a copied or decoded generator continues identically.
    /// u₁ is taken in (0, 1] so the logarithm is finite.
    public mutating func gaussian() -> Double {
        let u1 = 1 - uniform()
        let u2 = uniform()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// A normal draw with the given mean and standard deviation.
    ///
    /// - Parameters:
    ///   - mean: the distribution's mean.
    ///   - standardDeviation: its standard deviation, in the mean's unit.
    public mutating func gaussian(mean: Double, standardDeviation: Double) -> Double {
        mean + standardDeviation * gaussian()
    }

    public static func == (lhs: SeededGenerator, rhs: SeededGenerator) -> Bool {
        lhs.state == rhs.state
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(state.0)
        hasher.combine(state.1)
        hasher.combine(state.2)
        hasher.combine(state.3)
    }

    private enum CodingKeys: String, CodingKey { case state }

    public init(from decoder: any Decoder) throws {
        let words = try decoder.container(keyedBy: CodingKeys.self).decode([UInt64].self, forKey: .state)
        guard words.count == 4, words != [0, 0, 0, 0] else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "xoshiro256** needs four words, not all zero"))
        }
        state = (words[0], words[1], words[2], words[3])
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode([state.0, state.1, state.2, state.3], forKey: .state)
    }
}

@inline(__always)
private func rotateLeft(_ x: UInt64, by k: UInt64) -> UInt64 {
    (x << k) | (x >> (64 - k))
}
