import Altimetry
import Foundation
import Simulation
import Testing

@Suite("StreamingFloorCounter")
struct FloorStreamingTests {
    @Test(
        "One sample at a time, the streaming counter ends where the batch counter does, over 20 seeds of every scenario",
        arguments: FloorScenario.Kind.allCases)
    func streamingEqualsBatch(kind: FloorScenario.Kind) throws {
        for seed in UInt64(1)...20 {
            let scenario = kind.scenario(seed: seed)
            let batch = try FloorCounter().count(scenario.samples)
            var streaming = try StreamingFloorCounter()
            var events: [FloorCounterEvent] = []
            for sample in scenario.samples {
                switch sample.reading {
                case .relativeAltitude(let altitude):
                    events += try streaming.consume(time: sample.time, relativeAltitude: altitude)
                case .pressure(let pressure): events += try streaming.consume(time: sample.time, pressure: pressure)
                }
            }
            #expect(streaming.transitions == batch.transitions, "\(kind), seed \(seed)")
            #expect(streaming.floor == batch.floor, "\(kind), seed \(seed)")
            #expect(streaming.confidence == batch.confidence, "\(kind), seed \(seed)")
            #expect(events == batch.events, "\(kind), seed \(seed)")
            // Each published transition carries the floor reached, which is the running sum of the moves.
            let sums = batch.transitions.reduce(into: [Int]()) { $0.append(($0.last ?? 0) + $1.floors) }
            #expect(batch.transitions.map(\.floorAfter) == sums, "\(kind), seed \(seed)")
        }
    }

    @Test(
        "Pressures in hPa, in kPa (as Core Motion reports) and in Pa count like relative altitude",
        arguments: UInt64(1)...20)
    func pressureBoundary(seed: UInt64) throws {
        let visit = BuildingVisit.simulate(seed: seed, weatherTrend: -3)
        let fromAltitude = try FloorCounter().count(relativeAltitude: visit.relativeAltitude)
        var hPa = try StreamingFloorCounter()
        var kPa = try StreamingFloorCounter()
        var pascals = try StreamingFloorCounter()
        for (index, pressure) in visit.pressure.enumerated() {
            let t = Double(index)
            try hPa.consume(time: t, pressure: pressure)
            try kPa.consume(time: t, pressure: Measurement(value: pressure / 10, unit: .kilopascals))
            try pascals.consume(
                FloorSample(time: t, pressure: Measurement(value: pressure * 100, unit: .newtonsPerMetersSquared)))
        }
        // The pressure path measures height from the first reading, the simulator from 1,013.25 hPa: a constant
        // offset, so the moves are identical. Unit conversions round in the last bit, so sizes agree to 1e-9 m.
        for counter in [hPa, kPa, pascals] {
            #expect(counter.transitions.map(\.time) == fromAltitude.transitions.map(\.time), "seed \(seed)")
            #expect(counter.transitions.map(\.floors) == fromAltitude.transitions.map(\.floors), "seed \(seed)")
            #expect(zip(counter.transitions, fromAltitude.transitions).allSatisfy { abs($0.change - $1.change) < 1e-9 })
            #expect(counter.floor == fromAltitude.floor)
        }
    }

    @Test("A bad sample is refused with its time and value, and leaves the counter as it was")
    func badSamples() throws {
        var counter = try StreamingFloorCounter()
        try counter.consume(time: 0, relativeAltitude: 0)
        try counter.consume(time: 1, relativeAltitude: 0.1)
        #expect(throws: FloorCountingError.timeNotIncreasing(previous: 1, time: 1)) {
            try counter.consume(time: 1, relativeAltitude: 0)
        }
        #expect(throws: FloorCountingError.timeNotFinite(.infinity)) {
            try counter.consume(time: .infinity, relativeAltitude: 0)
        }
        #expect(throws: FloorCountingError.altitudeNotFinite(.infinity, time: 2)) {
            try counter.consume(time: 2, relativeAltitude: .infinity)
        }
        #expect(throws: FloorCountingError.mixedReadings(time: 2)) { try counter.consume(time: 2, pressure: 1_000) }
        var barometer = try StreamingFloorCounter()
        #expect(throws: FloorCountingError.pressureNotPositive(-5, time: 0)) {
            try barometer.consume(time: 0, pressure: -5)
        }
        try barometer.consume(time: 0, pressure: 1_000)
        #expect(throws: FloorCountingError.mixedReadings(time: 1)) {
            try barometer.consume(time: 1, relativeAltitude: 0)
        }

        // Refused samples change nothing: the seed's visit with junk interleaved counts as the clean visit.
        let visit = BuildingVisit.simulate(seed: 3)
        var clean = try StreamingFloorCounter()
        var dirty = try StreamingFloorCounter()
        for (index, altitude) in visit.relativeAltitude.enumerated() {
            try clean.consume(time: Double(index), relativeAltitude: altitude)
            try dirty.consume(time: Double(index), relativeAltitude: altitude)
            _ = try? dirty.consume(time: Double(index), relativeAltitude: altitude)
            _ = try? dirty.consume(time: Double(index) + 0.5, relativeAltitude: .nan)
        }
        #expect(dirty.transitions == clean.transitions)
        #expect(dirty.confidence == clean.confidence)
    }

    @Test("The weather hook: the fusion's trend replaces the measured one", arguments: UInt64(1)...10)
    func weatherHook(seed: UInt64) throws {
        // GIVEN a visit under weather falling 3 hPa/h
        let visit = BuildingVisit.simulate(seed: seed, weatherTrend: -3)
        let samples = visit.pressure.enumerated().map { FloorSample(time: Double($0), pressure: $1) }
        // WHEN the counter measures the trend, or is told the true one, or is told (wrongly) there is none
        let measured = try FloorCounter().count(samples)
        let told = try FloorCounter().count(samples, weatherTrend: -3)
        let wrong = try FloorCounter().count(samples, weatherTrend: 0)
        // THEN measuring and being told agree: -3 hPa/h at ~1,013 hPa is H/p · 3 / 3,600 = 0.00694 m/s of
        // apparent climb; the measured median is within 0.0005 m/s (about 5σ of a median of ~18 block rates,
        // each with 0.02 m·√2 / 60 s of noise).
        let toldRate = try #require(told.weatherRate)
        #expect(abs(toldRate - 8_434.5 / 1_013.25 * 3 / 3_600) < 1e-5)
        #expect(abs(try #require(measured.weatherRate) - toldRate) < 0.0005, "seed \(seed)")
        #expect(!measured.confidence.isUncertain && !told.confidence.isUncertain)
        // A trend of zero leaves 10 min of 25 m/h unexplained: the still check flags it before the lift down
        // (whose confident transition clears it), so the hook is used.
        let raised = wrong.events.contains { event in
            if case .uncertaintyRaised(let uncertainty) = event {
                return uncertainty.reason == .unexplainedAltitudeChange
            }
            return false
        }
        #expect(raised, "seed \(seed)")
        #expect(wrong.floor == measured.floor)
    }
}
