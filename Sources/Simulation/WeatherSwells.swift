import Altimetry
import Foundation
import Randomness
import StateEstimation

/// Slow swells of the sea-level pressure: a sum of a few sinusoids with periods of tens of minutes to hours.
///
/// Real barograph traces on a quiet day are smooth: besides the synoptic trend and the atmospheric tide they
/// carry mesoscale oscillations (gravity waves, convective cells passing) of a few tenths of a hectopascal over
/// 20 minutes to a few hours, and almost nothing at periods of seconds. A random-phase sum of sinusoids is the
/// textbook spectral representation of such a band-limited stationary process:
///
///     s(t) = Σₖ aₖ sin(2π t / Pₖ + φₖ),   aₖ = rms √(2 / K),   Pₖ log-uniform in [shortest, longest],  φₖ uniform,
///
/// whose mean square, averaged over phases, is Σ aₖ² / 2 = rms². It is smooth (every derivative continuous), and
/// its steepest rate is bounded by Σ aₖ 2π/Pₖ, a fraction of a hPa per hour for the defaults: a barometer sees it
/// as metres of slow apparent climbing and descending, never as metres per minute.
public struct WeatherSwells: Sendable, Equatable, Codable {
    /// The root-mean-square of the swells, in hPa.
    public var rootMeanSquare: Hectopascals
    /// The shortest period, in seconds.
    public var shortestPeriod: Seconds
    /// The longest period, in seconds.
    public var longestPeriod: Seconds
    /// The number of sinusoids K.
    public var count: Int

    /// `count` swells of `rootMeanSquare` hPa in all, with periods from `shortestPeriod` to `longestPeriod` seconds.
    ///
    /// - Parameters:
    ///   - rootMeanSquare: the root mean square of the swells' sum, in hPa.
    ///   - shortestPeriod: the shortest period, in seconds.
    ///   - longestPeriod: the longest period, in seconds.
    ///   - count: the number of components K.
    public init(
        rootMeanSquare: Hectopascals = 0.1, shortestPeriod: Seconds = 1_200, longestPeriod: Seconds = 10_800,
        count: Int = 6
    ) {
        self.rootMeanSquare = rootMeanSquare
        self.shortestPeriod = shortestPeriod
        self.longestPeriod = longestPeriod
        self.count = count
    }

    /// One sinusoid of a drawn realisation.
    public struct Component: Sendable, Equatable, Codable {
        /// Amplitude aₖ, in hPa.
        public var amplitude: Hectopascals
        /// Period Pₖ, in seconds.
        public var period: Seconds
        /// Phase φₖ, in radians.
        public var phase: Double
    }

    /// Draws the K components: periods log-uniform, phases uniform, amplitudes rms √(2/K).
    public func draw(using random: inout SeededGenerator) -> [Component] {
        guard count > 0 else { return [] }
        let amplitude = rootMeanSquare * (2 / Double(count)).squareRoot()
        let logRatio = log(longestPeriod / shortestPeriod)
        return (0..<count).map { _ in
            let period = shortestPeriod * exp(logRatio * random.uniform())
            return Component(amplitude: amplitude, period: period, phase: 2 * .pi * random.uniform())
        }
    }

    /// The swells' offset at a time for drawn components, in hPa.
    ///
    /// - Parameters:
    ///   - time: seconds since the start of the scenario.
    ///   - components: the drawn components (`draw(using:)`).
    public static func offset(at time: Seconds, components: [Component]) -> Hectopascals {
        components.reduce(0) { $0 + $1.amplitude * sin(2 * .pi * time / $1.period + $1.phase) }
    }
}
