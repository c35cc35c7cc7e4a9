import Foundation
import Testing

@testable import Altimetry

/// The maximum likelihood through the filter against an independent one: `Fixtures/make_gauss_markov_ml.py`
/// maximises the exact likelihood of a Gauss-Markov error plus white noise on an unknown level with numpy and scipy,
/// on still receivers' series of 2 to 8 h (spreads 2 to 25 m, correlation times 30 s to 1 h).
@Suite("Identification against an independent maximum likelihood")
struct GaussMarkovFixtureTests {
    struct Case: Decodable {
        var sigma_e_m: Double
        var tau_s: Double
        var interval_s: Double
        var gps_alt_m: [Double]
        var ml_sigma_e_m: Double
        var ml_tau_s: Double
        var ml_sigma_g_m: Double
        var se_ln_sigma_e: Double
        var se_ln_tau: Double
    }

    static func cases() throws -> [Case] {
        let url = try #require(
            Bundle.module.url(forResource: "gauss_markov_ml", withExtension: "json", subdirectory: "Fixtures"))
        return try JSONDecoder().decode([Case].self, from: Data(contentsOf: url))
    }

    /// GIVEN the fixture's series at a still station whose barometer reads a constant pressure (no weather), WHEN the
    /// receiver's spread, correlation time and white noise are fitted through the filter, THEN each lands within
    /// half a standard error (the fixture's, on the log scale) of the independent optimum, and the truth lies within
    /// 3 standard errors of ours: the two likelihoods are the same function of the series up to the filter's level
    /// prior (84 m, against the fixture's diffuse one), which moves the optimum by far less.
    @Test("The fit through the filter finds the independent maximum likelihood's σ_e and τ")
    func matchesIndependentFit() throws {
        for c in try Self.cases() {
            let readings = c.gps_alt_m.enumerated().map { k, z in
                AltitudeReading(time: Double(k) * c.interval_s, pressure: 984, gpsAltitude: z)
            }
            var start = AltitudeModelParameters.plain
            // The series has no weather: a weather walk of 10⁻⁹ hPa²/s moves the level by 0.05 m over 8 h.
            start.weatherNoiseDensity = 1e-9
            start.gpsErrorStandardDeviation = 10
            start.gpsCorrelationTime = 300
            let fit = try MaximumLikelihoodFit.fit(readings, free: [.gpsSigma, .gpsTau, .gpsWhite], start: start)
            let sigma = try #require(fit.estimate(of: .gpsSigma)), tau = try #require(fit.estimate(of: .gpsTau))
            let label = "σ \(c.sigma_e_m) m, τ \(c.tau_s) s"
            #expect(
                abs(log(sigma.value / c.ml_sigma_e_m)) < 0.5 * c.se_ln_sigma_e,
                "\(label): σ_e \(sigma.value) against \(c.ml_sigma_e_m)")
            #expect(
                abs(log(tau.value / c.ml_tau_s)) < 0.5 * c.se_ln_tau, "\(label): τ \(tau.value) against \(c.ml_tau_s)")
            #expect(abs(log(tau.value / c.tau_s)) < 3 * c.se_ln_tau, "\(label): τ \(tau.value)")
            #expect(abs(log(sigma.value / c.sigma_e_m)) < 3 * c.se_ln_sigma_e, "\(label): σ_e \(sigma.value)")
        }
    }
}
