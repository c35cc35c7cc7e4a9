import Simulation
import Testing

@Suite("BuildingVisit")
struct BuildingVisitTests {
    @Test(
        "The seed's visit: 1,662 s, about 3.85 m of drift, true floor -1, naive floor wrong",
        arguments: [9, 1, 2, 3] as [UInt64])
    func seedVisit(seed: UInt64) throws {
        let visit = BuildingVisit.simulate(seed: seed)
        #expect(visit.duration == 1_662)
        // 0.4617 hPa of weather at 8.33 m/hPa is 3.85 m; the last sample's noise adds at most ~0.4 m (4 sigma).
        #expect(abs(visit.finalDrift - 3.85) < 0.45, "seed \(seed): drift \(visit.finalDrift)")
        let trueFloor = Int(((try #require(visit.trueHeight.last)) / 3).rounded())
        let naiveFloor = Int(((try #require(visit.relativeAltitude.last)) / 3).rounded())
        #expect(trueFloor == -1)
        #expect(naiveFloor != trueFloor, "seed \(seed)")
        #expect(visit.floorChanges == [.init(time: 120, floors: 3), .init(time: 1_356, floors: -4)])
    }

    @Test("A seed fixes the visit")
    func reproducible() {
        #expect(BuildingVisit.simulate(seed: 5) == BuildingVisit.simulate(seed: 5))
        #expect(BuildingVisit.simulate(seed: 5) != BuildingVisit.simulate(seed: 6))
    }
}
