import Foundation
import Simulation
import Testing

@testable import Altimetry

@Suite("GPSErrorModelBank shared weather regime")
struct GPSErrorModelBankSharedWeatherTests {
    /// The catalogue's `front` scenario of `seed` as the catalogue's benchmark reads it (with temperatures, in kelvin),
    /// with the truth.
    static func front(seed: UInt64) throws -> [(reading: AltitudeReading, truth: Double)] {
        try Scenario.named(.front, seed: seed).simulate().readings.map {
            (
                AltitudeReading(
                    time: $0.time, pressure: $0.pressure, gpsAltitude: $0.gpsAltitude,
                    gpsVerticalAccuracy: $0.gpsVerticalAccuracy, temperature: $0.temperatureCelsius.map { $0 + 273.15 }),
                $0.trueAltitude
            )
        }
    }

    @Test(
        "GIVEN a pressure front WHEN the bank fuses it THEN every member is in one weather noise regime at every reading, the front's for a while"
    )
    func membersShareTheRegime() throws {
        let parameters = AltitudeModelParameters()
        var bank = try GPSErrorModelBank(parameters: parameters)
        var frontReadings = 0
        for (r, _) in try Self.front(seed: 1) {
            _ = try bank.process(r)
            let densities = Set(bank.members.compactMap { $0.engine?.model.weatherNoiseDensity })
            #expect(densities.count == 1, "t \(r.time) s: weather noise densities \(densities.sorted())")
            if densities == [parameters.frontWeatherNoiseDensity] { frontReadings += 1 }
        }
        // The front lowers the pressure by 3 hPa over 40 minutes: the regime switches to the front's for minutes.
        #expect(frontReadings > 300, "\(frontReadings) readings in front noise")
    }

    @Test(
        "GIVEN pressure fronts WHEN fused adaptively THEN the right receiver keeps the weight and the bank's RMSE is within 5 % of the fixed model's"
    )
    func frontKeepsTheRightReceiver() throws {
        var fixedParameters = AltitudeModelParameters()
        fixedParameters.adaptsGPSErrorModel = false
        var adaptiveParameters = fixedParameters
        adaptiveParameters.adaptsGPSErrorModel = true
        var fixedSquares = 0.0, bankSquares = 0.0, led = 0, scored = 0
        // Seeds 1 to 4 of the catalogue's benchmark (trial k is seed 1 + k); each is scored after 600 s, as there.
        for seed: UInt64 in 1...4 {
            var fixed = try AltitudeFilter(parameters: fixedParameters)
            var bank = try AltitudeFilter(parameters: adaptiveParameters)
            let readings = try Self.front(seed: seed)
            let start = try #require(readings.first).reading.time
            for (r, truth) in readings {
                let f = try fixed.process(r)
                let b = try bank.process(r)
                guard r.time - start >= 600 else { continue }
                fixedSquares += (f.altitude - truth) * (f.altitude - truth)
                bankSquares += (b.altitude - truth) * (b.altitude - truth)
                let members = try #require(bank.gpsModelBank)
                let leading = members.hypotheses[members.leadingIndex]
                if leading.correlatedStandardDeviation == 10 && leading.correlationTime == 60 { led += 1 }
                scored += 1
            }
        }
        let ratio = (bankSquares / fixedSquares).squareRoot()
        let share = Double(led) / Double(scored)
        // With a regime of its own per member, the 30 m / 300 s member booked the front as GPS error and led for
        // up to 20 minutes while the right one was in front noise (seeds 1 and 2): ratio 1.33 over these seeds, the
        // right receiver leading 0.942 of the time. Sharing the regime: 1.03 and 0.9998. The ratio's bound is the
        // issue's target (5 %), the share's a minute per 2 h track; the simulation is seeded, so neither is noisy.
        #expect(ratio < 1.05, "RMSE ratio \(ratio)")
        #expect(share > 0.99, "the catalogue's 10 m / 60 s receiver leads \(share) of the time")
    }
}
