import Altimetry
import StateEstimation

/// The true altitude of the person against time: piecewise linear through a list of knots.
///
/// Built from `ProfileSegment`s starting at t = 0 s; between knots the altitude is interpolated linearly,
/// before the first knot it is the start altitude and after the last it holds the final altitude (the
/// person stands still once the plan is done), so it can be sampled at any time.
public struct AltitudeProfile: Sendable, Equatable, Codable {
    /// A corner of the profile: a time in seconds since the start and the altitude there, in metres.
    public struct Knot: Sendable, Equatable, Codable {
        /// Seconds since the start of the scenario.
        public var time: Seconds
        /// Altitude above mean sea level, in metres.
        public var altitude: Meters

        /// A knot at `time` (seconds) and `altitude` (metres above mean sea level).
        ///
        /// - Parameters:
        ///   - time: seconds since the start of the scenario.
        ///   - altitude: metres above mean sea level.
        public init(time: Seconds, altitude: Meters) {
            self.time = time
            self.altitude = altitude
        }
    }

    /// The knots, with strictly increasing times, the first at t = 0.
    public private(set) var knots: [Knot]

    /// A profile from a start altitude and a plan.
    ///
    /// - Parameters:
    ///   - startAltitude: altitude at t = 0, in metres above mean sea level.
    ///   - segments: what happens, in order.
    /// - Precondition: every speed and duration in the segments is positive (or a duration zero): they are
    ///   written in code, not read from outside.
    public init(startAltitude: Meters, segments: [ProfileSegment] = []) {
        var builder = Builder(altitude: startAltitude)
        for segment in segments { builder.append(segment) }
        knots = builder.knots
    }

    /// A profile from explicit knots.
    ///
    /// - Precondition: at least one knot, the first at t = 0, times strictly increasing.
    public init(knots: [Knot]) {
        precondition(knots.first?.time == 0, "A profile starts with a knot at t = 0")
        precondition(zip(knots, knots.dropFirst()).allSatisfy { $0.time < $1.time }, "Knot times must increase")
        self.knots = knots
    }

    /// Time of the last knot, in seconds: when the plan ends.
    public var duration: Seconds { knots[knots.count - 1].time }

    /// Lowest altitude reached, in metres.
    public var minimumAltitude: Meters { knots.map(\.altitude).min() ?? 0 }

    /// Highest altitude reached, in metres.
    public var maximumAltitude: Meters { knots.map(\.altitude).max() ?? 0 }

    /// The altitude at a time, in metres, by linear interpolation between knots.
    ///
    /// - Parameter time: seconds since the start of the scenario; before the first knot or after the last, the nearest
    ///   knot's altitude.
    /// - Complexity: O(log k) for k knots.
    public func altitude(at time: Seconds) -> Meters {
        // Index of the first knot strictly after `time`.
        var low = 0, high = knots.count
        while low < high {
            let middle = (low + high) / 2
            if knots[middle].time <= time { low = middle + 1 } else { high = middle }
        }
        return interpolate(after: low, at: time)
    }

    /// Linear interpolation on the piece ending at knot `next` (the first knot after `time`).
    func interpolate(after next: Int, at time: Seconds) -> Meters {
        if next == 0 { return knots[0].altitude }
        if next >= knots.count { return knots[knots.count - 1].altitude }
        let a = knots[next - 1], b = knots[next]
        return a.altitude + (b.altitude - a.altitude) * (time - a.time) / (b.time - a.time)
    }

    /// Samples the profile at non-decreasing times in O(1) amortised per sample.
    struct Cursor {
        let profile: AltitudeProfile
        /// Index of the first knot strictly after the last time asked.
        var next = 0

        init(_ profile: AltitudeProfile) { self.profile = profile }

        mutating func altitude(at time: Seconds) -> Meters {
            let knots = profile.knots
            while next < knots.count, knots[next].time <= time { next += 1 }
            return profile.interpolate(after: next, at: time)
        }
    }

    private struct Builder {
        var knots: [Knot]
        var time: Seconds = 0
        var altitude: Meters

        init(altitude: Meters) {
            self.altitude = altitude
            knots = [Knot(time: 0, altitude: altitude)]
        }

        mutating func append(_ segment: ProfileSegment) {
            switch segment {
            case .stand(let seconds):
                hold(seconds)
            case .move(let meters, let speed):
                move(by: meters, speed: speed)
            case .stairs(let floors, let floorHeight, let speed), .elevator(let floors, let floorHeight, let speed):
                move(by: Double(floors) * floorHeight, speed: speed)
            case .buildingVisit(let plan):
                for leg in plan {
                    precondition(leg.seconds >= 0, "A leg lasts a non-negative number of seconds, got \(leg.seconds)")
                    if leg.verticalSpeed == 0 {
                        hold(Double(leg.seconds))
                    } else {
                        move(by: Double(leg.seconds) * leg.verticalSpeed, speed: abs(leg.verticalSpeed))
                    }
                }
            case .hike(let plan):
                for piece in plan.segments { append(piece) }
            }
        }

        mutating func hold(_ seconds: Seconds) {
            precondition(seconds.isFinite && seconds >= 0, "A stand lasts a non-negative time, got \(seconds)")
            guard seconds > 0 else { return }
            time += seconds
            knots.append(Knot(time: time, altitude: altitude))
        }

        mutating func move(by meters: Meters, speed: Double) {
            precondition(speed.isFinite && speed > 0, "A vertical speed must be positive, got \(speed)")
            precondition(meters.isFinite, "A height change must be finite")
            guard meters != 0 else { return }
            time += abs(meters) / speed
            altitude += meters
            knots.append(Knot(time: time, altitude: altitude))
        }
    }
}
