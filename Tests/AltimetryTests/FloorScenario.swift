import Altimetry
import Randomness
import Simulation
import StateEstimation

/// Test support: the building visits the floor-counter tests count, built on `Simulation.BuildingVisit`.
///
/// A scenario is a recording (samples with times) plus what the counter should conclude about it.
struct FloorScenario: Sendable {
    /// The simulated visit the samples come from (1 Hz, before any pulses, thinning or gap).
    var visit: BuildingVisit
    /// The recording the counter sees.
    var samples: [FloorSample]
    /// End of a move too slow to count, in seconds, if the plan has one.
    var missedMoveEnd: Seconds?

    /// The true floor at the end: the true height rounded to 3 m floors.
    var trueFinalFloor: Int { Int(((visit.trueHeight.last ?? 0) / 3).rounded()) }

    // MARK: - Plans

    typealias Leg = BuildingVisit.Leg

    /// The seed's visit with a second, slower lift: up 2 floors at 1 m/s between the stairs and the lift down.
    static let slowerLiftPlan: [Leg] = [
        Leg(seconds: 120, verticalSpeed: 0), Leg(seconds: 36, verticalSpeed: 0.25),
        Leg(seconds: 600, verticalSpeed: 0), Leg(seconds: 6, verticalSpeed: 1),
        Leg(seconds: 600, verticalSpeed: 0), Leg(seconds: 6, verticalSpeed: -2),
        Leg(seconds: 300, verticalSpeed: 0),
    ]

    /// Stairs up 3 floors, then one floor (3 m) at `speed` m/s, under the 0.1 m/s moving rate, then 15 min still.
    static func missedMovePlan(speed: Double) -> [Leg] {
        [
            Leg(seconds: 120, verticalSpeed: 0), Leg(seconds: 36, verticalSpeed: 0.25),
            Leg(seconds: 300, verticalSpeed: 0), Leg(seconds: Int((3 / abs(speed)).rounded()), verticalSpeed: speed),
            Leg(seconds: 900, verticalSpeed: 0),
        ]
    }

    // MARK: - Recordings

    /// The visit's relative altitude at 1 Hz, times 0, 1, 2, … s.
    static func altitudes(seed: UInt64, plan: [Leg] = BuildingVisit.seedPlan, weatherTrend: Double = -1)
        -> FloorScenario
    {
        let visit = BuildingVisit.simulate(seed: seed, plan: plan, weatherTrend: weatherTrend)
        let samples = visit.relativeAltitude.enumerated().map { FloorSample(time: Double($0), relativeAltitude: $1) }
        return FloorScenario(visit: visit, samples: samples, missedMoveEnd: missedMoveEnd(of: plan))
    }

    /// The visit's pressures at 1 Hz with door slams and ventilation: `count` pulses of ±0.3 hPa (about 2.5 m)
    /// lasting 2–5 s, at random still times at least 30 s from any move and the start, and 60 s from each other.
    ///
    /// Isolated pulses are the seed's case. A pulse on top of a move changes the move's measured size, and two
    /// pulses of one sign about the rate lag apart look like a step; both are limitations, tested apart.
    static func pulses(
        seed: UInt64, count: Int = 15, plan: [Leg] = BuildingVisit.seedPlan,
        weatherTrend: Double = -1
    ) -> FloorScenario {
        let visit = BuildingVisit.simulate(seed: seed, plan: plan, weatherTrend: weatherTrend)
        var random = SeededGenerator(seed: seed &+ 0x9E37_79B9)
        var pressure = visit.pressure
        let quiet = quietTimes(plan: plan, margin: 30)
        var starts: [Int] = []
        var attempts = 0
        while starts.count < count, !quiet.isEmpty, attempts < 10_000 {
            attempts += 1
            let start = quiet[Int(random.uniform() * Double(quiet.count)) % quiet.count]
            guard starts.allSatisfy({ abs($0 - start) >= 60 }) else { continue }
            starts.append(start)
            let duration = 2 + Int(random.uniform() * 4) % 4
            let amplitude = random.uniform() < 0.5 ? 0.3 : -0.3
            for t in start..<min(start + duration, pressure.count) { pressure[t] += amplitude }
        }
        let samples = pressure.enumerated().map { FloorSample(time: Double($0), pressure: $1) }
        return FloorScenario(visit: visit, samples: samples, missedMoveEnd: missedMoveEnd(of: plan))
    }

    /// Keeps a random subset of the 1 Hz samples, 1 to 3 s apart (irregular sampling, exact times).
    func thinned(seed: UInt64) -> FloorScenario {
        var random = SeededGenerator(seed: seed &+ 0x5851_F42D)
        var kept: [FloorSample] = []
        var index = 0
        while index < samples.count {
            kept.append(samples[index])
            index += 1 + Int(random.uniform() * 3) % 3
        }
        var copy = self
        copy.samples = kept
        return copy
    }

    /// Removes the samples with times in [start, start + seconds).
    func gap(from start: Seconds, seconds: Seconds = 60) -> FloorScenario {
        var copy = self
        copy.samples = samples.filter { $0.time < start || $0.time >= start + seconds }
        return copy
    }

    /// Start times, in whole seconds, of still legs at least `margin` seconds from any move and from the first
    /// sample (the counter's reference level: a pulse there offsets every later reading).
    private static func quietTimes(plan: [Leg], margin: Int) -> [Int] {
        var moves: [ClosedRange<Int>] = [0...0]
        var t = 0
        for leg in plan {
            if leg.verticalSpeed != 0 { moves.append(t...(t + leg.seconds)) }
            t += leg.seconds
        }
        return (0..<t).filter { time in
            moves.allSatisfy { time < $0.lowerBound - margin || time > $0.upperBound + margin }
        }
    }

    /// End, in seconds, of the first leg slower than the counter's 0.1 m/s moving rate.
    private static func missedMoveEnd(of plan: [Leg]) -> Seconds? {
        var t = 0
        for leg in plan {
            t += leg.seconds
            if leg.verticalSpeed != 0, abs(leg.verticalSpeed) < 0.1 { return Double(t) }
        }
        return nil
    }
}

extension FloorScenario {
    /// The scenarios the success-rate tests sweep, each over 200 seeds.
    enum Kind: String, CaseIterable, Sendable, CustomStringConvertible {
        /// The seed's visit, weather falling 1 hPa/h.
        case seedVisit = "seed visit, 1 hPa/h"
        /// The seed's visit, weather falling 3 hPa/h (an apparent climb of 25 m/h).
        case weatherFalling = "seed visit, -3 hPa/h"
        /// The seed's visit, weather rising 3 hPa/h (an apparent descent).
        case weatherRising = "seed visit, +3 hPa/h"
        /// A second, slower lift, 2 floors up at 1 m/s, weather -3 hPa/h.
        case slowerLift = "slower lift at 1 m/s, -3 hPa/h"
        /// One floor up at 0.05 m/s, half the moving rate, weather -3 hPa/h.
        case missedSlowLiftUp = "missed: 1 floor up at 0.05 m/s, -3 hPa/h"
        /// One floor down at 0.05 m/s, weather -3 hPa/h.
        case missedSlowLiftDown = "missed: 1 floor down at 0.05 m/s, -3 hPa/h"
        /// One floor up a walkway at 0.02 m/s (150 s), weather -3 hPa/h.
        case missedWalkway = "missed: 1 floor up a 0.02 m/s walkway, -3 hPa/h"
        /// The seed's visit with 15 door and ventilation pulses of ±0.3 hPa, weather -3 hPa/h.
        case doorSlams = "15 pulses of 0.3 hPa, -3 hPa/h"
        /// The seed's visit sampled irregularly, 1 to 3 s apart, weather -3 hPa/h.
        case irregularSampling = "irregular sampling 1-3 s, -3 hPa/h"
        /// The seed's visit with a one-minute gap while working, weather -3 hPa/h.
        case gapWhileStill = "60 s gap while still, -3 hPa/h"
        /// The seed's visit with a one-minute gap over the whole lift ride, weather -3 hPa/h.
        case gapOverLift = "60 s gap over the lift ride, -3 hPa/h"

        var description: String { rawValue }

        /// Whether the scenario hides a move the counter cannot count (it should flag the floor instead).
        var hasMissedMove: Bool {
            switch self {
            case .missedSlowLiftUp, .missedSlowLiftDown, .missedWalkway: return true
            default: return false
            }
        }

        /// The recording for one seed.
        func scenario(seed: UInt64) -> FloorScenario {
            switch self {
            case .seedVisit: return .altitudes(seed: seed)
            case .weatherFalling: return .altitudes(seed: seed, weatherTrend: -3)
            case .weatherRising: return .altitudes(seed: seed, weatherTrend: 3)
            case .slowerLift: return .altitudes(seed: seed, plan: FloorScenario.slowerLiftPlan, weatherTrend: -3)
            case .missedSlowLiftUp:
                return .altitudes(seed: seed, plan: FloorScenario.missedMovePlan(speed: 0.05), weatherTrend: -3)
            case .missedSlowLiftDown:
                return .altitudes(seed: seed, plan: FloorScenario.missedMovePlan(speed: -0.05), weatherTrend: -3)
            case .missedWalkway:
                return .altitudes(seed: seed, plan: FloorScenario.missedMovePlan(speed: 0.02), weatherTrend: -3)
            case .doorSlams: return .pulses(seed: seed, weatherTrend: -3)
            case .irregularSampling: return FloorScenario.altitudes(seed: seed, weatherTrend: -3).thinned(seed: seed)
            case .gapWhileStill: return FloorScenario.altitudes(seed: seed, weatherTrend: -3).gap(from: 600)
            case .gapOverLift: return FloorScenario.altitudes(seed: seed, weatherTrend: -3).gap(from: 1_330)
            }
        }
    }
}
