import Foundation

/// Accumulated accuracy of one estimator against the truth: RMSE, mean error, the 95th percentile of the
/// absolute error, one-sigma coverage and mean NEES.
///
/// Coverage is the fraction of scored instants at which |error| ≤ the reported sigma (0.683 for an honest
/// Gaussian sigma); NEES is the mean of (error/sigma)², 1 for an honest sigma, above 1 when overconfident.
///
/// The percentile comes from a histogram of |error| in geometric bins 1 % wide from 1 mm to 100 km, so scores
/// merge across trials in constant memory (a million-row Monte Carlo would otherwise keep every error); it is
/// the upper edge of the bin holding the 95th percentile, at most 1 % above the exact order statistic (errors
/// under 1 mm count as 1 mm).
public struct EstimatorScore: Sendable, Equatable, Codable {
    /// Sum of squared errors, m².
    public private(set) var sumOfSquares = 0.0
    /// Sum of errors, m.
    public private(set) var sumOfErrors = 0.0
    /// Scored instants with |error| ≤ sigma.
    public private(set) var covered = 0
    /// Sum of (error/sigma)².
    public private(set) var sumOfNormalizedSquares = 0.0
    /// Scored instants.
    public private(set) var count = 0
    /// Counts of |error| by geometric bin (see the type's discussion); empty until the first error.
    private var absoluteErrorBins: [Int] = []

    /// The smallest |error| the histogram resolves, in metres.
    static let smallestBinnedError = 1e-3
    /// Ratio of a bin's upper edge to its lower edge.
    static let binRatio = 1.01
    /// Bins from 1 mm to 100 km: ln(10⁸)/ln(1.01), rounded up.
    static let binCount = 1_852

    /// An empty score: no rows yet.
    public init() {}

    /// Adds one instant: the estimator's error (estimate − truth) and its reported sigma, in metres.
    ///
    /// An instant without a finite error or a positive finite sigma is not scored.
    ///
    /// - Parameters:
    ///   - error: the estimate minus the truth, in metres.
    ///   - sigma: the estimator's reported one-sigma uncertainty, in metres.
    public mutating func add(error: Double, sigma: Double) {
        guard error.isFinite, sigma.isFinite, sigma > 0 else { return }
        sumOfSquares += error * error
        sumOfErrors += error
        if abs(error) <= sigma { covered += 1 }
        sumOfNormalizedSquares += (error / sigma) * (error / sigma)
        count += 1
        if absoluteErrorBins.isEmpty { absoluteErrorBins = Array(repeating: 0, count: Self.binCount) }
        absoluteErrorBins[Self.bin(abs(error))] += 1
    }

    /// Merges another score (for example, another trial).
    public mutating func merge(_ other: EstimatorScore) {
        sumOfSquares += other.sumOfSquares
        sumOfErrors += other.sumOfErrors
        covered += other.covered
        sumOfNormalizedSquares += other.sumOfNormalizedSquares
        count += other.count
        if absoluteErrorBins.isEmpty {
            absoluteErrorBins = other.absoluteErrorBins
        } else if !other.absoluteErrorBins.isEmpty {
            for k in absoluteErrorBins.indices { absoluteErrorBins[k] += other.absoluteErrorBins[k] }
        }
    }

    /// Root-mean-square error, in metres.
    public var rootMeanSquareError: Double { count == 0 ? .nan : (sumOfSquares / Double(count)).squareRoot() }
    /// Mean error (estimate − truth), in metres: the bias.
    public var meanError: Double { count == 0 ? .nan : sumOfErrors / Double(count) }
    /// Fraction of instants with the error inside one sigma.
    public var coverage: Double { count == 0 ? .nan : Double(covered) / Double(count) }
    /// Mean normalised estimation error squared.
    public var meanNEES: Double { count == 0 ? .nan : sumOfNormalizedSquares / Double(count) }

    /// The q-quantile of |error| (0 < q ≤ 1), in metres: the upper edge of the bin holding the ⌈q N⌉-th smallest.
    ///
    /// - Parameter q: the quantile's probability, in (0, 1]; NaN outside it or for an empty score.
    public func absoluteErrorQuantile(_ q: Double) -> Double {
        guard count > 0, q > 0, q <= 1 else { return .nan }
        let rank = Int((q * Double(count)).rounded(.up))
        var seen = 0
        for (k, n) in absoluteErrorBins.enumerated() {
            seen += n
            if seen >= rank { return Self.smallestBinnedError * pow(Self.binRatio, Double(k + 1)) }
        }
        return .infinity
    }

    /// The 95th percentile of |error|, in metres.
    public var absoluteErrorPercentile95: Double { absoluteErrorQuantile(0.95) }

    /// The bin of an absolute error: k with 1 mm · 1.01^k ≤ |e| < 1 mm · 1.01^(k+1), clamped to the histogram.
    static func bin(_ absoluteError: Double) -> Int {
        guard absoluteError > smallestBinnedError else { return 0 }
        let k = Int((log(absoluteError / smallestBinnedError) / log(binRatio)).rounded(.down))
        return min(max(k, 0), binCount - 1)
    }
}
