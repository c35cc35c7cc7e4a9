import Altimetry
import Simulation
import Testing

@Suite("Floor uncertainty")
struct FloorUncertaintyTests {
    typealias Leg = BuildingVisit.Leg

    @Test(
        "An hour still under weather of ±3 hPa/h never raises the flag; the residual stays under half the threshold",
        arguments: [-3.0, 3.0])
    func weatherAloneHour(trend: Double) throws {
        var largest = 0.0
        for seed in UInt64(1)...100 {
            // GIVEN an hour standing still while the weather moves 3 hPa (25 m of apparent height)
            let visit = BuildingVisit.simulate(
                seed: seed, plan: [Leg(seconds: 3_600, verticalSpeed: 0)], weatherTrend: trend)
            var counter = try StreamingFloorCounter()
            for (index, altitude) in visit.relativeAltitude.enumerated() {
                try counter.consume(time: Double(index), relativeAltitude: altitude)
                if let residual = counter.stillResidual { largest = max(largest, abs(residual)) }
            }
            // THEN no flag and no move
            #expect(counter.confidence == .confident, "seed \(seed)")
            #expect(counter.transitions.isEmpty, "seed \(seed)")
        }
        // The residual's error is the weather rate's (about 0.0001 m/s, see FloorStreamingTests) times the
        // hour, plus two block levels' noise: 0.75 m, half the 1.5 m threshold, leaves a wide margin.
        print("floors: one hour still at \(trend) hPa/h, 100 seeds: largest still residual \(largest) m")
        #expect(largest < 0.75, "largest residual \(largest) m")
    }

    @Test("The flag clears on the next confident transition", arguments: UInt64(1)...20)
    func clearsOnConfidentTransition(seed: UInt64) throws {
        // GIVEN a floor climbed too slowly to count, then, after the flag, the lift down 4 floors
        let plan =
            FloorScenario.missedMovePlan(speed: 0.05) + [
                Leg(seconds: 6, verticalSpeed: -2), Leg(seconds: 300, verticalSpeed: 0),
            ]
        let visit = BuildingVisit.simulate(seed: seed, plan: plan, weatherTrend: -1)
        // WHEN counted
        let result = try FloorCounter().count(relativeAltitude: visit.relativeAltitude)
        // THEN raised, then cleared at the end of the ride, which is a confident -4
        let kinds = result.events.map { event -> String in
            switch event {
            case .transition(let transition): return "transition \(transition.floors)"
            case .uncertaintyRaised: return "raised"
            case .uncertaintyCleared: return "cleared"
            }
        }
        #expect(kinds == ["transition 3", "raised", "transition -4", "cleared"], "seed \(seed)")
        #expect(result.confidence == .confident)
        #expect(result.transitions.last?.isConfident == true)
    }

    @Test("A move between whole floors is flagged at once as ambiguous", arguments: UInt64(1)...20)
    func ambiguousTransition(seed: UInt64) throws {
        // GIVEN 4.5 m of stairs, a floor and a half
        let plan = [
            Leg(seconds: 120, verticalSpeed: 0), Leg(seconds: 18, verticalSpeed: 0.25),
            Leg(seconds: 120, verticalSpeed: 0),
        ]
        let visit = BuildingVisit.simulate(seed: seed, plan: plan, weatherTrend: 0)
        // WHEN counted
        let result = try FloorCounter().count(relativeAltitude: visit.relativeAltitude)
        // THEN one transition, 1 or 2 floors, not confident; the flag is raised at its end with |residual| near
        // 1.5 m (the noise moves the change by about 0.1 m, so 1.2 m is 3σ below)
        let transition = try #require(result.transitions.first)
        #expect(result.transitions.count == 1)
        #expect(!transition.isConfident)
        let uncertainty = try #require(result.confidence.uncertainty)
        #expect(uncertainty.reason == .ambiguousTransition)
        #expect(uncertainty.time == transition.endTime)
        #expect(abs(uncertainty.residual) > 1.2, "seed \(seed): \(uncertainty.residual)")
    }

    @Test("A door pulse that opens a stretch rounding to zero floors does not restart the ten minutes")
    func pulsesKeepStillness() throws {
        // GIVEN a slow missed floor, then 15 min still with a 0.3 hPa pulse every 100 s
        let visit = BuildingVisit.simulate(seed: 4, plan: FloorScenario.missedMovePlan(speed: 0.05), weatherTrend: -1)
        var pressure = visit.pressure
        for start in stride(from: 560, to: pressure.count - 10, by: 100) {
            for t in start..<(start + 5) { pressure[t] += 0.3 }
        }
        // WHEN counted from the pressures
        let result = try FloorCounter().count(pressure.enumerated().map { FloorSample(time: Double($0), pressure: $1) })
        // THEN the pulses count nothing, and the missed floor is still flagged within ten minutes of the move
        #expect(result.transitions.map(\.floors) == [3])
        let uncertainty = try #require(result.confidence.uncertainty)
        #expect(uncertainty.reason == .unexplainedAltitudeChange)
        #expect(uncertainty.time <= 516 + 600)
    }

    @Test("Known limitation: two 5 s pulses of one sign 17 s apart are counted as a floor")
    func pulsePairLimitation() throws {
        // GIVEN a still recording with two +0.3 hPa pulses (about -2.5 m each), 5 s long, starting 17 s apart
        let visit = BuildingVisit.simulate(seed: 1, plan: [Leg(seconds: 400, verticalSpeed: 0)], weatherTrend: 0)
        var pressure = visit.pressure
        for start in [200, 217] { for t in start..<(start + 5) { pressure[t] += 0.3 } }
        let result = try FloorCounter().count(pressure.enumerated().map { FloorSample(time: Double($0), pressure: $1) })
        // THEN the seed's algorithm counts a floor up: the second pulse keeps the stretch opened by the first
        // moving until it is measured from inside the first pulse (its start) to after the second (its end).
        // Isolated pulses are ignored (FloorSuccessRateTests); this pins the documented trade-off, and a change
        // here means Docs/floors.md needs updating.
        #expect(result.transitions.map(\.floors) == [1])
    }
}
