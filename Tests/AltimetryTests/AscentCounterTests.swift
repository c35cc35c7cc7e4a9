import Randomness
import Testing

@testable import Altimetry

@Suite("AscentCounter")
struct AscentCounterTests {
    @Test("A reversal smaller than H is ignored; the last running extreme closes the last segment")
    func handExample() {
        // 0 → 5 → 4 (a 1 m dip, ignored at H = 2) → 10 → 2 (an 8 m fall: 10 is a summit) → 3 (a 1 m rise, ignored).
        let counter = AscentCounter.count(times: [0, 1, 2, 3, 4, 5], altitudes: [0, 5, 4, 10, 2, 3], hysteresis: 2)
        #expect(counter.closedTurningPoints.map(\.altitude) == [0, 10, 2])
        #expect(counter.closedTurningPoints.map(\.index) == [0, 3, 4])
        #expect(counter.ascent == 10 && counter.descent == 8)
        // At H = 0 every reversal counts: 5 + 6 + 1 up, 1 + 8 down.
        let every = AscentCounter.count(times: [0, 1, 2, 3, 4, 5], altitudes: [0, 5, 4, 10, 2, 3], hysteresis: 0)
        #expect(every.ascent == 12 && every.descent == 9)
    }

    @Test("With H = 0 the ascent is the sum of positive differences, over 50 random series")
    func zeroHysteresis() {
        var random = SeededGenerator(seed: 11)
        for trial in 0..<50 {
            let n = 1 + Int(random.next() % 200)
            let values = (0..<n).map { _ in (10 * random.gaussian()).rounded() / 4 }
            let counter = AscentCounter.count(times: (0..<n).map(Double.init), altitudes: values, hysteresis: 0)
            let up = zip(values, values.dropFirst()).map { max(0, $1 - $0) }.reduce(0, +)
            let down = zip(values, values.dropFirst()).map { max(0, $0 - $1) }.reduce(0, +)
            #expect(abs(counter.ascent - up) < 1e-9 && abs(counter.descent - down) < 1e-9, "trial \(trial)")
        }
    }

    @Test(
        "Ascent minus descent is the last turning point minus the first, and a larger H never counts more",
        arguments: [1, 2, 3] as [UInt64])
    func laws(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var h = 100.0
        var values: [Double] = []
        for _ in 0..<2_000 {
            h += random.gaussian()
            values.append(h)
        }
        let times = values.indices.map(Double.init)
        var previous = Double.infinity
        for threshold in [0.0, 0.5, 1, 2, 5, 10] {
            let c = AscentCounter.count(times: times, altitudes: values, hysteresis: threshold)
            let turns = c.closedTurningPoints
            #expect(abs((c.ascent - c.descent) - ((turns.last?.altitude ?? 0) - (turns.first?.altitude ?? 0))) < 1e-9)
            #expect(c.ascent <= previous + 1e-9, "seed \(seed) H = \(threshold)")
            previous = c.ascent
        }
    }

    @Test("Non-finite samples are skipped but keep their index; a flat series has no ascent")
    func edges() {
        var c = AscentCounter(hysteresis: 1)
        for (t, h) in [(0.0, 0.0), (1, .nan), (2, 5), (3, .infinity), (4, 0)] { c.add(time: t, altitude: h) }
        #expect(c.closedTurningPoints.map(\.index) == [0, 2, 4])
        #expect(AscentCounter.count(times: [0, 1, 2], altitudes: [3, 3, 3], hysteresis: 0).ascent == 0)
    }

    @Test(
        "A hysteresis constant at every lag counts exactly as the classic rule, over random walks",
        arguments: [4, 5, 6] as [UInt64])
    func flatCurveIsClassic(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var h = 0.0
        var values: [Double] = []
        for _ in 0..<3_000 {
            h += random.gaussian()
            values.append(h)
        }
        let times = values.indices.map { Double($0) * 0.7 }
        for threshold in [0.5, 2, 5] {
            // Several points, so the counter scans its recent samples: the extreme must still decide alone.
            let curve = AscentHysteresis(lags: [1, 10, 100], values: [threshold, threshold, threshold])
            let scanned = AscentCounter.count(times: times, altitudes: values, hysteresis: curve)
            let classic = AscentCounter.count(times: times, altitudes: values, hysteresis: threshold)
            #expect(scanned.closedTurningPoints == classic.closedTurningPoints, "seed \(seed) H = \(threshold)")
        }
    }

    @Test(
        "GIVEN H growing from 1 m at 10 s to 6 m at 20 min WHEN a slow 3 m drift comes and goes THEN nothing counts; WHEN a quick 2 m hill follows half an hour of flat THEN it counts"
    )
    func growingHysteresis() {
        let curve = AscentHysteresis(lags: [10, 60, 1_200], values: [1, 2, 6])
        func series(_ pieces: [(seconds: Int, altitude: (Double) -> Double)]) -> (times: [Double], altitudes: [Double])
        {
            var times: [Double] = [], altitudes: [Double] = []
            for (seconds, altitude) in pieces {
                let start = times.last.map { $0 + 1 } ?? 0
                for s in 0..<seconds {
                    times.append(start + Double(s))
                    altitudes.append(altitude(Double(s)))
                }
            }
            return (times, altitudes)
        }
        // 3 m in 20 min and back: under H(20 min) = 6 m, though a constant 1 m counts it.
        let drift = series([
            (600, { _ in 0 }), (1_200, { 3 * $0 / 1_200 }), (1_200, { 3 - 3 * $0 / 1_200 }), (600, { _ in 0 }),
        ])
        #expect(AscentCounter.count(times: drift.times, altitudes: drift.altitudes, hysteresis: curve).ascent == 0)
        #expect(AscentCounter.count(times: drift.times, altitudes: drift.altitudes, hysteresis: 1).ascent > 2.9)
        // Half an hour after the lowest sample, a hill of 2 m in 20 s: its reversal is judged over its own 20 s
        // (H = 1.2 m), not over the half hour since the extreme (H = 5 m).
        let hill = series([(1_800, { _ in 0 }), (20, { 2 * $0 / 20 }), (20, { 2 - 2 * $0 / 20 }), (600, { _ in 0 })])
        let counter = AscentCounter.count(times: hill.times, altitudes: hill.altitudes, hysteresis: curve)
        #expect(
            abs(counter.ascent - 1.9) < 0.15 && abs(counter.descent - 1.9) < 0.15,
            "\(counter.ascent) up, \(counter.descent) down")
    }

    @Test("AscentHysteresis interpolates linearly, is flat outside its lags and never decreases")
    func hysteresisCurve() {
        let h = AscentHysteresis(lags: [10, 30, 60], values: [1, 3, 2])
        #expect(h.values == [1, 3, 3])
        #expect(
            h.value(atLag: 0) == 1 && h.value(atLag: 20) == 2 && h.value(atLag: 45) == 3 && h.value(atLag: 1e6) == 3)
        #expect(AscentHysteresis(constant: 2.5).value(atLag: 100) == 2.5)
    }
}
