import Testing

@testable import Altimetry

@Suite("Floor counter internals")
struct FloorInternalsTests {
    @Test(
        "The moving average is the mean over the window; reading between samples interpolates, and holds across a gap")
    func smoothedHistory() {
        var history = SmoothedAltitudeHistory(window: 5, maximumInterval: 5, horizon: 15)
        // Samples 0…9 at 1 Hz with altitude = time: the 5 s mean at t ≥ 4 is t − 2.
        for t in 0..<10 { _ = history.append(time: Double(t), altitude: Double(t)) }
        #expect(history.value(at: 9) == 7)
        #expect(history.value(at: 2) == 1)  // mean of 0, 1, 2
        #expect(history.value(at: 8.5) == 6.5)  // halfway between 6 and 7
        // A sample 60 s later at altitude 100: alone in its window, so s = 100; before it, s holds at 7.
        #expect(history.append(time: 69, altitude: 100) == 100)
        #expect(history.value(at: 59) == 7)
        #expect(history.value(at: 68.9) == 7)
        #expect(history.value(at: 69) == 100)
    }

    @Test("The history keeps only its horizon, and still reads its oldest kept value for earlier times")
    func horizon() {
        var history = SmoothedAltitudeHistory(window: 1, maximumInterval: 5, horizon: 15)
        for t in 0..<2_000 { _ = history.append(time: Double(t), altitude: Double(t)) }
        #expect(history.value(at: 1_999 - 15) == 1_984)
        #expect(history.value(at: 100) == 1_984)  // clamped: the counter never reads beyond its horizon
    }

    @Test("Medians: odd, even, empty")
    func median() {
        #expect(StillnessTracker.median([3, 1, 2]) == 2)
        #expect(StillnessTracker.median([4, 1, 3, 2]) == 2.5)
        #expect(StillnessTracker.median([]) == nil)
    }

    @Test("A linear trend gives its exact rate and a zero residual; a step adds exactly its height")
    func tracker() throws {
        // 10 minutes at 1 Hz of h = 0.01 t, plus a 3 m step at t = 300 s spread over 10 s.
        var tracker = StillnessTracker(block: 60)
        for t in 0..<600 {
            let ramp = min(max(Double(t) - 300, 0), 10) * 0.3
            _ = tracker.add(time: Double(t), altitude: 0.01 * Double(t) + ramp, floor: 0)
        }
        tracker.breakStretch(floor: 0)
        // Ten blocks, nine rates: eight clean (0.01 m/s) and one spanning the step, which the median ignores.
        #expect(tracker.rates.count == 9)
        let rate = try #require(tracker.medianRate)
        #expect(abs(rate - 0.01) < 1e-12)
        let residual = try #require(tracker.residual(weatherRate: rate, floorHeight: 3))
        #expect(abs(residual - 3) < 1e-9)
        // Counted floors are taken out: the same step recorded as a floor up leaves nothing.
        var counted = StillnessTracker(block: 60)
        for t in 0..<600 {
            let ramp = min(max(Double(t) - 300, 0), 10) * 0.3
            _ = counted.add(time: Double(t), altitude: 0.01 * Double(t) + ramp, floor: t < 300 ? 0 : 1)
        }
        counted.breakStretch(floor: 1)
        #expect(abs(try #require(counted.residual(weatherRate: 0.01, floorHeight: 3))) < 1e-9)
    }
}
