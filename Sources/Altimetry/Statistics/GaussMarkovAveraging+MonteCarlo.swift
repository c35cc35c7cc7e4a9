import Randomness

extension GaussMarkovAveraging {
    /// A Monte Carlo estimate of the standard deviation of the mean of N samples, in the error's unit.
    ///
    /// Each trial starts a `GaussMarkovProcess` from its stationary distribution, steps it N − 1 times by Δt
    /// with the exact discretisation, and averages the N values; the result is the root mean square of the
    /// trials' means (the true mean is zero). With M trials its relative standard error is about 1/√(2M),
    /// 1.6 % for the seed's 2,000 trials.
    ///
    /// - Parameters:
    ///   - n: N, the number of samples averaged (`sampleInterval` apart), at least 1.
    ///   - trials: M, at least 1.
    ///   - generator: the seeded source of every draw; it advances, so successive calls continue its stream.
    /// - Throws: `GaussMarkovAveragingError` for N or M below one.
    /// - Complexity: O(N M) Gaussian draws.
    public func monteCarloMeanStandardDeviation(
        sampleCount n: Int, trials: Int,
        using generator: inout SeededGenerator
    )
        throws(GaussMarkovAveragingError) -> Double
    {
        guard n >= 1 else { throw .sampleCountNotPositive(n) }
        guard trials >= 1 else { throw .trialCountNotPositive(trials) }
        var sumOfSquaredMeans = 0.0
        for _ in 0..<trials {
            var process = GaussMarkovProcess(
                standardDeviation: standardDeviation, correlationTime: correlationTime,
                using: &generator)
            var sum = process.value
            for _ in 1..<n {
                sum += process.advance(by: sampleInterval, using: &generator)
            }
            let mean = sum / Double(n)
            sumOfSquaredMeans += mean * mean
        }
        return (sumOfSquaredMeans / Double(trials)).squareRoot()
    }

    /// A Monte Carlo estimate of the mean's standard deviation from a fresh generator seeded with `seed`.
    ///
    /// - Parameters:
    ///   - n: N, the number of samples averaged (`sampleInterval` apart), at least 1.
    ///   - trials: M, at least 1.
    ///   - seed: the seed of the fresh `SeededGenerator` that makes every draw.
    /// - Throws: `GaussMarkovAveragingError` for N or M below one.
    public func monteCarloMeanStandardDeviation(sampleCount n: Int, trials: Int, seed: UInt64)
        throws(GaussMarkovAveragingError) -> Double
    {
        var generator = SeededGenerator(seed: seed)
        return try monteCarloMeanStandardDeviation(sampleCount: n, trials: trials, using: &generator)
    }
}
