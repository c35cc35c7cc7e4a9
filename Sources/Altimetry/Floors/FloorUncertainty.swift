import StateEstimation

/// Why the counter doubts the floor it counted, and by how much.
public struct FloorUncertainty: Sendable, Equatable, Codable {
    /// What raised the doubt.
    public enum Reason: String, Sendable, Equatable, Codable {
        /// After `stillnessForUncertainty` without a counted transition, the altitude, corrected for the counted
        /// floors and the weather trend measured while still, is more than `uncertaintyResidual` from the counted
        /// floor: something moved the user too slowly to count (a ramp, a slow lift).
        case unexplainedAltitudeChange = "unexplained-altitude-change"
        /// A counted transition's change is more than `transitionTolerance` from a whole number of floors.
        case ambiguousTransition = "ambiguous-transition"
    }

    /// When the doubt was raised, in seconds.
    public var time: Seconds
    /// What raised it.
    public var reason: Reason
    /// The unexplained change, in metres, positive upwards.
    public var residual: Meters
    /// The floor the counter would be on if the residual were whole floors: floor + round(residual / floorHeight).
    public var suggestedFloor: Int

    /// An uncertainty at `time` (seconds) for `reason`, with `residual` in metres and the floor it suggests.
    ///
    /// - Parameters:
    ///   - time: when the doubt was raised, in seconds.
    ///   - reason: what raised the doubt.
    ///   - residual: the unexplained change, in metres, positive upwards.
    ///   - suggestedFloor: the floor the residual suggests.
    public init(time: Seconds, reason: Reason, residual: Meters, suggestedFloor: Int) {
        self.time = time
        self.reason = reason
        self.residual = residual
        self.suggestedFloor = suggestedFloor
    }
}
