import Randomness
import Testing

@testable import Simulation

@Suite("SampleClock")
struct SampleClockTests {
    @Test("Without jitter the times are the exact grid phase + k / rate")
    func regularGrid() {
        var random = SeededGenerator(seed: 1)
        let times = SampleClock(rate: 10).times(before: 5, using: &random)
        #expect(times.count == 50)
        #expect(times.enumerated().allSatisfy { $0.element == Double($0.offset) / 10 })
        // k / 10 lands exactly on whole seconds, so a 1 Hz sensor's instants coincide bit for bit.
        #expect(times[30] == 3)
    }

    @Test(
        "Jitter delays each sample by less than jitter / rate, keeps times strictly increasing and inside [0, duration)",
        arguments: [(1.0, 0.2, 0.0), (25.0, 0.9, 0.0), (0.5, 0.5, 0.3)])
    func jitter(rate: Double, jitter: Double, phase: Double) {
        var random = SeededGenerator(seed: 2)
        let clock = SampleClock(rate: rate, jitter: jitter, phase: phase)
        let duration = 2_000.0
        let times = clock.times(before: duration, using: &random)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        #expect(times.allSatisfy { $0 >= 0 && $0 < duration })
        var maximumDelay = 0.0
        for (k, t) in times.enumerated() {
            let delay = t - (phase + Double(k) / rate)
            #expect(delay >= 0 && delay < jitter / rate)
            maximumDelay = max(maximumDelay, delay)
        }
        // With thousands of uniform delays, the largest is within 1 % of the bound (a miss has probability < 1e-8).
        #expect(maximumDelay > 0.99 * jitter / rate)
        #expect(abs(Double(times.count) - (duration - phase) * rate) <= 1)
    }
}
