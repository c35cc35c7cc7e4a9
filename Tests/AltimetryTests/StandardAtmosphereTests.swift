import Altimetry
import Foundation
import Testing

@Suite("StandardAtmosphere")
struct StandardAtmosphereTests {
    // MARK: - The seed's figures

    /// The seed's ISA table: altitude in m, pressure in hPa (printed to 0.1), metres per hPa (printed to 0.01).
    static let isaRows: [(altitude: Meters, pressure: Hectopascals, metersPerHectopascal: Double)] = [
        (0, 1_013.2, 8.32), (1_500, 845.6, 9.64), (3_000, 701.1, 11.22),
    ]

    @Test(
        "The ISA table: 1,013.2 / 845.6 / 701.1 hPa and 8.32 / 9.64 / 11.22 m per hPa at 0 / 1,500 / 3,000 m",
        arguments: isaRows)
    func isaTable(row: (altitude: Meters, pressure: Hectopascals, metersPerHectopascal: Double)) throws {
        // The seed prints pressure to 0.1 hPa and sensitivity to 0.01 m/hPa: half a unit of the last digit.
        #expect(abs(try StandardAtmosphere.pressure(atAltitude: row.altitude) - row.pressure) <= 0.05)
        #expect(
            abs(try StandardAtmosphere.metersPerHectopascal(atAltitude: row.altitude) - row.metersPerHectopascal)
                <= 0.005)
    }

    @Test("Sea level is exactly the standard 1013.25 hPa and 288.15 K")
    func seaLevel() throws {
        #expect(try StandardAtmosphere.pressure(atAltitude: 0) == 1_013.25)
        #expect(try StandardAtmosphere.temperature(atAltitude: 0) == 288.15)
        // T = T0 - L h exactly, up to one rounding of the product (a few 1e-14 K at 11 km).
        #expect(abs(try StandardAtmosphere.temperature(atAltitude: 11_000) - 216.65) < 1e-9)
    }

    @Test("The scale height at 15 °C is 8,435 m")
    func scaleHeight() throws {
        // The seed rounds to the metre; R T / (g M) = 8,434.66 m.
        #expect(abs(try StandardAtmosphere.scaleHeight() - 8_435) <= 0.5)
        #expect(abs(try StandardAtmosphere.scaleHeight(temperature: 288.15) - 8_434.660_3) < 1e-4)
    }

    @Test("The barometric exponent g M / (R L) is 5.255786")
    func exponent() {
        // Printed to six decimals: half a unit of the sixth.
        #expect(abs(StandardAtmosphere.pressureExponent - 5.255_786) <= 5e-7)
    }

    /// The seed's 9 m climb read at a wrong temperature: assumed °C and the height it reads (printed to 0.01 m).
    static let temperatureRows: [(celsius: Double, reading: Meters)] = [(-10, 8.22), (15, 9.00), (35, 9.63)]

    @Test("A 9 m climb converted at -10 / 15 / 35 °C reads 8.22 / 9.00 / 9.63 m", arguments: temperatureRows)
    func climbAtWrongTemperature(row: (celsius: Double, reading: Meters)) throws {
        let ground = try StandardAtmosphere.pressure(atAltitude: 0)
        let third = try StandardAtmosphere.pressure(atAltitude: 9)
        let reading = try StandardAtmosphere.heightDifference(
            from: ground, to: third, meanTemperature: 273.15 + row.celsius)
        // Half a unit of the printed hundredth.
        #expect(abs(reading - row.reading) <= 0.005)
    }

    @Test("A temperature error scales heights by T_assumed / T_true, about 0.35 % per kelvin")
    func temperatureSensitivity() throws {
        let h288 = try StandardAtmosphere.heightDifference(from: 1_000, to: 900, meanTemperature: 288.15)
        let h289 = try StandardAtmosphere.heightDifference(from: 1_000, to: 900, meanTemperature: 289.15)
        // The ratio is exactly 289.15 / 288.15 up to rounding; 1/288.15 = 0.347 % per kelvin.
        #expect(abs(h289 / h288 - 289.15 / 288.15) < 1e-14)
        #expect(abs((h289 / h288 - 1) - 0.003_47) < 0.000_01)
    }

    /// The seed's wind table: speed in m/s, dynamic pressure in hPa (to 0.01), apparent height in m (to 0.1).
    static let windRows: [(speed: Double, pressure: Hectopascals, height: Meters)] = [
        (5, 0.15, 1.3), (10, 0.61, 5.1), (20, 2.45, 20.4),
    ]

    @Test("Wind of 5 / 10 / 20 m/s: 0.15 / 0.61 / 2.45 hPa, 1.3 / 5.1 / 20.4 m", arguments: windRows)
    func wind(row: (speed: Double, pressure: Hectopascals, height: Meters)) throws {
        // Half a unit of each printed last digit.
        #expect(abs(StandardAtmosphere.dynamicPressure(windSpeed: row.speed) - row.pressure) <= 0.005)
        #expect(abs(try StandardAtmosphere.apparentHeight(windSpeed: row.speed) - row.height) <= 0.05)
        // q = ½ ρ v² exactly: 0.5 · 1.225 · 100 Pa at 10 m/s is 61.25 Pa.
        #expect(abs(StandardAtmosphere.dynamicPressure(windSpeed: 10) - 0.6125) < 1e-15)
    }

    // MARK: - Laws

    static let altitudes: [Meters] = stride(from: 0.0, through: 11_000, by: 10).map { $0 }

    @Test(
        "Pressure to altitude to pressure round-trips to 1e-9 relative from 0 to 11,000 m, at three QNH settings",
        arguments: [1_013.25, 990.0, 1_035.5] as [Hectopascals])
    func roundTrip(seaLevelPressure: Hectopascals) throws {
        for h in Self.altitudes {
            let p = try StandardAtmosphere.pressure(atAltitude: h, seaLevelPressure: seaLevelPressure)
            let back = try StandardAtmosphere.altitude(atPressure: p, seaLevelPressure: seaLevelPressure)
            let again = try StandardAtmosphere.pressure(atAltitude: back, seaLevelPressure: seaLevelPressure)
            // pow and its inverse each cost a few ulps; 1e-9 is the issue's bound and leaves a wide margin.
            #expect(abs(again - p) / p <= 1e-9, "h = \(h) m, QNH \(seaLevelPressure) hPa")
            // And the altitude itself comes back to within a micrometre.
            #expect(abs(back - h) < 1e-6, "h = \(h) m")
        }
    }

    @Test("Pressure falls and metres per hPa grow strictly with altitude; altitude falls with pressure")
    func monotonicity() throws {
        var previousPressure = Double.infinity
        var previousSensitivity = 0.0
        for h in Self.altitudes {
            let p = try StandardAtmosphere.pressure(atAltitude: h)
            let sensitivity = try StandardAtmosphere.metersPerHectopascal(atAltitude: h)
            #expect(p < previousPressure, "h = \(h) m")
            #expect(sensitivity > previousSensitivity, "h = \(h) m")
            previousPressure = p
            previousSensitivity = sensitivity
        }
        var previousAltitude = Double.infinity
        for p in stride(from: 250.0, through: 1_050, by: 1) {
            let h = try StandardAtmosphere.altitude(atPressure: p)
            #expect(h < previousAltitude, "p = \(p) hPa")
            previousAltitude = h
        }
    }

    @Test("The hypsometric equation at the layer's log-mean temperature reproduces the barometric formula exactly")
    func hypsometricMatchesBarometric() throws {
        // With T linear in h, integrating dp/p = −g M/(R T) dh gives Δh = (R T̄/(g M)) ln(p₁/p₂) exactly when
        // T̄ = (T₁ − T₂)/ln(T₁/T₂), the logarithmic mean: an identity independent of how either side is coded.
        for (h1, h2) in [(0.0, 9.0), (0, 1_000), (1_500, 3_000), (0, 11_000), (5_000, 5_001)] {
            let t1 = try StandardAtmosphere.temperature(atAltitude: h1)
            let t2 = try StandardAtmosphere.temperature(atAltitude: h2)
            let logMean = (t1 - t2) / log(t1 / t2)
            let dh = try StandardAtmosphere.heightDifference(
                from: StandardAtmosphere.pressure(atAltitude: h1), to: StandardAtmosphere.pressure(atAltitude: h2),
                meanTemperature: logMean)
            // Relative 1e-9 of the layer: the log of a ratio near 1 (the 1 m layer) loses about 5 digits of 16.
            #expect(abs(dh - (h2 - h1)) <= 1e-9 * max(1, h2 - h1) + 1e-9, "layer \(h1)–\(h2) m: \(dh)")
        }
    }

    @Test("Metres per hPa equal H(T)/p to 1e-5 relative")
    func sensitivityIsScaleHeightOverPressure() throws {
        for h in stride(from: 0.0, through: 11_000, by: 500) {
            let t = try StandardAtmosphere.temperature(atAltitude: h)
            let p = try StandardAtmosphere.pressure(atAltitude: h)
            let local = try StandardAtmosphere.scaleHeight(temperature: t) / p
            // The centred 1 hPa difference differs from the derivative by (1/(2p))²/3 ≈ 1e-6 at 250 hPa.
            #expect(abs(try StandardAtmosphere.metersPerHectopascal(atAltitude: h) / local - 1) < 1e-5, "h = \(h) m")
        }
    }

    @Test("A higher QNH puts the same pressure higher: 10 hPa is about 83 m at sea level")
    func qnh() throws {
        let h = try StandardAtmosphere.altitude(atPressure: 1_013.25, seaLevelPressure: 1_023.25)
        // 10 hPa times about 8.3 m/hPa; the exact formula gives 82.8 m. A 0.5 m band covers the curvature.
        #expect(abs(h - 82.8) < 0.5)
    }

    // MARK: - Domain errors

    @Test(
        "Pressures that are not positive and finite are typed errors",
        arguments: [0, -1, -1_013.25, .nan, .infinity, -.infinity] as [Double])
    func badPressure(p: Double) {
        #expect(throws: AtmosphereError.self) { try StandardAtmosphere.altitude(atPressure: p) }
        #expect(throws: AtmosphereError.self) { try StandardAtmosphere.pressure(atAltitude: 0, seaLevelPressure: p) }
        #expect(throws: AtmosphereError.self) {
            try StandardAtmosphere.heightDifference(from: p, to: 900, meanTemperature: 288)
        }
        #expect(throws: AtmosphereError.self) {
            try StandardAtmosphere.heightDifference(from: 900, to: p, meanTemperature: 288)
        }
        do {
            _ = try StandardAtmosphere.altitude(atPressure: p)
        } catch {
            // NaN never equals itself, so compare the case, and the payload for the others.
            guard case .pressureNotPositive(let payload) = error else {
                Issue.record("expected pressureNotPositive, got \(error)")
                return
            }
            #expect(payload == p || (payload.isNaN && p.isNaN))
        }
    }

    @Test(
        "Temperatures at or below 0 K, or not finite, are typed errors",
        arguments: [0, -1, -273.15, .nan, .infinity] as [Double])
    func badTemperature(t: Kelvin) {
        #expect(throws: AtmosphereError.self) { try StandardAtmosphere.scaleHeight(temperature: t) }
        #expect(throws: AtmosphereError.self) {
            try StandardAtmosphere.heightDifference(from: 1_000, to: 900, meanTemperature: t)
        }
        if !t.isNaN {
            #expect(throws: AtmosphereError.temperatureNotAboveAbsoluteZero(t)) {
                try StandardAtmosphere.scaleHeight(temperature: t)
            }
        }
    }

    @Test(
        "Altitudes outside -1,000 to 11,000 m, or not finite, are typed errors",
        arguments: [-1_000.001, -5_000, 11_000.001, 20_000, .infinity, -.infinity] as [Meters])
    func badAltitude(h: Meters) {
        #expect(throws: AtmosphereError.altitudeOutOfRange(h)) { try StandardAtmosphere.pressure(atAltitude: h) }
        #expect(throws: AtmosphereError.altitudeOutOfRange(h)) {
            try StandardAtmosphere.metersPerHectopascal(atAltitude: h)
        }
        #expect(throws: AtmosphereError.altitudeOutOfRange(h)) { try StandardAtmosphere.temperature(atAltitude: h) }
        #expect(throws: AtmosphereError.altitudeOutOfRange(h)) {
            try StandardAtmosphere.apparentHeight(windSpeed: 10, atAltitude: h)
        }
    }

    @Test("The model's edges are inside it, and NaN altitude is refused")
    func edges() throws {
        _ = try StandardAtmosphere.pressure(atAltitude: -1_000)
        _ = try StandardAtmosphere.pressure(atAltitude: 11_000)
        #expect(throws: AtmosphereError.self) { try StandardAtmosphere.pressure(atAltitude: .nan) }
    }

    @Test("A pressure that maps above the tropopause or below -1,000 m is an altitude error, not a number")
    func pressureOutsideModel() {
        // 100 hPa is about 16 km; 1,200 hPa about -1,450 m.
        #expect {
            try StandardAtmosphere.altitude(atPressure: 100)
        } throws: { error in
            guard case AtmosphereError.altitudeOutOfRange(let h) = error else { return false }
            return h > 11_000
        }
        #expect {
            try StandardAtmosphere.altitude(atPressure: 1_200)
        } throws: { error in
            guard case AtmosphereError.altitudeOutOfRange(let h) = error else { return false }
            return h < -1_000
        }
    }

    @Test("Errors describe themselves with the value and its unit")
    func descriptions() {
        #expect(AtmosphereError.pressureNotPositive(-3).description.contains("-3.0 hPa"))
        #expect(AtmosphereError.temperatureNotAboveAbsoluteZero(0).description.contains("0.0 K"))
        #expect(AtmosphereError.altitudeOutOfRange(12_000).description.contains("12000.0 m"))
    }
}
