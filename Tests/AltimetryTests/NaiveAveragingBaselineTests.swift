import Altimetry
import Testing

@Suite("NaiveAveragingBaseline")
struct NaiveAveragingBaselineTests {
    @Test("The cumulative average is the mean GPS offset over the barometric altitude, with sigma over root N")
    func cumulative() throws {
        var naive = NaiveAveragingBaseline(gpsStandardDeviation: 10)
        let p = 1_000.0
        let base = NaiveAveragingBaseline.pressureAltitude(p)
        var last: NaiveAveragingBaseline.Estimate?
        for (t, z) in [100.0, 104, 96, 108].enumerated() {
            last = naive.update(time: Double(t), pressure: p, gpsAltitude: z)
        }
        let e = try #require(last)
        #expect(abs(try #require(e.altitudeMeters) - 102) < 1e-9)
        #expect(abs(try #require(e.reportedStandardDeviation) - 5) < 1e-12)
        #expect(abs(base - 110.88) < 0.01)
    }

    @Test("The windowed average forgets fixes older than the window")
    func windowed() throws {
        var naive = NaiveAveragingBaseline(window: 10, gpsStandardDeviation: 10)
        for t in 0..<20 { _ = naive.update(time: Double(t), pressure: 1_000, gpsAltitude: t < 10 ? 0 : 50) }
        let e = naive.update(time: 20, pressure: 1_000, gpsAltitude: 50)
        #expect(e.fixCount == 11)
        #expect(abs(try #require(e.altitudeMeters) - 50) < 1e-9)
    }
}
