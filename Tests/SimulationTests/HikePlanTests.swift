import Testing

@testable import Simulation

@Suite("HikePlan")
struct HikePlanTests {
    @Test(
        "Up with rests, summit rest, down with rests; total time follows the closed form",
        arguments: [(1_600.0, 400.0), (300.0, 150.0), (400.0, 300.0), (250.0, 1_000.0)])
    func segments(climb: Double, interval: Double) {
        let plan = HikePlan(
            climb: climb, ascentSpeed: 0.15, descentSpeed: 0.25, restInterval: interval,
            restDuration: 600, summitRest: 900)
        let profile = AltitudeProfile(startAltitude: 800, segments: [.hike(plan)])
        let legs = (climb / interval).rounded(.up)
        let expected = climb / 0.15 + climb / 0.25 + 900 + 2 * (legs - 1) * 600
        #expect(abs(profile.duration - expected) < 1e-6, "climb \(climb), interval \(interval)")
        #expect(abs(profile.maximumAltitude - (800 + climb)) < 1e-9)
        #expect(abs(profile.altitude(at: profile.duration) - 800) < 1e-9)
        // Rests: 2 (legs − 1) on the way plus the summit; each is a pair of knots at the same altitude.
        let stands = plan.segments.filter { if case .stand = $0 { return true } else { return false } }
        #expect(stands.count == 2 * Int(legs - 1) + 1)
    }
}
