import Foundation
import LinearAlgebra

/// What one scalar update saw and did: the allocation-free record of `KalmanFilter.update(_:kind:variance:gate:)`.
///
/// All statistics are those of the prior predictive distribution z ~ N(h(x⁻), S), before any soft-gate inflation.
public struct ScalarUpdateRecord: Sendable, Equatable, Hashable, Codable {
    /// The filter time of the update, in seconds.
    public var time: Seconds
    /// The innovation y = z − h(x⁻), in measurement units.
    public var innovation: Double
    /// The innovation variance S = H P⁻ Hᵀ + R, in squared measurement units.
    public var innovationVariance: Double
    /// The normalised innovation squared ε = y² / S, dimensionless; χ²(1) under a correct model.
    public var normalizedInnovationSquared: Double
    /// Whether the measurement was applied, inflated or rejected, and why.
    public var decision: UpdateDecision

    /// A record of a measurement at `time` with innovation y, its variance S, ε = y²/S and the decision, as an owner
    /// that fused the measurement in another way reports it.
    public init(
        time: Seconds, innovation: Double, innovationVariance: Double, normalizedInnovationSquared: Double,
        decision: UpdateDecision
    ) {
        self.time = time
        self.innovation = innovation
        self.innovationVariance = innovationVariance
        self.normalizedInnovationSquared = normalizedInnovationSquared
        self.decision = decision
    }

    /// The log-likelihood increment log N(z; h(x⁻), S) = −½ (ε + log 2π + log S), in nats.
    ///
    /// Computed from the record on demand: a filter run rarely needs it, and its logarithm would cost every update.
    public var logLikelihoodIncrement: Double {
        -0.5 * (normalizedInnovationSquared + logTwoPi + log(innovationVariance))
    }
}

/// What one update of any dimension saw and did.
///
/// All statistics are those of the prior predictive distribution z ~ N(h(x⁻), S), before any soft-gate inflation.
public struct UpdateRecord: Sendable, Equatable, Hashable, Codable {
    /// The filter time of the update, in seconds.
    public var time: Seconds
    /// The innovation y = z − h(x⁻) (m entries), in measurement units.
    public var innovation: [Double]
    /// The innovation covariance S = H P⁻ Hᵀ + R (m x m), in squared measurement units.
    public var innovationCovariance: Matrix
    /// The normalised innovation squared ε = yᵀ S⁻¹ y, dimensionless; χ²(m) under a correct model.
    public var normalizedInnovationSquared: Double
    /// The log-likelihood increment log N(z; h(x⁻), S) = −½ (ε + m log 2π + log det S), in nats.
    /// Summed over a run, it is the log-likelihood that parameter identification maximises.
    public var logLikelihoodIncrement: Double
    /// Whether the measurement was applied, inflated or rejected, and why.
    public var decision: UpdateDecision

    /// The record of a scalar update, as a record of dimension one.
    public init(_ scalar: ScalarUpdateRecord) {
        self.init(
            time: scalar.time, innovation: [scalar.innovation],
            innovationCovariance: Matrix(rows: 1, columns: 1, columnMajor: [scalar.innovationVariance]),
            normalizedInnovationSquared: scalar.normalizedInnovationSquared,
            logLikelihoodIncrement: scalar.logLikelihoodIncrement, decision: scalar.decision)
    }

    /// A record from its fields.
    ///
    /// - Parameters:
    ///   - time: the filter time of the update, in seconds.
    ///   - innovation: y = z − h(x⁻) (m entries), in measurement units.
    ///   - innovationCovariance: S = H P⁻ Hᵀ + R (m x m), in squared measurement units.
    ///   - normalizedInnovationSquared: ε = yᵀ S⁻¹ y, dimensionless.
    ///   - logLikelihoodIncrement: log N(z; h(x⁻), S), in nats.
    ///   - decision: whether the measurement was applied, inflated or rejected, and why.
    public init(
        time: Seconds, innovation: [Double], innovationCovariance: Matrix,
        normalizedInnovationSquared: Double, logLikelihoodIncrement: Double, decision: UpdateDecision
    ) {
        self.time = time
        self.innovation = innovation
        self.innovationCovariance = innovationCovariance
        self.normalizedInnovationSquared = normalizedInnovationSquared
        self.logLikelihoodIncrement = logLikelihoodIncrement
        self.decision = decision
    }
}
