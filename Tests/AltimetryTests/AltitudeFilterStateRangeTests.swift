import LinearAlgebra
import Testing

@testable import Altimetry

/// The filter's mean held inside the model's range (`AltitudeFilter.holdStateInModelRange`).
@Suite("AltitudeFilter state range")
struct AltitudeFilterStateRangeTests {
    @Test("The hold is the estimate projection: x' = x + P eᵢ (m − xᵢ)/Pᵢᵢ at the bound, P unchanged")
    func projection() throws {
        var filter = try AltitudeFilter()
        for k in 0..<120 {
            let t = Double(k)
            _ = try filter.process(
                AltitudeReading(time: t, pressure: 950 - 0.01 * t, gpsAltitude: k.isMultiple(of: 2) ? 540 : nil))
        }
        let c = try #require(filter.parameters.columnIndex)
        // Put C 60 K below the range's lower end, as a wild update would, and keep its variance.
        let low = (AltitudeModel.columnScaleRange.lowerBound - 1) * StandardAtmosphere.seaLevelTemperature
        try filter.core.replaceMarginal(of: c, mean: low - 60, variance: filter.core.covariance[c, c])
        let x = filter.core.mean, P = filter.core.covariance
        try filter.holdStateInModelRange()
        let held = filter.core.mean
        #expect(abs(held[c, 0] - low) < 1e-9)
        for i in 0..<x.rows where i != c {
            let expected = x[i, 0] + P[i, c] * (low - x[c, 0]) / P[c, c]
            #expect(abs(held[i, 0] - expected) <= 1e-9 * max(1, abs(expected)), "state \(i)")
        }
        #expect(filter.core.covariance.elements == P.elements)
        // Inside the range the hold changes nothing.
        let before = filter.core.mean.elements
        try filter.holdStateInModelRange()
        #expect(filter.core.mean.elements == before)
    }

    @Test(
        "Readings no atmosphere produces (1 km of GPS at 334 hPa and 176 K, then GPS alone) keep k within 0.5 to 1.5, U within range, the altitude near the fixes and P positive definite"
    )
    func impossibleReadings() throws {
        var filter = try AltitudeFilter()
        let c = try #require(filter.parameters.columnIndex)
        let u = AltitudeModel.altitudeIndex
        let T0 = StandardAtmosphere.seaLevelTemperature
        var last: AltitudeEstimate?
        for k in 0..<200 {
            let t = 87.0 * Double(k)
            let reading =
                k < 20
                ? AltitudeReading(time: t, pressure: 334, gpsAltitude: 1_030, temperature: 176)
                : AltitudeReading(time: t, gpsAltitude: 1_080)
            let e = try filter.process(reading)
            let x = filter.core.mean
            let scale = 1 + x[c, 0] / T0
            #expect(AltitudeModel.columnScaleRange.contains(scale), "reading \(k): k = \(scale)")
            #expect(AltitudeModel.logPressureAltitudeRange.contains(x[u, 0]), "reading \(k): U = \(x[u, 0])")
            #expect(e.altitude.isFinite && e.altitudeStandardDeviation.isFinite, "reading \(k): \(e)")
            #expect(throws: Never.self, "reading \(k)") { _ = try filter.core.covariance.choleskyFactor() }
            last = e
        }
        // After 180 fixes of 1,080 m alone, the fused altitude is where they are (its sigma is the GPS's, 10 m).
        let e = try #require(last)
        #expect(abs(e.altitude - 1_080) < 3 * e.altitudeStandardDeviation, "\(e)")
    }
}
