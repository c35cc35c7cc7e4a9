import Foundation
import Simulation
import Testing

@testable import Altimetry

/// Maximum likelihood through the filter on simulated static logs, at a scale a unit test affords (the 50-seed
/// study is `altimetry-bench identify`).
@Suite("ReceiverIdentification")
struct ReceiverIdentificationTests {
    static func readings(_ receiver: SimulatedReceiver, hours: Double, seed: UInt64) throws -> [AltitudeReading] {
        var scenario = Scenario.staticLog(receiver: receiver, duration: hours * 3_600, seed: seed)
        // The model's own random-walk weather (q_b = 1/3600 hPa²/s), so that q_b has a true value to recover.
        scenario.weather = WeatherModel(initialOffset: 4, randomWalkVariance: 1.0 / 3_600)
        return try scenario.simulate().readings.map {
            AltitudeReading(
                time: $0.time, pressure: $0.pressure, gpsAltitude: $0.gpsAltitude,
                gpsVerticalAccuracy: $0.gpsVerticalAccuracy)
        }
    }

    @Test(
        "GIVEN a 1 h static log of a 2 m / 30 s receiver WHEN identified THEN every parameter is within 3 standard errors of the truth"
    )
    func recovers() throws {
        let receiver = SimulatedReceiver(correlatedErrorStandardDeviation: 2, correlationTime: 30)
        let r = try ReceiverIdentification(readings: Self.readings(receiver, hours: 1, seed: 3))
        #expect(r.series == .gpsAltitude)
        #expect(r.allanFitNotIdentifiableReason == nil, "\(r.allanFitNotIdentifiableReason ?? "")")
        let truth: [IdentifiableParameter: Double] = [
            .gpsSigma: 2, .gpsTau: 30, .gpsWhite: 1, .weatherQ: 1.0 / 3_600, .baroSigma: 0.012,
        ]
        for e in r.maximumLikelihood.estimates {
            let t = try #require(truth[e.parameter])
            #expect(e.isIdentifiable, "\(e.parameter): \(e.reason ?? "")")
            let se = try #require(e.standardError)
            #expect(abs(e.value - t) < 3 * se, "\(e.parameter): \(e.value) ± \(se), truth \(t)")
            #expect(se < 0.4 * t, "\(e.parameter): standard error \(se) not small against \(t)")
        }
        #expect(r.maximumLikelihood.logLikelihood > r.defaultLogLikelihood)
        #expect(
            r.identifiedParameters.gpsErrorStandardDeviation == r.maximumLikelihood.parameters.gpsErrorStandardDeviation
        )
        #expect(!r.identifiedParameters.learnsReceiver, "an identified receiver is fused with its own model")
    }

    @Test(
        "GIVEN a 30 min log of a receiver whose error is correlated for an hour THEN σ_e and τ are reported as not identifiable"
    )
    func notIdentifiable() throws {
        let receiver = SimulatedReceiver(correlatedErrorStandardDeviation: 10, correlationTime: 3_600)
        let r = try ReceiverIdentification(readings: Self.readings(receiver, hours: 0.5, seed: 5))
        let tau = try #require(r.maximumLikelihood.estimates.first { $0.parameter == .gpsTau })
        #expect(!tau.isIdentifiable, "τ \(tau.value) ± \(tau.standardError ?? .nan) called identifiable")
        #expect(
            r.allanFitNotIdentifiableReason != nil, "Allan fit τ \(r.allanFit.correlationTime) s called identifiable")
        #expect(r.identifiedParameters.gpsCorrelationTime == AltitudeModelParameters().gpsCorrelationTime)
        #expect(r.identifiedParameters.learnsReceiver, "a receiver not identified is left to the bank to learn")
    }

    @Test("A recording without GPS is a typed error")
    func noGPS() {
        let readings = (0..<100).map { AltitudeReading(time: Double($0), pressure: 1000) }
        #expect(throws: IdentificationError.noGPS) { try ReceiverIdentification(readings: readings) }
    }
}
