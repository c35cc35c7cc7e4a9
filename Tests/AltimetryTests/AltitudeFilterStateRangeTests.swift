import LinearAlgebra
import Testing

@testable import Altimetry

/// The filter's mean held inside the model's range (`AltitudeFilter.holdStateInModelRange`).
@Suite("AltitudeFilter state range")
struct AltitudeFilterStateRangeTests {
    /// The default filter after two minutes near 540 m (a pressure a second, a fix every other second).
    static func settledFilter() throws -> AltitudeFilter {
        var filter = try AltitudeFilter()
        for k in 0..<120 {
            let t = Double(k)
            _ = try filter.process(
                AltitudeReading(time: t, pressure: 950 - 0.01 * t, gpsAltitude: k.isMultiple(of: 2) ? 540 : nil))
        }
        return filter
    }

    @Test("The hold is the estimate projection: x' = x + P eᵢ (m − xᵢ)/Pᵢᵢ at the bound, P unchanged")
    func projection() throws {
        var filter = try Self.settledFilter()
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

    @Test(
        "A barometer update that carries U out of the range is held before the fix is linearised: the fix's innovation variance stays a fix's and P positive definite"
    )
    func heldBeforeLinearisation() throws {
        // Without the fault monitor, which would take a 700 hPa jump for a step.
        var parameters = AltitudeModelParameters()
        parameters.detectsFaults = false
        var filter = try AltitudeFilter(parameters: parameters)
        _ = try filter.process(AltitudeReading(time: 0, pressure: 1_000, gpsAltitude: 110))
        let c = try #require(parameters.columnIndex)
        let n = parameters.stateCount
        // GIVEN a prior that knows B − U to 10 m but U to 3 km, B moving 0.1 % more than U along their common
        // direction, C at its lower bound.
        // P = L Lᵀ with U = 2,929 ξ₁, B = 2,932 ξ₁ + 9.4 ξ₂, Ḃ = 0.1 ξ₃, C = 0.07 ξ₄, e = 10 ξ₅.
        var L = Matrix(rows: n, columns: n)
        L[AltitudeModel.altitudeIndex, 0] = 2_929
        L[AltitudeModel.weatherIndex, 0] = 2_932
        L[AltitudeModel.weatherIndex, 1] = 9.4
        L[AltitudeModel.tendencyIndex, 2] = 0.1
        L[c, 3] = 0.07
        L[parameters.gpsErrorIndex, 4] = 10
        var P = Matrix(rows: n, columns: n)
        for i in 0..<n { for j in 0..<n { for k in 0..<n { P[i, j] += L[i, k] * L[j, k] } } }
        var mean = [Double](repeating: 0, count: n)
        mean[AltitudeModel.altitudeIndex] = 17_480
        mean[AltitudeModel.weatherIndex] = 18_141
        mean[c] = (AltitudeModel.columnScaleRange.lowerBound - 1) * StandardAtmosphere.seaLevelTemperature
        try filter.core.reset(mean: mean, covariance: P)
        // WHEN a pressure 11 km of log-pressure from the prior's B − U arrives beside a fix: the barometer's update
        // alone, (P_UB − P_UU) y/S, moves U dozens of times as far, hundreds of kilometres below the range.
        let e = try filter.process(AltitudeReading(time: 0.771, pressure: 309.4, gpsAltitude: -451.4))
        // THEN the fix was linearised inside the range (linearised where the barometer left U, its innovation
        // variance was 10¹⁸ m²).
        let record = try #require(e.gpsUpdate)
        #expect(record.innovationVariance < 1e9, "\(record)")
        #expect(AltitudeModel.logPressureAltitudeRange.contains(filter.core.mean[AltitudeModel.altitudeIndex, 0]))
        #expect(throws: Never.self) { _ = try filter.core.covariance.choleskyFactor() }
        #expect(e.altitude.isFinite && e.seaLevelPressureStandardDeviation.isFinite, "\(e)")
    }

    @Test(
        "The tendency is held at its bound with U and C kept, by the projection whose step P⁻¹ (x' − x) lies along Ḃ, U and C alone; P unchanged"
    )
    func tendencyHeldKeepingAltitudeAndColumn() throws {
        var filter = try Self.settledFilter()
        let c = try #require(filter.parameters.columnIndex)
        let u = AltitudeModel.altitudeIndex, t = AltitudeModel.tendencyIndex
        let bound = AltitudeModel.tendencyRange.upperBound
        // GIVEN a tendency ten times the range's upper end, as a wild update would leave it, its variance kept.
        try filter.core.replaceMarginal(of: t, mean: 10 * bound, variance: filter.core.covariance[t, t])
        let x = filter.core.mean, P = filter.core.covariance
        // WHEN the state is held.
        try filter.holdStateInModelRange()
        // THEN Ḃ is at the bound, U and C where they were, P unchanged.
        let held = filter.core.mean
        #expect(held[t, 0] == bound)
        #expect(held[u, 0] == x[u, 0] && held[c, 0] == x[c, 0])
        #expect(filter.core.covariance.elements == P.elements)
        // The projection's optimality: the step is P E λ, so P⁻¹ (x' − x) vanishes off the constrained states.
        var step = Matrix(rows: x.rows, columns: 1)
        for r in 0..<x.rows { step[r, 0] = held[r, 0] - x[r, 0] }
        try P.choleskyFactor().solveWithCholeskyFactor(&step)
        let scale = (0..<x.rows).map { abs(step[$0, 0]) }.max() ?? 0
        for r in 0..<x.rows where ![t, u, c].contains(r) {
            #expect(abs(step[r, 0]) <= 1e-6 * scale, "state \(r): \(step[r, 0])")
        }
        #expect(held[AltitudeModel.weatherIndex, 0] != x[AltitudeModel.weatherIndex, 0], "B moves with Ḃ")
    }
}
