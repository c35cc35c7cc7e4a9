/// Why the engine refused a call: bad input, an inconsistent model, or a numerical failure.
///
/// Every throwing call of the engine leaves the filter exactly as it was before the call, so a caller may log
/// the error and carry on with the next measurement. A measurement refused by the innovation gate is *not* an
/// error: it is an `UpdateDecision.rejected` in the update's record.
public enum EstimationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The quantity an error is about.
    public enum Quantity: String, Sendable, Equatable, Codable {
        /// The initial mean x₀.
        case initialMean = "initial mean x0"
        /// The initial covariance P₀.
        case initialCovariance = "initial covariance P0"
        /// The transition F.
        case transition = "transition F"
        /// The process noise Q.
        case processNoise = "process noise Q"
        /// The observation matrix H.
        case observationMatrix = "observation matrix H"
        /// The predicted measurement h(x).
        case predictedMeasurement = "predicted measurement h(x)"
        /// The measurement z.
        case measurement = "measurement z"
        /// The measurement noise R.
        case measurementNoise = "measurement noise R"
        /// The innovation covariance S.
        case innovationCovariance = "innovation covariance S"
        /// The updated mean x.
        case updatedMean = "updated mean x"
        /// The updated covariance P.
        case updatedCovariance = "updated covariance P"
        /// The predicted covariance P⁻.
        case predictedCovariance = "predicted covariance P⁻"
        /// The known input u.
        case input = "known input u"
        /// A recorded run given to the smoother.
        case recordedRun = "recorded run"
        /// A checkpoint given to restore a filter.
        case checkpoint = "checkpoint"
    }

    /// A predict or measurement time earlier than the filter's time; both times are in seconds.
    case timeWentBackwards(from: Seconds, to: Seconds)
    /// A time that is NaN or infinite.
    case nonFiniteTime(Seconds)
    /// A measurement component (zero-based) that is NaN or infinite.
    case nonFiniteMeasurement(component: Int, value: Double)
    /// A matrix that must be symmetric positive definite is not: Cholesky stopped at this leading minor (one-based).
    case notPositiveDefinite(Quantity, leadingMinor: Int)
    /// A matrix that must be symmetric is not; `asymmetry` is its largest |Aᵢⱼ − Aⱼᵢ|.
    case notSymmetric(Quantity, asymmetry: Double)
    /// A matrix or vector of the wrong shape, written `rows x columns`.
    case dimensionMismatch(Quantity, expected: String, actual: String)
    /// A model or an update produced NaN or infinity in this quantity.
    case nonFinite(Quantity)
    /// A parameter outside its domain, named with the value and what was expected.
    case invalidParameter(name: String, value: Double, expectation: String)
    /// The measurement at this index of a batch (zero-based), at this time, failed; nothing of the batch was kept.
    indirect case batchFailed(index: Int, time: Seconds, underlying: EstimationError)

    public var description: String {
        switch self {
        case .timeWentBackwards(let from, let to):
            return "time went backwards: the filter is at t = \(from) s and was asked for t = \(to) s"
        case .nonFiniteTime(let time):
            return "time \(time) s is not finite"
        case .nonFiniteMeasurement(let component, let value):
            return "measurement component \(component) is \(value), not a finite number"
        case .notPositiveDefinite(let quantity, let minor):
            return "\(quantity.rawValue) is not positive definite: its leading minor of order \(minor) is not positive"
        case .notSymmetric(let quantity, let asymmetry):
            return "\(quantity.rawValue) is not symmetric: max |A(i,j) - A(j,i)| = \(asymmetry)"
        case .dimensionMismatch(let quantity, let expected, let actual):
            return "\(quantity.rawValue) should be \(expected), got \(actual)"
        case .nonFinite(let quantity):
            return "\(quantity.rawValue) contains NaN or infinity"
        case .invalidParameter(let name, let value, let expectation):
            return "\(name) = \(value) is invalid: expected \(expectation)"
        case .batchFailed(let index, let time, let underlying):
            return "measurement \(index) at t = \(time) s: \(underlying)"
        }
    }
}
