/// The barometer's white noise, learned from its own readings: the Allan deviation at the sampling interval.
///
/// For readings z_k = s(t_k) + ε_k with ε white of variance σ² and a signal s that is smooth over a few samples
/// (motion, weather), the second difference d_k = z_k − 2 z_{k−1} + z_{k−2} has variance 6 σ² plus the signal's
/// curvature, which a walker's or a lift's accelerations keep small at the rates barometers report (1 to 25 Hz).
/// So σ² is estimated as the mean of d²/6 over the last readings: an exponential average over
/// `memory` readings, each d² clipped at (4 √6 σ̂)² once `memory`/10 readings are in, so that a step or a lift's
/// start does not inflate it (a clipped Gaussian's mean of d² loses 0.1 % at 4 sigmas). This is the Allan variance
/// at the sampling interval, σ_A²(τ₀) = E[(Δ²z)²]/6 for white noise, the figure `altimetry identify` reports.
///
/// A barometer whose value is quantised (an IGC file's pressure altitude in whole metres, a logger's 0.01 hPa)
/// repeats itself at rest, and its second differences are then mostly zero: the quantisation's own variance q²/12,
/// q the smallest step seen between two readings, is the noise's floor, since no reading is known better than its
/// quantum. The estimate never falls below a quarter of `prior` either: the best sensors' noise is about 0.003 hPa.
///
/// Values are in metres of log-pressure (`LogPressureCoordinates`), where the barometer is linear.
public struct BarometerNoise: Sendable, Equatable, Codable {
    /// σ̂², the estimated noise variance, in m² of log-pressure.
    public private(set) var variance: Double
    /// The prior's variance, in m²: a quarter of its standard deviation is the estimate's floor.
    let priorVariance: Double
    /// The smallest nonzero step between two consecutive readings, in metres; nil before one is seen.
    public private(set) var quantum: Double?
    /// Readings averaged over, N: the estimate's relative standard error is about √(2/N) (8 % for 300).
    static let memory = 300.0
    private var previous: Double?
    private var beforePrevious: Double?
    private var count = 0.0

    /// An estimate that starts from `prior`, the noise's standard deviation in metres of log-pressure.
    public init(prior: Double) {
        variance = prior * prior
        priorVariance = prior * prior
    }

    /// The variance the barometer's update uses, in m²: the estimate, at least the quantum's q²/12 and a sixteenth
    /// of the prior's.
    @inline(__always)
    public var measurementVariance: Double {
        let q = quantum ?? 0
        return max(variance, q * q / 12, priorVariance / 16)
    }

    /// Takes a reading z (metres of log-pressure).
    public mutating func observe(_ z: Double) {
        if let p = previous {
            let step = abs(z - p)
            if step > 0, step < (quantum ?? .infinity) { quantum = step }
            if let pp = beforePrevious {
                let d = z - 2 * p + pp
                var squared = d * d
                if count >= Self.memory / 10 { squared = min(squared, 96 * variance) }
                count += 1
                let weight = 1 / min(count, Self.memory)
                variance += weight * (squared / 6 - variance)
            }
        }
        beforePrevious = previous
        previous = z
    }

    /// Forgets the last readings (after a step or a stuck run), keeping the estimate.
    public mutating func restart() {
        previous = nil
        beforePrevious = nil
    }
}
