import Foundation
import Testing

@testable import Altimetry

/// The altitude walk's density at the barometer's vertical speed (`AltitudeModelParameters.stillAltitudeNoiseDensity`).
@Suite("AltitudeFilter: altitude noise at the vertical speed")
struct AltitudeFilterMotionNoiseTests {
    @Test("q(v) = q_s + (q_h − q_s) min(1, (v/v_m)²), and q_h without the barometric velocity")
    func densityAtSpeed() {
        var p = AltitudeModelParameters()
        p.altitudeNoiseDensity = 10
        p.stillAltitudeNoiseDensity = 1
        p.altitudeNoiseSpeed = 2
        #expect(p.altitudeNoiseDensity(atVerticalSpeed: 0) == 1)
        #expect(abs(p.altitudeNoiseDensity(atVerticalSpeed: 1) - (1 + 9 * 0.25)) < 1e-12)
        #expect(abs(p.altitudeNoiseDensity(atVerticalSpeed: -1) - (1 + 9 * 0.25)) < 1e-12)
        #expect(p.altitudeNoiseDensity(atVerticalSpeed: 2) == 10)
        #expect(p.altitudeNoiseDensity(atVerticalSpeed: 60) == 10)
        #expect(p.altitudeNoiseDensity(atVerticalSpeed: .infinity) == 10)
        #expect(p.altitudeNoiseDensity(atVerticalSpeed: .nan) == 10)
        p.barometricVelocityTime = 0
        #expect(p.altitudeNoiseDensity(atVerticalSpeed: 0) == 10)
        #expect(AltitudeModelParameters.plain.altitudeNoiseDensity(atVerticalSpeed: 0) == 10)
    }

    /// Pressures on the second at `speed` m/s from 500 m, a fix half a second after each (truth, no noise), and
    /// fixes alone from `barometerUntil` on. The pressures alternate by ±0.002 hPa (2 cm), so that a still
    /// barometer is not an exactly repeating, stuck one.
    static func readings(speed: Double, until end: Int, barometerUntil: Int? = nil) throws -> [AltitudeReading] {
        var readings: [AltitudeReading] = []
        for second in 0...end {
            let t = Double(second)
            if second <= (barometerUntil ?? end) {
                readings.append(
                    AltitudeReading(
                        time: t,
                        pressure: try StandardAtmosphere.pressure(atAltitude: 500 + speed * t)
                            + (second.isMultiple(of: 2) ? 0.002 : -0.002)))
            }
            readings.append(AltitudeReading(time: t + 0.5, gpsAltitude: 500 + speed * (t + 0.5)))
        }
        return readings
    }

    static func density(after readings: [AltitudeReading], parameters: AltitudeModelParameters) throws -> Double {
        var filter = try AltitudeFilter(parameters: parameters)
        for r in readings { _ = try filter.process(r) }
        return try #require(filter.engine).model.altitudeNoiseDensity
    }

    /// GIVEN a still device, a hiker's climb, a lift's and a barometer that stops, WHEN the default filter fuses
    /// them, THEN the walk's density is q_s at rest, between q_s and q_h at 0.3 m/s, q_h at 2 m/s and q_h once no
    /// pressure has vouched for the motion for the velocity's 10 s; the plain model keeps q_h throughout.
    @Test("The filter's walk follows the barometer's vertical speed, and is q_h without a recent pressure")
    func filterDensity() throws {
        let d = AltitudeModelParameters()
        #expect(
            try Self.density(after: Self.readings(speed: 0, until: 120), parameters: d) == d.stillAltitudeNoiseDensity)
        let hiker = try Self.density(after: Self.readings(speed: 0.3, until: 120), parameters: d)
        // 1 + 9 × 0.09 = 1.81, within the 5 % the filter lets the density move before replacing the model.
        #expect(abs(hiker - 1.81) < 0.05 * 1.81, "hiker: \(hiker)")
        #expect(try Self.density(after: Self.readings(speed: 2, until: 120), parameters: d) == d.altitudeNoiseDensity)
        let stopped = try Self.density(
            after: Self.readings(speed: 0, until: 120, barometerUntil: 60), parameters: d)
        #expect(stopped == d.altitudeNoiseDensity)
        #expect(
            try Self.density(after: Self.readings(speed: 0, until: 120), parameters: .plain)
                == AltitudeModelParameters.plain.altitudeNoiseDensity)
    }

    @Test("The column's noise from the height moved: q_Γ |v| with q_Γ = σ_Γ² D₀/4, zero without what it needs")
    func columnDensityAtSpeed() {
        var p = AltitudeModelParameters()
        // σ_Γ = 1 K/km over D₀ = 2 km: q_Γ = 10⁻⁶ × 2,000 / 4 = 5·10⁻⁴ K²/m, so a 4 km descent spreads C by 1.4 K.
        #expect(abs(p.columnNoiseDensity(atVerticalSpeed: 1) - 5e-4) < 1e-15)
        #expect(abs(p.columnNoiseDensity(atVerticalSpeed: -50) - 50 * 5e-4) < 1e-15)
        #expect(p.columnNoiseDensity(atVerticalSpeed: 0) == 0)
        #expect(p.columnNoiseDensity(atVerticalSpeed: .nan) == 0)
        #expect(p.columnNoiseDensity(atVerticalSpeed: .infinity) == 0)
        p.columnLapseRateStandardDeviation = 0
        #expect(p.columnNoiseDensity(atVerticalSpeed: 5) == 0)
        p = AltitudeModelParameters()
        p.estimatesColumnTemperature = false
        #expect(p.columnNoiseDensity(atVerticalSpeed: 5) == 0)
        #expect(AltitudeModelParameters.plain.columnNoiseDensity(atVerticalSpeed: 5) == 0)
    }

    /// GIVEN a still device, a lift at 2 m/s and a barometer that stops, WHEN the default filter fuses them, THEN the
    /// column's noise density in effect is about zero at rest (the alternating pressures leave a smoothed speed of
    /// millimetres a second), q_Γ × 2 m/s in the lift, and zero once no pressure has vouched for the motion.
    @Test("The filter's column noise follows the barometer's vertical speed, and stops without a recent pressure")
    func filterColumnDensity() throws {
        let d = AltitudeModelParameters()
        func density(_ readings: [AltitudeReading]) throws -> Double {
            var filter = try AltitudeFilter(parameters: d)
            for r in readings { _ = try filter.process(r) }
            return try #require(filter.engine).model.columnHeightNoiseDensity
        }
        let still = try density(Self.readings(speed: 0, until: 120))
        #expect(still < 0.01 * d.columnNoiseDensity(atVerticalSpeed: 1), "still: \(still) K²/s")
        let lift = try density(Self.readings(speed: 2, until: 120))
        let expected = d.columnNoiseDensity(atVerticalSpeed: 2)
        #expect(abs(lift - expected) <= 0.05 * expected, "lift: \(lift) K²/s against \(expected)")
        #expect(try density(Self.readings(speed: 2, until: 120, barometerUntil: 60)) == 0)
    }
}
