import Foundation
import Testing

/// Reference values from `Fixtures/gauss_markov_averaging.py` (numpy), read from the test bundle.
///
/// Regenerate with
/// `python3 Tests/AltimetryTests/Fixtures/gauss_markov_averaging.py > Tests/AltimetryTests/Fixtures/gauss_markov_averaging.json`.
struct GaussMarkovAveragingFixture: Decodable {
    struct Case: Decodable {
        /// σ in metres.
        var sigma: Double
        /// τ in seconds.
        var tau: Double
        /// Δt in seconds.
        var dt: Double
        /// Number of samples.
        var n: Int
        /// Variance of the plain mean, in m².
        var meanVariance: Double
        /// Variance of the GLS estimate, in m² (only for N ≤ 2,000, where a dense solve is affordable).
        var glsVariance: Double?

        enum CodingKeys: String, CodingKey {
            case sigma, tau, dt, n
            case meanVariance = "mean_variance"
            case glsVariance = "gls_variance"
        }
    }

    /// Var(ē)/σ² for an extreme window, from the closed form in 60-digit decimal arithmetic.
    struct HighPrecisionCase: Decodable {
        /// τ in seconds.
        var tau: Double
        /// Δt in seconds.
        var dt: Double
        /// Number of samples, up to 2⁴⁰.
        var n: Int
        /// Var(ē)/σ², dimensionless.
        var meanVarianceFactor: Double

        enum CodingKeys: String, CodingKey {
            case tau, dt, n
            case meanVarianceFactor = "mean_variance_factor"
        }
    }

    var cases: [Case]
    var highPrecision: [HighPrecisionCase]

    enum CodingKeys: String, CodingKey {
        case cases
        case highPrecision = "high_precision"
    }

    static func load() throws -> GaussMarkovAveragingFixture {
        let url = try #require(
            Bundle.module.url(
                forResource: "gauss_markov_averaging", withExtension: "json",
                subdirectory: "Fixtures"))
        return try JSONDecoder().decode(GaussMarkovAveragingFixture.self, from: Data(contentsOf: url))
    }
}
