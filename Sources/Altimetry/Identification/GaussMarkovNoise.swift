import Foundation
import Optimization
import StateEstimation

/// A first-order Gauss-Markov error plus white noise, sampled every τ₀: the GPS altitude error of the model.
///
/// e_k = φ e_{k−1} + w_k with φ = exp(−τ₀/τ) and stationary spread σ_e, plus white noise of spread σ_g. Its
/// Allan variance at m samples (the exact discrete form, not the continuous-time approximation, so that short
/// averaging times are right too) is Var(ȳ_m) − Cov(ȳ_m, ȳ'_m) of two adjacent m-sample averages:
///
///     Var(ȳ_m)        = σ_e²/m² [m + 2 Σ_{k=1}^{m−1} (m − k) φᵏ] + σ_g²/m
///                     = σ_e²/m² [m + 2 φ (m(1 − φ) − (1 − φᵐ)) / (1 − φ)²] + σ_g²/m
///     Cov(ȳ_m, ȳ'_m)  = σ_e²/m² φ S²,   S = Σ_{a=0}^{m−1} φᵃ = (1 − φᵐ)/(1 − φ)
///
/// with 1 − φ and 1 − φᵐ taken through `expm1`, so that τ ≫ τ₀ keeps its digits.
public struct GaussMarkovNoise: Sendable, Equatable, Codable {
    /// σ_e, the correlated error's stationary spread, in the series' unit (metres).
    public var correlatedStandardDeviation: Double
    /// τ, the correlation time, in seconds.
    public var correlationTime: Seconds
    /// σ_g, the white noise's spread, in the series' unit.
    public var whiteStandardDeviation: Double

    /// Noise with σ_e and σ_g in the series' unit and τ in seconds.
    ///
    /// - Parameters:
    ///   - correlatedStandardDeviation: σ_e, the correlated error's stationary standard deviation, in the series' unit.
    ///   - correlationTime: τ, its correlation time, in seconds.
    ///   - whiteStandardDeviation: σ_g, the white noise's standard deviation, in the series' unit.
    public init(correlatedStandardDeviation: Double, correlationTime: Seconds, whiteStandardDeviation: Double) {
        self.correlatedStandardDeviation = correlatedStandardDeviation
        self.correlationTime = correlationTime
        self.whiteStandardDeviation = whiteStandardDeviation
    }

    /// The Allan variance at an average of m samples spaced τ₀ seconds apart.
    ///
    /// - Parameters:
    ///   - m: the averaging factor, at least 1.
    ///   - tau0: τ₀, the sampling interval, in seconds.
    public func allanVariance(averagingFactor m: Int, samplingInterval tau0: Seconds) -> Double {
        let md = Double(m)
        let d = tau0 / correlationTime
        let phi = exp(-d)
        let oneMinusPhi = -expm1(-d)
        let oneMinusPhiM = -expm1(-md * d)
        let sumWeights = phi * (md * oneMinusPhi - oneMinusPhiM) / (oneMinusPhi * oneMinusPhi)
        let variance = (md + 2 * sumWeights) / (md * md)
        let s = oneMinusPhiM / oneMinusPhi
        let covariance = phi * s * s / (md * md)
        let se2 = correlatedStandardDeviation * correlatedStandardDeviation
        return se2 * (variance - covariance) + whiteStandardDeviation * whiteStandardDeviation / md
    }
}

extension GaussMarkovNoise {
    /// The Gauss-Markov-plus-white model whose Allan deviation best matches `allan`, by weighted least squares on
    /// the logarithm of the Allan variance.
    ///
    /// Each point's log variance has a spread of about √(2/ν) (a chi-square with ν degrees of freedom), so the
    /// fit minimises J = Σ (ν/4) (ln σ̂² − ln σ²_model)², over ln σ_e, ln τ and ln σ_g, with `NelderMead`. It
    /// starts from σ_g = σ(τ₀), σ_e = the largest deviation and τ = the averaging time of that peak / 1.89 (where a
    /// Gauss-Markov process's Allan deviation peaks). The neighbouring points of an overlapping Allan deviation are
    /// correlated, so J is not a likelihood: the fit is a starting point and a cross-check for the
    /// maximum-likelihood fit through the filter, which gives the standard errors.
    ///
    /// - Throws: `IdentificationError.tooFewSamples` with fewer than 3 averaging times.
    public static func fitted(to allan: AllanDeviation) throws(IdentificationError) -> GaussMarkovNoise {
        let points = allan.points
        guard points.count >= 3 else { throw .tooFewSamples(needed: 3, found: points.count) }
        let peak = points.max { $0.deviation < $1.deviation } ?? points[0]
        let floor = 1e-6 * max(peak.deviation, 1e-300)
        let start = [
            log(max(peak.deviation, floor) * 1.2), log(max(peak.averagingTime / 1.89, allan.samplingInterval)),
            log(max(points[0].deviation, floor)),
        ]
        let tau0 = allan.samplingInterval
        func objective(_ x: [Double]) -> Double {
            guard x.allSatisfy({ abs($0) < 30 }) else { return .infinity }
            let model = GaussMarkovNoise(
                correlatedStandardDeviation: exp(x[0]), correlationTime: exp(x[1]),
                whiteStandardDeviation: exp(x[2]))
            var j = 0.0
            for p in points where p.deviation > 0 {
                let r =
                    2 * log(p.deviation)
                    - log(model.allanVariance(averagingFactor: p.averagingFactor, samplingInterval: tau0))
                j += p.degreesOfFreedom / 4 * r * r
            }
            return j
        }
        let best = NelderMead(valueTolerance: 1e-10, pointTolerance: 1e-7, maximumEvaluations: 4_000)
            .minimize(objective, from: start, step: [0.5, 0.7, 0.5])
        return GaussMarkovNoise(
            correlatedStandardDeviation: exp(best.point[0]), correlationTime: exp(best.point[1]),
            whiteStandardDeviation: exp(best.point[2]))
    }
}

extension GaussMarkovNoise {
    /// Why a recording of `duration` seconds sampled every `samplingInterval` seconds does not determine σ_e and τ
    /// of this fit; nil when it does.
    ///
    /// The same verdict as the maximum-likelihood fit's (`IdentifiedParameter.identifiableLogStandardError`): a
    /// Gauss-Markov error seen over T seconds has a relative standard error of about √(τ/2T) on σ_e (the number
    /// of independent correlation times in the record), and τ worse, so a fit with √(τ/2T) > 0.5, τ > T/2, is the
    /// spread seen so far rather than the receiver's. Its Allan deviation would peak at 1.89 τ, beyond the longest
    /// averaging time the record allows (T/2). At the other end, a τ below the sampling interval τ₀ makes the
    /// correlated error indistinguishable from the white noise at every averaging time the series has. σ_e and
    /// τ are identified together or not at all; σ_g, set by the shortest averaging times, is always determined.
    ///
    /// - Parameters:
    ///   - duration: T, the recording's length, in seconds.
    ///   - tau0: τ₀, the spacing of its samples, in seconds.
    public func notIdentifiableReason(duration: Seconds, samplingInterval tau0: Seconds) -> String? {
        let tau = correlationTime
        let relative = (tau / (2 * max(duration, 1e-9))).squareRoot()
        if relative > IdentifiedParameter.identifiableLogStandardError {
            return String(
                format:
                    "tau %.3g s is beyond half the recording's %.3g s (relative error sqrt(tau/2T) = %.2g > %.1f): "
                    + "sigma_e is the spread seen so far",
                tau, duration, relative, IdentifiedParameter.identifiableLogStandardError)
        }
        if tau < tau0 {
            return String(
                format: "tau %.3g s is below the sampling interval %.3g s: the correlated error looks white", tau, tau0)
        }
        return nil
    }
}
