import Altimetry
import Foundation
import Testing

@Suite("StandardAtmosphere+Measurement")
struct StandardAtmosphereMeasurementTests {
    /// The standard sea-level pressure in several units, and how close the conversion must land in hPa.
    ///
    /// Exact decimal multiples (kPa, Pa, mbar) land within a few ulps, 1e-9 hPa. The inch of mercury has several
    /// conventional values between 3,386.38 and 3,386.40 Pa (Foundation on Linux uses about 3,386.40), so
    /// 29.9213 inHg is 1,013.247 to 1,013.253 hPa: 0.005 hPa, about 4 cm of height.
    static let standardPressure: [(measurement: Foundation.Measurement<UnitPressure>, tolerance: Double)] = [
        (Foundation.Measurement(value: 1_013.25, unit: .hectopascals), 1e-9),
        (Foundation.Measurement(value: 101.325, unit: .kilopascals), 1e-9),
        (Foundation.Measurement(value: 101_325, unit: .newtonsPerMetersSquared), 1e-9),
        (Foundation.Measurement(value: 1_013.25, unit: .millibars), 1e-9),
        (Foundation.Measurement(value: 29.921_3, unit: .inchesOfMercury), 5e-3),
    ]

    @Test("hPa, kPa, Pa, mbar and inHg convert to 1013.25 hPa", arguments: standardPressure)
    func conversions(row: (measurement: Foundation.Measurement<UnitPressure>, tolerance: Double)) throws {
        let hPa = try StandardAtmosphere.hectopascals(row.measurement)
        #expect(abs(hPa - 1_013.25) <= row.tolerance, "\(row.measurement) gave \(hPa) hPa")
        // And sea-level pressure in any of them is altitude zero, within the tolerance times 8.32 m/hPa.
        #expect(abs(try StandardAtmosphere.altitude(atPressure: row.measurement)) <= row.tolerance * 8.4)
    }

    @Test("Core Motion's kilopascals are ten times too small read as hPa: the boundary converts them")
    func kilopascalsAreNotHectopascals() throws {
        let coreMotion = Foundation.Measurement(value: 84.56, unit: UnitPressure.kilopascals)
        let h = try StandardAtmosphere.altitude(atPressure: coreMotion)
        // 845.6 hPa is the seed's 1,500 m row; the 0.1 hPa rounding there is about 1 m.
        #expect(abs(h - 1_500) < 1.5)
        // 84.56 × 10 in binary floating point: a few ulps.
        #expect(abs(try StandardAtmosphere.hectopascals(coreMotion) - 845.6) < 1e-9)
    }

    @Test("Pressure at an altitude comes back as a Measurement in hPa that converts to kPa")
    func pressureMeasurement() throws {
        let qnh = Foundation.Measurement(value: 102.0, unit: UnitPressure.kilopascals)
        let p = try StandardAtmosphere.pressure(atAltitude: 1_500, seaLevelPressure: qnh)
        #expect(p.unit == .hectopascals)
        let expected = try StandardAtmosphere.pressure(atAltitude: 1_500, seaLevelPressure: 1_020)
        // Same arithmetic after an exact ×10; a few ulps.
        #expect(abs(p.value - expected) < 1e-9)
        #expect(abs(p.converted(to: .kilopascals).value - expected / 10) < 1e-10)
        let back = try StandardAtmosphere.altitude(atPressure: p, seaLevelPressure: qnh)
        #expect(abs(back - 1_500) < 1e-6)
    }

    @Test("Height difference from Measurements: °C and K agree, kPa and hPa agree")
    func heightDifference() throws {
        let ground = Foundation.Measurement(value: 101.325, unit: UnitPressure.kilopascals)
        let third = Foundation.Measurement(
            value: try StandardAtmosphere.pressure(atAltitude: 9), unit: UnitPressure.hectopascals)
        let celsius = try StandardAtmosphere.heightDifference(
            from: ground, to: third,
            meanTemperature: Foundation.Measurement(value: 15, unit: .celsius))
        let kelvin = try StandardAtmosphere.heightDifference(from: 1_013.25, to: third.value, meanTemperature: 288.15)
        // Foundation converts 15 °C to 288.15 K with one rounding.
        #expect(abs(celsius - kelvin) < 1e-9)
        #expect(abs(kelvin - 9.00) <= 0.005)
    }

    @Test(
        "Measurements that are not positive and finite are typed errors, whatever the unit",
        arguments: [
            Foundation.Measurement(value: 0, unit: .kilopascals),
            Foundation.Measurement(value: -1, unit: .hectopascals),
            Foundation.Measurement(value: .infinity, unit: .inchesOfMercury),
            Foundation.Measurement(value: -5, unit: .millibars),
        ]
            as [Foundation.Measurement<UnitPressure>])
    func badMeasurement(m: Foundation.Measurement<UnitPressure>) {
        #expect(throws: AtmosphereError.self) { try StandardAtmosphere.hectopascals(m) }
        #expect(throws: AtmosphereError.self) { try StandardAtmosphere.altitude(atPressure: m) }
    }

    @Test("Temperatures at or below absolute zero in Celsius are refused", arguments: [-273.15, -300] as [Double])
    func absoluteZeroCelsius(celsius: Double) {
        #expect(throws: AtmosphereError.self) {
            try StandardAtmosphere.heightDifference(
                from: Foundation.Measurement(value: 1_000, unit: .hectopascals),
                to: Foundation.Measurement(value: 900, unit: .hectopascals),
                meanTemperature: Foundation.Measurement(value: celsius, unit: .celsius))
        }
    }
}
