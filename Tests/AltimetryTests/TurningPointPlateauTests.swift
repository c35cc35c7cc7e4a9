import Foundation
import Randomness
import Testing

@testable import Altimetry

@Suite("TurningPointPlateau")
struct TurningPointPlateauTests {
    /// σ_Δ(τ) of a Gauss-Markov wander of spread σ and correlation time T: σ √(2 (1 − exp(−τ/T))), floored.
    static func differenceSigma(_ sigma: Double, _ correlationTime: Double, floor: Double) -> (Double) -> Double {
        { lag in max(floor, sigma * (2 * (1 - exp(-lag / correlationTime))).squareRoot()) }
    }

    @Test(
        "GIVEN a 20-minute summit rest over which the track wanders by 1 m (60 s correlation) WHEN the summit is read at its plateau's middle THEN the reading is unbiased over 200 seeds, where the highest sample reads the top of the wander"
    )
    func flatSummit() {
        let sigma = 1.0, correlationTime = 60.0
        // Up 100 m in 600 s, 1,200 s at 100 m, down in 300 s, at 1 Hz.
        func profile(_ t: Double) -> Double {
            if t < 600 { return t / 6 }
            if t < 1_800 { return 100 }
            return 100 - (t - 1_800) / 3
        }
        let truth: [Double] = (0..<2_100).map { profile(Double($0)) }
        let times: [Double] = truth.indices.map(Double.init)
        let tolerance = Self.differenceSigma(sigma, correlationTime, floor: 0.05)
        var middleErrors: [Double] = [], extremeErrors: [Double] = []
        for seed in 1...200 as ClosedRange<UInt64> {
            var random = SeededGenerator(seed: seed)
            var wander = GaussMarkovProcess(standardDeviation: sigma, correlationTime: correlationTime, using: &random)
            let values = truth.map { $0 + wander.advance(by: 1, using: &random) + 0.03 * random.gaussian() }
            guard let top = values.indices.max(by: { values[$0] < values[$1] }) else { continue }
            let middle = TurningPointPlateau.middle(
                of: top, direction: 1, values: values, times: times, bounds: 0...(values.count - 1),
                tolerance: tolerance)
            middleErrors.append(values[middle] - 100)
            extremeErrors.append(values[top] - 100)
        }
        let middleMean = middleErrors.reduce(0, +) / Double(middleErrors.count)
        let extremeMean = extremeErrors.reduce(0, +) / Double(extremeErrors.count)
        // The highest of 20 minutes of a 60-s wander is about 2.5 sigmas up; the middle's reading has the wander's
        // own spread (1 m, so 0.07 m of standard error over 200 seeds): 0.25 m is a tenth of the bias removed.
        #expect(extremeMean > 1.5, "highest sample: mean error \(extremeMean) m")
        #expect(abs(middleMean) < 0.25, "plateau middle: mean error \(middleMean) m")
    }

    @Test("On a rounded symmetric hill the middle is the top; on a peak twice as steep on one side, σ_Δ/4 below it")
    func peaks() throws {
        let times: [Double] = (0..<301).map(Double.init)
        // A 4 m half-cosine hill: up over 60 s, down over 60 s, from t = 90 s.
        func hillProfile(_ t: Double) -> Double {
            guard t >= 90, t <= 210 else { return 0 }
            return 2 * (1 - cos(Double.pi * (t - 90) / 60))
        }
        let hill: [Double] = times.map(hillProfile)
        let top = try #require(hill.indices.max { hill[$0] < hill[$1] })
        let middle = TurningPointPlateau.middle(
            of: top, direction: 1, values: hill, times: times, bounds: 0...300, tolerance: { _ in 0.4 })
        #expect(middle == 150 && top == 150)
        // Up at 0.075 m/s for 100 s, down at 0.15 m/s: the plateau reaches 5.3 s up the gentle side and 2.7 s down
        // the steep one, so its middle is 1.3 s up the gentle side, 0.1 m (σ_Δ/4) below the top.
        func peakProfile(_ t: Double) -> Double { t <= 100 ? 0.075 * t : max(0, 7.5 - 0.15 * (t - 100)) }
        let peak: [Double] = times.map(peakProfile)
        let reading = TurningPointPlateau.middle(
            of: 100, direction: 1, values: peak, times: times, bounds: 0...300, tolerance: { _ in 0.4 })
        #expect(abs((7.5 - peak[reading]) - 0.1) < 0.08, "read \(peak[reading]) at \(reading)")
        // A valley is a summit upside down.
        let valley: [Double] = peak.map { -$0 }
        #expect(
            TurningPointPlateau.middle(
                of: 100, direction: -1, values: valley, times: times, bounds: 0...300, tolerance: { _ in 0.4 })
                == reading)
    }

    @Test(
        "The plateau stays within its bounds: a second summit of the same height beyond the next valley is not part of it"
    )
    func bounds() {
        let times: [Double] = (0..<100).map(Double.init)
        // Summits at 20 and 80 s (10 m), a valley at 50 s (0 m).
        func twoSummits(_ t: Double) -> Double { max(0, 10 - min(abs(t - 20), abs(t - 80)) / 3) }
        let values: [Double] = times.map(twoSummits)
        let whole = TurningPointPlateau.middle(
            of: 20, direction: 1, values: values, times: times, bounds: 0...99, tolerance: { _ in 0.5 })
        #expect(whole == 50, "without bounds the span reaches the second summit and its middle is the valley")
        let bounded = TurningPointPlateau.middle(
            of: 20, direction: 1, values: values, times: times, bounds: 0...49, tolerance: { _ in 0.5 })
        #expect(bounded == 20)
    }
}
