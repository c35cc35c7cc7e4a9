/// Accumulated accuracy of one estimator against the truth: RMSE, one-sigma coverage and mean NEES.
///
/// Coverage is the fraction of scored instants at which |error| ≤ the reported sigma (0.683 for an honest
/// Gaussian sigma); NEES is the mean of (error/sigma)², 1 for an honest sigma, above 1 when overconfident.
public struct EstimatorScore: Sendable, Equatable, Codable {
    /// Sum of squared errors, m².
    public private(set) var sumOfSquares = 0.0
    /// Scored instants with |error| ≤ sigma.
    public private(set) var covered = 0
    /// Sum of (error/sigma)².
    public private(set) var sumOfNormalizedSquares = 0.0
    /// Scored instants.
    public private(set) var count = 0

    public init() {}

    /// Adds one instant: the estimator's error (estimate − truth) and its reported sigma, in metres.
    public mutating func add(error: Double, sigma: Double) {
        guard error.isFinite, sigma.isFinite, sigma > 0 else { return }
        sumOfSquares += error * error
        if abs(error) <= sigma { covered += 1 }
        sumOfNormalizedSquares += (error / sigma) * (error / sigma)
        count += 1
    }

    /// Merges another score (for example, another trial).
    public mutating func merge(_ other: EstimatorScore) {
        sumOfSquares += other.sumOfSquares
        covered += other.covered
        sumOfNormalizedSquares += other.sumOfNormalizedSquares
        count += other.count
    }

    /// Root-mean-square error, in metres.
    public var rootMeanSquareError: Double { count == 0 ? .nan : (sumOfSquares / Double(count)).squareRoot() }
    /// Fraction of instants with the error inside one sigma.
    public var coverage: Double { count == 0 ? .nan : Double(covered) / Double(count) }
    /// Mean normalised estimation error squared.
    public var meanNEES: Double { count == 0 ? .nan : sumOfNormalizedSquares / Double(count) }
}
