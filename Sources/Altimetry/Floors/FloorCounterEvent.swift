import StateEstimation

/// Something the streaming floor counter published after a sample.
public enum FloorCounterEvent: Sendable, Equatable, Codable {
    /// A transition was counted; its `floorAfter` is the new floor.
    case transition(FloorTransition)
    /// The floor became uncertain.
    case uncertaintyRaised(FloorUncertainty)
    /// A confident transition cleared the uncertainty, at this time in seconds.
    case uncertaintyCleared(time: Seconds)
}
