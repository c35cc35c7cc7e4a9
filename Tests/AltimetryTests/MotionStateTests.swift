import Randomness
import Testing

@testable import Altimetry

@Suite("MotionState")
struct MotionStateTests {
    /// Feeds `seconds` of 1 Hz readings of a device climbing at `speed` m/s with noise `sigma` m, returning the state.
    static func run(speed: Double, sigma: Double, seconds: Int, seed: UInt64 = 1) -> MotionState {
        var generator = SeededGenerator(seed: seed)
        var state = MotionState()
        for k in 0...seconds {
            // z = B − U falls as U rises.
            let z = -speed * Double(k) + sigma * generator.gaussian()
            state.observe(time: Double(k), measurement: z, noiseVariance: sigma * sigma, velocityTime: 10)
        }
        return state
    }

    @Test("A barometer at rest settles within the settle time and stays at rest", arguments: [0.1, 0.37])
    func settles(sigma: Double) {
        // Before the settle time the device is not yet at rest; after, it is (four-sigma threshold: no false moves
        // over a few hundred independent windows, here checked for 3 seeds).
        #expect(!Self.run(speed: 0, sigma: sigma, seconds: 300).isAtRest)
        for seed in 1...3 as ClosedRange<UInt64> {
            #expect(Self.run(speed: 0, sigma: sigma, seconds: 3_600, seed: seed).isAtRest, "seed \(seed)")
        }
    }

    @Test("A walker's climb of 0.1 m/s is motion, and its velocity is measured")
    func climbMoves() {
        let state = Self.run(speed: 0.1, sigma: 0.1, seconds: 1_800)
        #expect(!state.isAtRest)
        #expect(abs(state.velocity - 0.1) < 0.05, "v \(state.velocity)")
        #expect(abs(state.restRate - 0.1) < 0.02, "r \(state.restRate)")
    }

    /// The rest threshold is 4 σ/W + v_w and the rest density (v_rest/4)² W, W = max(60 s, 4 Δt).
    @Test("The rest threshold and density follow the barometer's noise and interval")
    func restThreshold() {
        let (speed, density) = MotionState.restThreshold(noiseVariance: 0.37 * 0.37, interval: 1)
        #expect(abs(speed - (4 * 0.37 / 60 + MotionState.weatherRate)) < 1e-12)
        #expect(abs(density - (speed / 4) * (speed / 4) * 60) < 1e-15)
        let slow = MotionState.restThreshold(noiseVariance: 0.37 * 0.37, interval: 30)
        #expect(abs(slow.speed - (4 * 0.37 / 120 + MotionState.weatherRate)) < 1e-12)
    }

    @Test("A restart forgets the readings: no velocity, not at rest")
    func restart() {
        var state = Self.run(speed: 0, sigma: 0.1, seconds: 3_600)
        state.restart()
        #expect(!state.isAtRest && state.velocity == 0 && state.last == nil)
    }

    /// GIVEN one pressure THEN the velocity (zero, as nothing has been measured) vouches for no motion, so the filter
    /// walks the altitude at the full q_h, not the rest density of a zero velocity; GIVEN a second pressure 2 s later
    /// THEN it does, until T_v has passed.
    @Test("A single pressure vouches for no motion; two do, for T_v")
    func velocityNeedsTwoPressures() {
        var state = MotionState()
        state.observe(time: 0, measurement: -500, noiseVariance: 0.01, velocityTime: 10)
        #expect(!state.velocityHolds(at: 2, velocityTime: 10))
        state.observe(time: 2, measurement: -500.2, noiseVariance: 0.01, velocityTime: 10)
        #expect(state.velocityHolds(at: 3, velocityTime: 10))
        #expect(!state.velocityHolds(at: 13, velocityTime: 10))
    }
}
