import Altimetry
import Foundation
import Testing

@Suite("Impossible altitudes")
struct ImpossibleAltitudesTests {
    static let times = (0..<600).map(Double.init)

    @Test("GIVEN a climb with spikes kilometres off WHEN gated THEN only the spikes go")
    func spikes() {
        var altitudes = Self.times.map { 500 + 0.2 * $0 }
        for k in [0, 100, 101, 400] { altitudes[k] += 12_000 }
        let kept = ImpossibleAltitudes.kept(times: Self.times, altitudes: altitudes)
        #expect(Set(Self.times.indices).subtracting(kept) == [0, 100, 101, 400])
    }

    @Test("A skydive's freefall (60 m/s) and a phone's GPS scatter (±30 m) are kept whole")
    func fastButPossible() {
        let fall = Self.times.map { 4_000 - 60 * min($0, 60) }
        #expect(ImpossibleAltitudes.kept(times: Self.times, altitudes: fall).count == 600)
        let scatter = Self.times.map { 500 + 30 * sin($0 * 2.1) }
        #expect(ImpossibleAltitudes.kept(times: Self.times, altitudes: scatter).count == 600)
    }

    @Test("A level the series stays at for a minute is a real change: kept from its start")
    func settledStep() {
        let altitudes = Self.times.map { $0 < 300 ? 500.0 : 3_500.0 }
        let kept = ImpossibleAltitudes.kept(times: Self.times, altitudes: altitudes)
        #expect(kept == Array(0..<600))
    }

    @Test("Readings lose only the impossible value; a reading left with nothing is dropped")
    func readings() {
        var readings: [AltitudeReading] = []
        for k in 0..<100 {
            let pressure: Double = k == 50 ? 500 : 1_000
            let fix: Double? = k == 70 ? 9_000 : (k % 10 == 0 ? 110 : nil)
            readings.append(AltitudeReading(time: Double(k), pressure: pressure, gpsAltitude: fix))
        }
        let (gated, removed) = ImpossibleAltitudes.gated(readings)
        #expect(removed == 2)
        #expect(gated.count == 100)
        #expect(gated[50].pressure == nil && gated[70].gpsAltitude == nil && gated[70].pressure == 1_000)
    }
}
