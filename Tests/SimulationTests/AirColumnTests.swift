import Altimetry
import Foundation
import Testing

@testable import Simulation

@Suite("AirColumn")
struct AirColumnTests {
    /// Integrates dp/p = −g M / (R T(h)) dh from sea level with the trapezoid rule on 1 m steps, as an
    /// independent check of the closed form.
    static func integratedPressure(altitude: Double, seaLevelPressure: Double, temperature: (Double) -> Double)
        -> Double
    {
        let k = StandardAtmosphere.gravity * StandardAtmosphere.molarMass / StandardAtmosphere.gasConstant
        let steps = max(1, Int(abs(altitude).rounded(.up)))
        let dh = altitude / Double(steps)
        var logRatio = 0.0
        for i in 0..<steps {
            let h0 = Double(i) * dh, h1 = h0 + dh
            logRatio -= k * 0.5 * (1 / temperature(h0) + 1 / temperature(h1)) * dh
        }
        return seaLevelPressure * exp(logRatio)
    }

    @Test("The standard column is the standard barometric formula", arguments: [-400.0, 0, 1_500, 3_000, 8_000])
    func standard(altitude: Double) throws {
        let expected = try StandardAtmosphere.pressure(atAltitude: altitude, seaLevelPressure: 1_005)
        #expect(abs(AirColumn.standard.pressure(atAltitude: altitude, seaLevelPressure: 1_005) / expected - 1) < 1e-14)
    }

    @Test(
        "Cold, warm and isothermal columns match a fine trapezoid integral of the hypsometric equation",
        arguments: [(-20.0, 0.0065), (15.0, 0.0065), (0.0, 0.0), (-10.0, 0.009)])
    func hypsometricIntegral(offset: Double, lapse: Double) {
        let column = AirColumn(temperatureOffset: offset, lapseRate: lapse)
        for h in [0.0, 1_000, 3_000, 6_000] {
            let closedForm = column.pressure(atAltitude: h, seaLevelPressure: 1_021)
            let integral = Self.integratedPressure(
                altitude: h, seaLevelPressure: 1_021,
                temperature: column.temperature(atAltitude:))
            // Trapezoid error on 1 m steps is O(dh² · ∂²(1/T)/∂h² · h) ≈ 1e-12 relative: 1e-9 is generous.
            #expect(abs(closedForm / integral - 1) < 1e-9, "offset \(offset), lapse \(lapse), h \(h)")
        }
    }

    @Test("At 3,000 m, 20 K colder than standard, an altimeter assuming ISA reads about 7 % too high")
    func coldReadsHigh() throws {
        let cold = AirColumn(temperatureOffset: -20)
        #expect(abs(cold.temperature(atAltitude: 3_000) - 248.65) < 1e-9)
        let p = cold.pressure(atAltitude: 3_000, seaLevelPressure: StandardAtmosphere.seaLevelPressure)
        let indicated = try StandardAtmosphere.altitude(atPressure: p)
        // Heights scale with the column's mean temperature: T_ISA / T_cold ≈ 278.4 / 258.4 ≈ 1.077 at mid-layer.
        #expect(indicated > 3_000)
        #expect(abs(indicated / 3_000 - 1.077) < 0.003, "indicated \(indicated)")
    }
}
