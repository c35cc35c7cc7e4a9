/// An innovation gate: the chi-square test on the normalised innovation squared (NIS) of an update.
///
/// With innovation y = z − h(x⁻) and innovation covariance S = H P⁻ Hᵀ + R, the NIS is ε = yᵀ S⁻¹ y, which
/// is χ²-distributed with m degrees of freedom when the model is right. A gate compares ε with a threshold T:
///
/// - `.reject`: if ε > T the measurement is not applied; the update record says so, with ε and T.
/// - `.inflate` (soft gating): if ε > T the measurement noise is inflated to R' = R + (c − 1) S with
///   c = ε / T, so that S' = c S and the NIS against S' is exactly T. The measurement still counts, with a
///   weight reduced in proportion to how far it lies out; the record gives c. For a scalar measurement this is
///   the inflation of R that makes the outlier sit exactly on the gate.
///
/// Gates are values: build them once (computing a chi-square quantile costs a few microseconds) and pass the
/// one you want with each update, for example none for the first fixes and `mahalanobis(5)` after.
public struct Gate: Sendable, Equatable, Hashable, Codable {
    /// What to do with a measurement whose NIS exceeds the threshold.
    public enum Action: String, Sendable, Equatable, Hashable, Codable {
        /// Do not apply it.
        case reject
        /// Apply it with R inflated so that its NIS equals the threshold.
        case inflate
    }

    /// The NIS threshold T; `.infinity` for no gate.
    public let threshold: Double
    /// What happens beyond the threshold.
    public let action: Action
    /// The measurement dimension the threshold was computed for, or nil if it applies to any dimension.
    public let degreesOfFreedom: Int?

    /// No gate: every measurement is applied.
    public static let off = Gate(threshold: .infinity, action: .reject, degreesOfFreedom: nil)

    private init(threshold: Double, action: Action, degreesOfFreedom: Int?) {
        self.threshold = threshold
        self.action = action
        self.degreesOfFreedom = degreesOfFreedom
    }

    private enum CodingKeys: String, CodingKey { case threshold, action, degreesOfFreedom }

    /// Decodes a gate; a missing threshold is no gate (JSON has no infinity).
    ///
    /// - Throws: `DecodingError.dataCorrupted` for a threshold that is NaN or not positive.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let threshold = try container.decodeIfPresent(Double.self, forKey: .threshold) ?? .infinity
        guard threshold > 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .threshold, in: container,
                debugDescription: "a gate threshold must be > 0, got \(threshold)")
        }
        self.init(
            threshold: threshold, action: try container.decode(Action.self, forKey: .action),
            degreesOfFreedom: try container.decodeIfPresent(Int.self, forKey: .degreesOfFreedom))
    }

    /// Encodes a gate, leaving out the threshold of `Gate.off` (infinity, which JSON cannot hold).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if threshold.isFinite { try container.encode(threshold, forKey: .threshold) }
        try container.encode(action, forKey: .action)
        try container.encodeIfPresent(degreesOfFreedom, forKey: .degreesOfFreedom)
    }

    /// A gate on the Mahalanobis distance √ε: the threshold is T = k², for any dimension.
    ///
    /// For a scalar measurement, `mahalanobis(5)` is the classic 5-sigma gate |y| > 5 √S.
    ///
    /// - Parameters:
    ///   - standardDeviations: k, the gate's half-width in standard deviations (√ε at the threshold), positive.
    ///   - action: what happens to a measurement beyond the gate; `.reject` by default.
    /// - Throws: `EstimationError.invalidParameter` unless k > 0 (infinity is allowed and means no gate).
    public static func mahalanobis(_ standardDeviations: Double, action: Action = .reject) throws(EstimationError)
        -> Gate
    {
        guard standardDeviations > 0, !standardDeviations.isNaN else {
            throw .invalidParameter(
                name: "gate width in standard deviations", value: standardDeviations, expectation: "> 0")
        }
        return Gate(threshold: standardDeviations * standardDeviations, action: action, degreesOfFreedom: nil)
    }

    /// A chi-square gate: T is the quantile of χ²(m) at `probability`, so a correct model passes that fraction
    /// of its measurements.
    ///
    /// - Parameters:
    ///   - probability: the probability of passing, in (0, 1), for example 0.99.
    ///   - degreesOfFreedom: the measurement dimension m the gate is for; an update of another dimension throws.
    ///   - action: reject or inflate.
    /// - Throws: `EstimationError.invalidParameter` for a probability outside (0, 1) or m < 1.
    /// - Complexity: a few Newton steps on the incomplete gamma function (`ChiSquare.quantile`).
    public static func chiSquare(probability: Double, degreesOfFreedom: Int = 1, action: Action = .reject)
        throws(EstimationError) -> Gate
    {
        guard probability > 0, probability < 1 else {
            throw .invalidParameter(name: "gate probability", value: probability, expectation: "in (0, 1)")
        }
        guard degreesOfFreedom >= 1 else {
            throw .invalidParameter(
                name: "gate degrees of freedom", value: Double(degreesOfFreedom), expectation: ">= 1")
        }
        let threshold = ChiSquare.quantile(probability: probability, degreesOfFreedom: degreesOfFreedom)
        return Gate(threshold: threshold, action: action, degreesOfFreedom: degreesOfFreedom)
    }
}

/// What an update did with its measurement.
public enum UpdateDecision: Sendable, Equatable, Hashable, Codable {
    /// Applied as it came.
    case accepted
    /// Applied with R inflated by the soft gate so that S became `factor` × S; factor > 1.
    case inflated(factor: Double)
    /// Not applied; the state is as it was before the update.
    case rejected(RejectionReason)

    /// Whether the measurement changed the state (accepted or inflated).
    public var wasApplied: Bool {
        if case .rejected = self { return false }
        return true
    }
}

/// Why a measurement was not applied.
public enum RejectionReason: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// Its normalised innovation squared exceeded the gate threshold T.
    case innovationGate(threshold: Double)

    public var description: String {
        switch self {
        case .innovationGate(let threshold): return "NIS above the gate threshold \(threshold)"
        }
    }
}
