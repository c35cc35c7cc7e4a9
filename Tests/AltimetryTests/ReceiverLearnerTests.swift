import Foundation
import Randomness
import Simulation
import Testing

@testable import Altimetry

@Suite("ReceiverLearner")
struct ReceiverLearnerTests {
    /// The learner after a simulated static log of `receiver` fused by the default filter.
    static func learned(_ receiver: SimulatedReceiver, hours: Double, seed: UInt64) throws -> AltitudeFilter {
        let recording = try Scenario.staticLog(receiver: receiver, duration: hours * 3_600, seed: seed).simulate()
        var filter = try AltitudeFilter(parameters: .adaptive)
        for r in recording.readings {
            _ = try filter.process(
                AltitudeReading(time: r.time, pressure: r.pressure, gpsAltitude: r.gpsAltitude))
        }
        return filter
    }

    /// GIVEN 4 h static logs of receivers from a fast 2 m one to a slow 30 m one, WHEN fused, THEN the receiver in
    /// use is within a factor 2 of the true spread (the grid's steps) and the weights are a distribution.
    @Test(
        "The most probable receiver has the simulated spread to the grid's step",
        arguments: [(2.0, 30.0), (10, 300), (30, 300)] as [(Double, Double)])
    func identifiesSpread(sigma: Double, tau: Double) throws {
        let receiver = SimulatedReceiver(correlatedErrorStandardDeviation: sigma, correlationTime: tau)
        let filter = try Self.learned(receiver, hours: 4, seed: 11)
        let learner = try #require(filter.learner)
        let w = learner.weights
        #expect(abs(w.reduce(0, +) - 1) < 1e-12 && w.allSatisfy { $0 >= 0 })
        let s = filter.receiver.errorStandardDeviation
        #expect(s >= sigma / 2.01 && s <= sigma * 2.01, "\(receiver): learned \(filter.receiver)")
    }

    /// The mixture is the moments of the model-averaged posterior: with one receiver's weight near one, it is that
    /// receiver's filter.
    @Test("The mixture's moments are the weighted receivers'")
    func mixtureMoments() throws {
        let filter = try Self.learned(
            SimulatedReceiver(correlatedErrorStandardDeviation: 10, correlationTime: 300), hours: 1, seed: 2)
        let learner = try #require(filter.learner)
        let mixture = try #require(learner.mixture)
        let w = learner.weights
        for a in 0..<4 {
            let mean = zip(w, learner.hypotheses).reduce(0) { $0 + $1.0 * $1.1.mean[a] }
            #expect(abs(mixture.mean[a] - mean) <= 1e-9 * max(1, abs(mean)))
            #expect(mixture.covariance[5 * a] >= 0)
        }
    }

    @Test("The learner round-trips through JSON to the bit")
    func codable() throws {
        let filter = try Self.learned(
            SimulatedReceiver(correlatedErrorStandardDeviation: 10, correlationTime: 300), hours: 0.5, seed: 4)
        let learner = try #require(filter.learner)
        let decoded = try JSONDecoder().decode(ReceiverLearner.self, from: JSONEncoder().encode(learner))
        #expect(decoded == learner)
    }
}

@Suite("ReceiverLearner on a bare lift")
struct ReceiverLearnerBareLiftTests {
    /// GIVEN fixes of a still receiver whose error is a Gauss-Markov process of σ and τ plus 1 m of white noise, over
    /// a barometer that does not move (no weather, no motion), WHEN 8 h of 1 Hz fixes are taken, THEN the most
    /// probable receiver is the grid's nearest in σ (within a factor 2) and in τ (within a factor 5): the lift is
    /// the receiver's error alone, which the likelihood sees directly.
    @Test(
        "On a bare Gauss-Markov lift the receiver is the grid's nearest",
        arguments: [(2.0, 30.0), (10, 300), (30, 3_600), (8, 600)] as [(Double, Double)])
    func bareLift(sigma: Double, tau: Double) {
        var generator = SeededGenerator(seed: 5)
        var learner = ReceiverLearner(parameters: .adaptive)
        var e = sigma * generator.gaussian()
        let phi = exp(-1 / tau)
        for k in 0..<28_800 {
            let t = Double(k)
            learner.observePressure(altitude: 100, heightMoved: 0, atRest: true, restDensity: 0, interval: 1)
            e = phi * e + sigma * (1 - phi * phi).squareRoot() * generator.gaussian()
            learner.observeFix(altitude: 150 + e + generator.gaussian(), accuracy: nil, at: t + 0.5)
        }
        let r = learner.receiver
        #expect(r.errorStandardDeviation >= sigma / 2.01 && r.errorStandardDeviation <= sigma * 2.01, "\(r)")
        #expect(r.correlationTime >= tau / 5.01 && r.correlationTime <= tau * 5.01, "\(r)")
    }
}
