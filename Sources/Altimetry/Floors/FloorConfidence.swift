/// Whether the counter trusts the floor it reports.
public enum FloorConfidence: Sendable, Equatable, Codable {
    /// Every change of altitude since the last confident transition is explained by counted floors and weather.
    case confident
    /// Something is unexplained; the floor is a guess until the next confident transition.
    case uncertain(FloorUncertainty)

    /// The uncertainty, if any.
    public var uncertainty: FloorUncertainty? {
        if case .uncertain(let uncertainty) = self { return uncertainty }
        return nil
    }

    /// Whether the floor is uncertain.
    public var isUncertain: Bool { uncertainty != nil }
}
