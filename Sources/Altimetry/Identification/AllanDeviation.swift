import Foundation
import StateEstimation

/// The overlapping Allan deviation of a regularly sampled series, at octave-spaced averaging times, with
/// confidence intervals.
///
/// For samples y₀ … y_{M−1} spaced τ₀ apart, the phase x₀ = 0, x_{k+1} = x_k + (y_k − ȳ) τ₀ (N = M + 1 points)
/// and, at the averaging time τ = m τ₀ (NIST SP 1065, eq. 11),
///
///     σ²(τ) = Σ_{i=0}^{N−2m−1} (x_{i+2m} − 2 x_{i+m} + x_i)² / (2 τ² (N − 2m)),
///
/// half the mean square difference of consecutive m-sample averages, taken at every start. For a stationary
/// error process it is Var(ȳ_m) − Cov(ȳ_m, ȳ'_m) of two adjacent averages: white noise falls as 1/m, a
/// Gauss-Markov error rises with m to a peak near τ ≈ 1.9 τ_c and then falls, a random walk rises as m. That
/// shape is what identifies the GPS error's correlation time.
///
/// The confidence interval is the chi-square one of NIST SP 1065 eq. 45, [σ √(ν/χ²_{1−α/2}), σ √(ν/χ²_{α/2})],
/// with the equivalent degrees of freedom ν of white frequency noise (SP 1065 Table 5, Stein 1985):
/// ν = (3(N − 1)/(2m) − 2(N − 2)/N) · 4m²/(4m² + 5). For the correlated errors seen here ν is optimistic at the
/// longest averaging times, where the interval is wide anyway. Checked against `allantools` (`oadev`,
/// `edf_simple`, `confidence_interval`) to 1e-9 relative by `Tests/AltimetryTests/Fixtures/allan_deviation.py`.
public struct AllanDeviation: Sendable, Equatable, Codable {
    /// One averaging time's figures.
    public struct Point: Sendable, Equatable, Codable {
        /// m, the number of samples averaged.
        public var averagingFactor: Int
        /// τ = m τ₀, in seconds.
        public var averagingTime: Seconds
        /// σ(τ), in the series' unit.
        public var deviation: Double
        /// The confidence interval's lower bound on σ(τ), in the series' unit.
        public var lower: Double
        /// The confidence interval's upper bound on σ(τ), in the series' unit.
        public var upper: Double
        /// ν, the equivalent degrees of freedom of σ²(τ).
        public var degreesOfFreedom: Double
        /// N − 2m, the number of second differences summed.
        public var termCount: Int
    }

    /// τ₀, the sampling interval, in seconds.
    public var samplingInterval: Seconds
    /// The two-sided confidence of the intervals (0.6827: one sigma).
    public var confidence: Double
    /// One point per octave m = 1, 2, 4, … while at least `minimumTermCount` second differences remain.
    public var points: [Point]

    /// The overlapping Allan deviation of `series`, sampled every `samplingInterval` seconds.
    ///
    /// - Parameters:
    ///   - series: the samples y₀ … y_{M−1}, in time order, at least 3, all finite, in any unit (σ(τ) comes out in
    ///     the same unit; metres for a GPS altitude error).
    ///   - samplingInterval: τ₀, the spacing of the samples, in seconds (finite, > 0).
    ///   - confidence: the two-sided confidence of every interval, strictly between 0 and 1 (a precondition);
    ///     the default 0.6827 is one sigma.
    ///   - minimumTermCount: the fewest second differences an averaging time may rest on (2 or more).
    /// - Throws: `IdentificationError.tooFewSamples` with fewer than 3 samples, `.invalidValue` for a
    ///   non-finite sample or interval.
    public init(
        series: [Double], samplingInterval: Seconds, confidence: Double = 0.682_689_492_137_085_9,
        minimumTermCount: Int = 2
    ) throws(IdentificationError) {
        guard series.count >= 3 else { throw .tooFewSamples(needed: 3, found: series.count) }
        guard samplingInterval.isFinite && samplingInterval > 0 else {
            throw .invalidValue(name: "sampling interval", value: samplingInterval, expected: "a finite interval > 0 s")
        }
        if let bad = series.firstIndex(where: { !$0.isFinite }) {
            throw .invalidValue(name: "sample \(bad)", value: series[bad], expected: "a finite value")
        }
        precondition(confidence > 0 && confidence < 1, "AllanDeviation: confidence must be in (0, 1)")
        self.samplingInterval = samplingInterval
        self.confidence = confidence
        // Phase: the cumulative sum of the centred series, times τ₀, starting at zero (as allantools does).
        let mean = series.reduce(0, +) / Double(series.count)
        var phase = [Double](repeating: 0, count: series.count + 1)
        var sum = 0.0
        for (k, y) in series.enumerated() {
            sum += y - mean
            phase[k + 1] = sum * samplingInterval
        }
        let N = phase.count
        let tail = min(abs(confidence), abs(confidence - 1)) / 2
        var points: [Point] = []
        var m = 1
        while N - 2 * m >= max(2, minimumTermCount) {
            let terms = N - 2 * m
            var s = 0.0
            for i in 0..<terms {
                let d = phase[i + 2 * m] - 2 * phase[i + m] + phase[i]
                s += d * d
            }
            let tau = Double(m) * samplingInterval
            let variance = s / (2 * tau * tau * Double(terms))
            let nu = Self.whiteFrequencyDegreesOfFreedom(phaseCount: N, averagingFactor: m)
            let chiLow = ChiSquare.quantile(probability: tail, degreesOfFreedom: nu)
            let chiHigh = ChiSquare.quantile(probability: 1 - tail, degreesOfFreedom: nu)
            points.append(
                Point(
                    averagingFactor: m, averagingTime: tau, deviation: variance.squareRoot(),
                    lower: (nu * variance / chiHigh).squareRoot(), upper: (nu * variance / chiLow).squareRoot(),
                    degreesOfFreedom: nu, termCount: terms))
            m *= 2
        }
        self.points = points
    }

    /// ν for white frequency noise (NIST SP 1065, Table 5): (3(N − 1)/(2m) − 2(N − 2)/N) · 4m²/(4m² + 5), with N
    /// the number of phase points; at least 1.
    static func whiteFrequencyDegreesOfFreedom(phaseCount N: Int, averagingFactor m: Int) -> Double {
        let n = Double(N), md = Double(m)
        let nu = (3 * (n - 1) / (2 * md) - 2 * (n - 2) / n) * (4 * md * md / (4 * md * md + 5))
        return max(nu, 1)
    }
}
