import Foundation
import Randomness
import Testing

@testable import Simulation

@Suite("AltitudeProfile")
struct AltitudeProfileTests {
    @Test("Segments become knots: stand, stairs, elevator, move")
    func segmentsBecomeKnots() {
        // GIVEN a person at 100 m who stands 60 s, climbs 3 floors of stairs, rides 4 floors down, then walks up 20 m
        let profile = AltitudeProfile(
            startAltitude: 100,
            segments: [
                .stand(seconds: 60), .stairs(floors: 3), .elevator(floors: -4), .move(meters: 20, verticalSpeed: 0.5),
            ])
        // THEN the knots are exact: 9 m at 0.25 m/s is 36 s, 12 m at 2 m/s is 6 s, 20 m at 0.5 m/s is 40 s
        #expect(
            profile.knots == [
                .init(time: 0, altitude: 100), .init(time: 60, altitude: 100), .init(time: 96, altitude: 109),
                .init(time: 102, altitude: 97), .init(time: 142, altitude: 117),
            ])
        #expect(profile.duration == 142)
        #expect(profile.minimumAltitude == 97 && profile.maximumAltitude == 117)
    }

    @Test("Sampling interpolates linearly and holds the ends")
    func sampling() {
        let profile = AltitudeProfile(
            startAltitude: 0, segments: [.move(meters: 10, verticalSpeed: 1), .stand(seconds: 5)])
        #expect(profile.altitude(at: -3) == 0)
        #expect(profile.altitude(at: 0) == 0)
        #expect(profile.altitude(at: 2.5) == 2.5)
        #expect(profile.altitude(at: 10) == 10)
        #expect(profile.altitude(at: 12) == 10)
        #expect(profile.altitude(at: 1_000) == 10)
    }

    @Test("The seed's building visit: 1,662 s, up 9 m at 120 s, down 12 m at 1,356 s, ends in the basement at -3 m")
    func buildingVisit() {
        let profile = AltitudeProfile(startAltitude: 0, segments: [.buildingVisit(plan: BuildingVisit.seedPlan)])
        #expect(profile.duration == 1_662)
        #expect(profile.altitude(at: 120) == 0)
        #expect(profile.altitude(at: 156) == 9)
        #expect(profile.altitude(at: 1_356) == 9)
        #expect(profile.altitude(at: 1_362) == -3)
        #expect(profile.altitude(at: 1_662) == -3)
    }

    @Test("A cursor over non-decreasing times agrees with direct sampling", arguments: [1, 2, 3] as [UInt64])
    func cursorAgrees(seed: UInt64) {
        let plan = HikePlan(
            climb: 700, ascentSpeed: 0.2, descentSpeed: 0.3, restInterval: 250, restDuration: 120, summitRest: 300)
        let profile = AltitudeProfile(startAltitude: 500, segments: [.hike(plan), .stairs(floors: 2)])
        var random = SeededGenerator(seed: seed)
        var cursor = AltitudeProfile.Cursor(profile)
        var t = -5.0
        while t < profile.duration + 100 {
            #expect(cursor.altitude(at: t) == profile.altitude(at: t), "seed \(seed), t \(t)")
            // One step in ten is zero: rows of two sensors may share an instant.
            t += random.uniform() < 0.1 ? 0 : 20 * random.uniform()
        }
    }

    @Test("A profile survives a JSON round trip")
    func codable() throws {
        let profile = AltitudeProfile(startAltitude: 10, segments: [.stairs(floors: 2), .stand(seconds: 3)])
        let decoded = try JSONDecoder().decode(AltitudeProfile.self, from: JSONEncoder().encode(profile))
        #expect(decoded == profile)
    }
}
