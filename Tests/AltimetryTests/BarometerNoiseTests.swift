import Randomness
import Testing

@testable import Altimetry

@Suite("BarometerNoise")
struct BarometerNoiseTests {
    /// GIVEN white noise of σ on a slow climb (the second difference removes the linear part), WHEN 3,000 readings are
    /// taken, THEN the estimate is σ² to 15 %: the exponential average over 300 readings has a relative standard
    /// error of √(2/300) = 8 %, so 15 % is about two of them.
    @Test("The learned variance is the readings' white noise, whatever the prior", arguments: [0.05, 0.37, 1.0])
    func learnsWhiteNoise(sigma: Double) {
        var generator = SeededGenerator(seed: 7)
        var noise = BarometerNoise(prior: 0.1)
        for k in 0..<3_000 { noise.observe(-0.15 * Double(k) + sigma * generator.gaussian()) }
        #expect(abs(noise.variance / (sigma * sigma) - 1) < 0.15, "σ \(sigma): σ̂ \(noise.variance.squareRoot())")
        #expect(abs(noise.measurementVariance - noise.variance) < 1e-12 || noise.variance < 0.1 * 0.1 / 16)
    }

    /// GIVEN a barometer quantised to whole metres (an IGC file's pressure altitude) that reads the same value at
    /// rest, THEN its variance is the quantum's q²/12, never zero.
    @Test("A quantised barometer at rest keeps the quantum's variance q²/12")
    func quantisedFloor() {
        var noise = BarometerNoise(prior: 0.01)
        // Two levels a metre apart, then minutes of one value.
        for k in 0..<50 { noise.observe(k % 2 == 0 ? 100 : 101) }
        for _ in 0..<600 { noise.observe(100) }
        #expect(noise.quantum == 1)
        #expect(abs(noise.measurementVariance - 1.0 / 12) < 1e-12, "\(noise.measurementVariance)")
    }

    /// GIVEN a learned noise, WHEN the barometer steps by 250 m once, THEN the clip keeps the estimate within 20 %:
    /// a step is a fault, not noise.
    @Test("A step does not inflate the learned noise")
    func stepIsClipped() {
        var generator = SeededGenerator(seed: 3)
        var noise = BarometerNoise(prior: 0.1)
        for _ in 0..<500 { noise.observe(0.1 * generator.gaussian()) }
        let before = noise.variance
        for _ in 0..<10 { noise.observe(250 + 0.1 * generator.gaussian()) }
        #expect(noise.variance < 1.2 * before, "\(before) → \(noise.variance)")
    }
}
