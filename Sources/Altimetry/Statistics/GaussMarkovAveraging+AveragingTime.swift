import Foundation
import StateEstimation

extension GaussMarkovAveraging {
    /// How the samples of a window are combined into one estimate of the constant.
    public enum Estimator: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
        /// The plain mean, with the exact variance `meanVariance(sampleCount:)`.
        case mean
        /// The generalised-least-squares estimate, with `generalizedLeastSquaresVariance(sampleCount:)`.
        case generalizedLeastSquares
    }

    /// The largest number of samples `samplesNeeded(toReach:with:)` will consider, 2⁴⁰ (about 35,000 years at 1 Hz).
    public static let maximumSampleCount = 1 << 40

    /// The variance of an estimator over N samples, in the error's unit squared.
    ///
    /// - Parameters:
    ///   - estimator: the mean or the generalised-least-squares estimate.
    ///   - n: N, the number of samples, `sampleInterval` apart.
    public func variance(of estimator: Estimator, sampleCount n: Int) -> Double {
        switch estimator {
        case .mean: meanVariance(sampleCount: n)
        case .generalizedLeastSquares: generalizedLeastSquaresVariance(sampleCount: n)
        }
    }

    /// The fewest samples whose estimate has a standard deviation at most `target`.
    ///
    /// Both variances fall strictly with N while φ > 0, so the answer is the first N where they cross target².
    /// For generalised least squares the variance inverts in closed form,
    ///
    ///     N = 2 + [σ² (1 + φ)/target² − 2] / (1 − φ),
    ///
    /// rounded up; for the plain mean the exact variance is bisected over whole N. Either way the result is then
    /// checked against the variance itself, so rounding never returns a window one sample short. A target at or
    /// above σ needs one sample.
    ///
    /// - Parameters:
    ///   - target: the wanted standard deviation, in the error's unit, positive and finite.
    ///   - estimator: how the samples are combined.
    /// - Throws: `.targetNotPositive`, or `.targetUnreachable` beyond `maximumSampleCount` samples.
    /// - Complexity: O(1) for GLS; O(log N) evaluations of the exact variance for the mean.
    public func samplesNeeded(toReach target: Double, with estimator: Estimator) throws(GaussMarkovAveragingError)
        -> Int
    {
        guard target.isFinite, target > 0 else { throw .targetNotPositive(target) }
        let targetVariance = target * target
        if standardDeviation * standardDeviation <= targetVariance { return 1 }
        let limit = Self.maximumSampleCount
        guard variance(of: estimator, sampleCount: limit) <= targetVariance else {
            throw .targetUnreachable(target: target, maximumSampleCount: limit)
        }
        // Invariant: variance(low) > target², variance(high) <= target².
        var low = 1
        var high = limit
        if estimator == .generalizedLeastSquares {
            let sigmaSquared = standardDeviation * standardDeviation
            let estimate = 2 + (sigmaSquared * (1 + correlationPerSample) / targetVariance - 2) / oneMinusCorrelation
            let guess = Int(min(max(estimate.rounded(.up), 1), Double(limit)))
            // The closed form is exact up to rounding; widen by a couple of samples and let the search settle it.
            low = max(1, guess - 2)
            high = min(limit, guess + 2)
            if variance(of: estimator, sampleCount: low) <= targetVariance { low = 1 }
            if variance(of: estimator, sampleCount: high) > targetVariance { high = limit }
        } else {
            // Bracket by doubling from one sample, which keeps the bisection short for reachable targets.
            high = 2
            while variance(of: estimator, sampleCount: high) > targetVariance {
                low = high
                high = min(limit, high * 2)
            }
        }
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if variance(of: estimator, sampleCount: middle) <= targetVariance { high = middle } else { low = middle }
        }
        return high
    }

    /// The shortest averaging time whose estimate has a standard deviation at most `target`, N Δt in seconds.
    ///
    /// The calibration of a barometer against GPS asks this: how long to listen before the offset is known to
    /// `target` metres. For the seed's GPS (σ = 10 m, τ = 60 s, 1 Hz) a 4.24 m mean takes ten minutes.
    ///
    /// - Parameters:
    ///   - target: the largest acceptable standard deviation, in the error's unit.
    ///   - estimator: the mean or the generalised-least-squares estimate.
    /// - Throws: as `samplesNeeded(toReach:with:)`.
    public func averagingTime(toReach target: Double, with estimator: Estimator) throws(GaussMarkovAveragingError)
        -> Seconds
    {
        window(sampleCount: try samplesNeeded(toReach: target, with: estimator))
    }
}
