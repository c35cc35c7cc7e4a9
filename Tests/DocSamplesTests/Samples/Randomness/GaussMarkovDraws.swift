import Randomness

/// A GPS altitude error (σ = 10 m, τ = 60 s) sampled every second for an hour; the same seed gives the same
/// draws on every platform.
func gpsErrorDraws(seed: UInt64) -> [Double] {
    var generator = SeededGenerator(seed: seed)
    var error = GaussMarkovProcess(standardDeviation: 10, correlationTime: 60, using: &generator)
    return (0..<3_600).map { _ in error.advance(by: 1, using: &generator) }
}
