import Foundation
import Randomness
import Testing

@testable import Simulation

@Suite("AnchoredPath")
struct AnchoredPathTests {
    /// Anchors drawn forward every `anchorSpacing` seconds, then the path sampled on a finer irregular grid
    /// that includes the anchors; returns the sampled times and values.
    static func sample(law: AnchoredPath.Law, seed: UInt64, count: Int) -> (times: [Double], values: [Double]) {
        var random = SeededGenerator(seed: seed)
        var anchorTimes = [0.0], anchorValues: [Double]
        switch law {
        case .wiener: anchorValues = [0]
        case .gaussMarkov(let sigma, _): anchorValues = [sigma * random.gaussian()]
        }
        let anchorSpacing = 10.0
        for k in 1...(count / 5) {
            let t = Double(k) * anchorSpacing
            let dt = anchorSpacing
            let last = anchorValues[anchorValues.count - 1]
            switch law {
            case .wiener(let q): anchorValues.append(last + (q * dt).squareRoot() * random.gaussian())
            case .gaussMarkov(let sigma, let tau):
                let phi = exp(-dt / tau)
                anchorValues.append(phi * last + sigma * (1 - phi * phi).squareRoot() * random.gaussian())
            }
            anchorTimes.append(t)
        }
        var path = AnchoredPath(law: law, anchorTimes: anchorTimes, anchorValues: anchorValues)
        var times: [Double] = [], values: [Double] = []
        var t = 0.0
        // Irregular sample times, about 5 per anchor interval, running past the last anchor (forward draws).
        while times.count < count {
            values.append(path.value(at: t, using: &random))
            times.append(t)
            t += 0.5 + 3 * random.uniform()
            if random.uniform() < 0.2 { t = (t / anchorSpacing).rounded(.up) * anchorSpacing }  // hit anchors too
        }
        return (times, values)
    }

    @Test("Anchors are returned exactly")
    func anchorsExact() {
        var random = SeededGenerator(seed: 1)
        var path = AnchoredPath(
            law: .gaussMarkov(standardDeviation: 10, correlationTime: 60),
            anchorTimes: [0, 5, 9], anchorValues: [1, -2, 3])
        #expect(path.value(at: 0, using: &random) == 1)
        _ = path.value(at: 2, using: &random)
        #expect(path.value(at: 5, using: &random) == -2)
        #expect(path.value(at: 9, using: &random) == 3)
    }

    @Test("Bridged Gauss-Markov samples form a Gauss-Markov path: standardised innovations have variance 1 within 2 %")
    func gaussMarkovBridge() {
        let sigma = 10.0, tau = 20.0
        let (times, values) = Self.sample(
            law: .gaussMarkov(standardDeviation: sigma, correlationTime: tau), seed: 2, count: 200_000)
        var squares = 0.0, n = 0.0
        for k in 1..<times.count where times[k] > times[k - 1] {
            let phi = exp(-(times[k] - times[k - 1]) / tau)
            let w = (values[k] - phi * values[k - 1]) / (sigma * (1 - phi * phi).squareRoot())
            squares += w * w
            n += 1
        }
        // If the bridge's mean or variance were wrong, consecutive samples would not follow the forward law.
        // n ≈ 2e5 independent innovations: relative standard error of their variance √(2/n) = 0.3 %.
        #expect(abs(squares / n - 1) < 0.02, "innovation variance \(squares / n)")
    }

    @Test("Bridged Wiener samples have independent increments of variance q dt within 2 %")
    func wienerBridge() {
        let q = 0.25
        let (times, values) = Self.sample(law: .wiener(variancePerSecond: q), seed: 3, count: 200_000)
        var squares = 0.0, n = 0.0, lagged = 0.0, previous = 0.0
        for k in 1..<times.count where times[k] > times[k - 1] {
            let z = (values[k] - values[k - 1]) / (q * (times[k] - times[k - 1])).squareRoot()
            squares += z * z
            lagged += z * previous
            previous = z
            n += 1
        }
        #expect(abs(squares / n - 1) < 0.02, "increment variance \(squares / n)")
        // Independent increments: lag-1 correlation within 5 standard errors (1/√n) of 0.
        #expect(abs(lagged / n) < 5 / n.squareRoot(), "lag-1 \(lagged / n)")
    }
}
