import Altimetry
import Foundation
import Randomness
import Testing

/// Ascent from GPS altitude alone, on generated tracks whose true ascent is known: the total and its sigma agree
/// with the truth within two sigmas or 15 %, for a device's filtered GPS and for a phone's raw one.
@Suite("Ascent from GPS alone")
struct GPSOnlyAscentTests {
    /// A receiver's altitude error: Gauss-Markov (σ, τ) plus white noise, in metres and seconds.
    struct Receiver: Sendable, CustomStringConvertible {
        var sigma: Double, tau: Double, white: Double
        var description: String { "σ \(sigma) m, τ \(tau) s, white \(white) m" }
    }

    /// A walk of `duration` seconds at 1 Hz over climbs and descents of 5 to 80 m at 0.05 to 0.3 m/s, with
    /// pauses, seen by `receiver`: the readings and the true ascent.
    static func track(seed: UInt64, duration: Int, receiver: Receiver) -> (readings: [AltitudeReading], ascent: Double)
    {
        var random = SeededGenerator(seed: seed)
        var truth: [Double] = []
        var h = 500.0
        while truth.count < duration {
            let size = 5 + 75 * random.uniform(), rate = 0.05 + 0.25 * random.uniform()
            let sign = random.uniform() < 0.5 ? -1.0 : 1.0
            for k in 1...max(1, Int(size / rate)) { truth.append(h + sign * rate * Double(k)) }
            h = truth[truth.count - 1]
            for _ in 0..<Int(120 * random.uniform()) { truth.append(h) }
        }
        truth = Array(truth.prefix(duration))
        let ascent = zip(truth, truth.dropFirst()).reduce(0) { $0 + max(0, $1.1 - $1.0) }
        let a = exp(-1 / receiver.tau)
        var e = receiver.sigma * random.gaussian()
        let readings = truth.enumerated().map { k, x in
            e = a * e + (1 - a * a).squareRoot() * receiver.sigma * random.gaussian()
            return AltitudeReading(time: Double(k), gpsAltitude: x + e + receiver.white * random.gaussian())
        }
        return (readings, ascent)
    }

    @Test(
        "GIVEN a GPS-only walk with a known ascent WHEN measured THEN the total is within 2 sigma or 15 % of the truth",
        arguments: [
            (1, Receiver(sigma: 3, tau: 300, white: 0.5)), (2, Receiver(sigma: 3, tau: 300, white: 0.5)),
            (3, Receiver(sigma: 8, tau: 120, white: 1.5)), (4, Receiver(sigma: 8, tau: 120, white: 1.5)),
        ] as [(UInt64, Receiver)])
    func withinTheSpread(seed: UInt64, receiver: Receiver) throws {
        let (readings, truth) = Self.track(seed: seed, duration: 3_600, receiver: receiver)
        let report = try AscentAnalysis.measure(readings)
        let error = abs(report.ascent.value - truth)
        let sigma = report.ascent.standardDeviation
        #expect(
            error <= max(2 * sigma, 0.15 * truth),
            "seed \(seed), \(receiver): \(report.ascent.value) ± \(sigma) m, truth \(truth) m")
        #expect(sigma > 0)
    }

    @Test("GIVEN a GPS-only walk with a 12 km glitch WHEN measured THEN the glitch adds nothing")
    func glitch() throws {
        var (readings, truth) = Self.track(seed: 5, duration: 1_800, receiver: Receiver(sigma: 3, tau: 300, white: 0.5))
        readings[900].gpsAltitude = (readings[900].gpsAltitude ?? 0) + 12_000
        let report = try AscentAnalysis.measure(readings)
        #expect(report.impossibleValues == 1)
        #expect(abs(report.ascent.value - truth) <= max(2 * report.ascent.standardDeviation, 0.15 * truth))
        #expect(report.gpsOnly.allSatisfy { $0.ascent < 10 * truth })
    }
}
