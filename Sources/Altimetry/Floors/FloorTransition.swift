import StateEstimation

/// A counted change of floor: a moving stretch whose change of altitude rounds to a whole, non-zero number of floors.
public struct FloorTransition: Sendable, Equatable, Codable {
    /// Start of the stretch, in seconds: the first moving time backed up by `FloorCounterConfiguration.backUp`.
    public var time: Seconds
    /// End of the stretch, in seconds: the sample at which the counter saw the user still again.
    public var endTime: Seconds
    /// Floors moved, negative downwards: n = round(Δs / floorHeight).
    public var floors: Int
    /// The floor after the transition, counting the start of the recording as floor 0.
    public var floorAfter: Int
    /// Change of the smoothed altitude over the stretch, Δs = s(end) − s(start), in metres.
    public var change: Meters
    /// How far the change, less the weather drift estimated over the stretch, is from the whole floors counted,
    /// in metres: Δs − w·(end − start) − n·floorHeight.
    public var residual: Meters
    /// Whether |residual| is within `FloorCounterConfiguration.transitionTolerance`. Only a confident
    /// transition clears an uncertainty and restarts the uncertainty check.
    public var isConfident: Bool

    /// A transition from `time` to `endTime` (seconds) of `floors` floors, `change` and `residual` in metres.
    ///
    /// - Parameters:
    ///   - time: the start of the stretch, in seconds.
    ///   - endTime: the end of the stretch, in seconds.
    ///   - floors: the floors moved, negative downwards.
    ///   - floorAfter: the floor after the transition, counting the start as floor 0.
    ///   - change: the change of the smoothed altitude over the stretch, in metres.
    ///   - residual: the weather-corrected change less the whole floors counted, in metres.
    ///   - isConfident: whether |residual| is within the transition tolerance.
    public init(
        time: Seconds, endTime: Seconds, floors: Int, floorAfter: Int, change: Meters, residual: Meters,
        isConfident: Bool
    ) {
        self.time = time
        self.endTime = endTime
        self.floors = floors
        self.floorAfter = floorAfter
        self.change = change
        self.residual = residual
        self.isConfident = isConfident
    }
}
