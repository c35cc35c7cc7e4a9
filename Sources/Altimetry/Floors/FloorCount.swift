/// The floor counter's answer for a whole recording.
public struct FloorCount: Sendable, Equatable, Codable {
    /// Every counted transition, in order.
    public var transitions: [FloorTransition]
    /// The floor at the end, counting the first sample's floor as 0.
    public var floor: Int
    /// Whether the final floor is trusted.
    public var confidence: FloorConfidence
    /// Everything the counter published, in order (transitions, uncertainty raised and cleared).
    public var events: [FloorCounterEvent]
    /// The weather rate used at the end, in m/s of apparent climb, if one was measured or given.
    public var weatherRate: Double?

    /// A count with the given transitions, final floor, confidence, events and weather rate (m/s of apparent climb).
    ///
    /// - Parameters:
    ///   - transitions: every counted transition, in order.
    ///   - floor: the floor at the end, counting the first sample's floor as 0.
    ///   - confidence: whether the final floor is trusted.
    ///   - events: everything the counter published, in order.
    ///   - weatherRate: the weather rate used at the end, in m/s of apparent climb, or nil.
    public init(
        transitions: [FloorTransition], floor: Int, confidence: FloorConfidence,
        events: [FloorCounterEvent], weatherRate: Double?
    ) {
        self.transitions = transitions
        self.floor = floor
        self.confidence = confidence
        self.events = events
        self.weatherRate = weatherRate
    }
}
