import Testing

@testable import Simulation

@Suite("SensorFault")
struct SensorFaultTests {
    @Test("Faults act where and when they should, and the rest of the recording is unchanged")
    func faultsAct() throws {
        let plain = try Scenario.stress(.barometerStep, seed: 3)
        var clean = plain
        clean.barometer.faults = []
        let a = try plain.simulate(), b = try clean.simulate()
        #expect(a.readings.count == b.readings.count)
        for (x, y) in zip(a.readings, b.readings) {
            #expect(x.gpsAltitude == y.gpsAltitude)
            if let p = x.pressure, let q = y.pressure { #expect(abs(p - q - (x.time >= 1_800 ? 30 : 0)) < 1e-9) }
        }
        let stuck = try Scenario.stress(.barometerStuck, seed: 3).simulate()
        let during = stuck.readings.filter { $0.time >= 600 && $0.time < 4_200 }.compactMap(\.pressure)
        #expect(Set(during).count == 1 && during.count > 3_000)
        let jump = try Scenario.stress(.gpsJump, seed: 3).simulate()
        for (r, t) in zip(jump.readings, jump.truth) {
            if let g = r.gpsAltitude, let e = t.gpsError { #expect(abs(g - r.trueAltitude - e) < 1e-9) }
            if r.time >= 1_800, let e = t.gpsError { #expect(e > 200, "the jump is in the fix's whole error") }
        }
    }

    @Test("A cold start is off by its offset, then fades", arguments: [1, 2, 3] as [UInt64])
    func coldStart(seed: UInt64) throws {
        let scenario = Scenario.stress(.coldStart, seed: seed)
        guard case .coldStart(let offset, _, _)? = scenario.gps.faults.first else {
            Issue.record("no cold start")
            return
        }
        #expect((50...300).contains(abs(offset)))
        let recording = try scenario.simulate()
        let early = recording.readings.filter { $0.time < 60 }.compactMap { r in
            r.gpsAltitude.map { $0 - r.trueAltitude }
        }
        let late = recording.readings.filter { $0.time > 300 }.compactMap { r in
            r.gpsAltitude.map { $0 - r.trueAltitude }
        }
        #expect(abs(early.reduce(0, +) / Double(early.count) - offset) < 25)
        #expect(abs(late.reduce(0, +) / Double(late.count)) < 25)
    }
}
