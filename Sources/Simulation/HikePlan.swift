import Altimetry
import StateEstimation

/// A hike up to a summit and back down to the start, with rests.
///
/// The ascent climbs `climb` metres at `ascentSpeed`, pausing `restDuration` seconds after every
/// `restInterval` metres of climb; at the top the hiker rests `summitRest` seconds; the descent mirrors the
/// ascent at `descentSpeed`, with the same rests, and ends without one. Total time:
///
///     climb / ascentSpeed + climb / descentSpeed + summitRest + 2 (⌈climb / restInterval⌉ − 1) restDuration.
public struct HikePlan: Sendable, Equatable, Codable {
    /// Height of the summit above the start, in metres (positive).
    public var climb: Meters
    /// Vertical speed going up, in m/s (positive).
    public var ascentSpeed: Double
    /// Vertical speed going down, in m/s (positive).
    public var descentSpeed: Double
    /// Metres of climb (or descent) between two rests (positive).
    public var restInterval: Meters
    /// Length of each rest on the way, in seconds (zero for none).
    public var restDuration: Seconds
    /// Length of the rest at the summit, in seconds (zero for none).
    public var summitRest: Seconds

    /// A hike of `climb` metres at the given speeds (m/s), resting `restDuration` seconds every `restInterval` metres.
    ///
    /// - Parameters:
    ///   - climb: the summit's height above the start, in metres (positive).
    ///   - ascentSpeed: the vertical speed going up, in m/s (positive).
    ///   - descentSpeed: the vertical speed going down, in m/s (positive).
    ///   - restInterval: metres of climb (or descent) between two rests (positive).
    ///   - restDuration: each rest's length on the way, in seconds (zero for none).
    ///   - summitRest: the rest at the summit, in seconds (zero for none).
    public init(
        climb: Meters, ascentSpeed: Double, descentSpeed: Double, restInterval: Meters,
        restDuration: Seconds, summitRest: Seconds
    ) {
        self.climb = climb
        self.ascentSpeed = ascentSpeed
        self.descentSpeed = descentSpeed
        self.restInterval = restInterval
        self.restDuration = restDuration
        self.summitRest = summitRest
    }

    /// The plan as plain segments: moves and stands, in order.
    public var segments: [ProfileSegment] {
        precondition(climb > 0 && restInterval > 0, "A hike needs a positive climb and rest interval")
        var pieces: [Meters] = []
        var remaining = climb
        while remaining > 1e-9 {
            let piece = min(restInterval, remaining)
            pieces.append(piece)
            remaining -= piece
        }
        var result: [ProfileSegment] = []
        for (index, piece) in pieces.enumerated() {
            result.append(.move(meters: piece, verticalSpeed: ascentSpeed))
            if index < pieces.count - 1, restDuration > 0 { result.append(.stand(seconds: restDuration)) }
        }
        if summitRest > 0 { result.append(.stand(seconds: summitRest)) }
        for (index, piece) in pieces.reversed().enumerated() {
            result.append(.move(meters: -piece, verticalSpeed: descentSpeed))
            if index < pieces.count - 1, restDuration > 0 { result.append(.stand(seconds: restDuration)) }
        }
        return result
    }
}
