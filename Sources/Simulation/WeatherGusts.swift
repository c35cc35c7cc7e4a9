import Altimetry
import StateEstimation

/// Gust noise on the pressure: a first-order Gauss-Markov process of small spread and short correlation time.
///
/// Wind moves the pressure a pocketed barometer reads by hundredths of a hectopascal for tens of seconds (the
/// dynamic pressure of the gusts around the body and the phone's case). The simulator draws it exactly at the
/// barometer's times, e(t + Δt) = φ e(t) + N(0, σ²(1 − φ²)), φ = exp(−Δt/τ), like the GPS's correlated error.
/// It is stationary, so unlike a random walk it never accumulates into false climbing.
public struct WeatherGusts: Sendable, Equatable, Codable {
    /// The stationary spread σ, in hPa.
    public var standardDeviation: Hectopascals
    /// The correlation time τ, in seconds.
    public var correlationTime: Seconds

    /// Gusts of `standardDeviation` hPa with correlation time `correlationTime` seconds.
    ///
    /// - Parameters:
    ///   - standardDeviation: the Gauss-Markov process's stationary standard deviation, in hPa.
    ///   - correlationTime: its correlation time, in seconds.
    public init(standardDeviation: Hectopascals = 0.01, correlationTime: Seconds = 20) {
        self.standardDeviation = standardDeviation
        self.correlationTime = correlationTime
    }
}
