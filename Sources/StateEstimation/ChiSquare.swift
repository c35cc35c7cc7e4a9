import Foundation

/// The chi-square distribution χ²(k): its distribution function and its quantiles, for gates and consistency tests.
///
/// The distribution function is the regularised incomplete gamma function, F(x; k) = P(k/2, x/2), evaluated by
/// its power series below a + 1 and by its continued fraction (modified Lentz) above, as in Press et al.,
/// *Numerical Recipes*, §6.2. Quantiles start from the Wilson–Hilferty approximation
/// x ≈ k (1 − 2/(9k) + z √(2/(9k)))³, with z the standard normal quantile, and are refined by safeguarded
/// Newton steps on F (bisection whenever Newton would leave the bracket), to about 1e-14 relative. Upper-tail
/// probabilities are solved on Q = 1 − P directly, so that a 5-sigma gate (p = 1 − 5.7e-7) keeps its digits.
public enum ChiSquare {
    /// The probability that a χ²(k) variable is at most x: P(k/2, x/2).
    ///
    /// - Parameters:
    ///   - x: the value at which the distribution function is evaluated.
    ///   - k: the degrees of freedom, at least 1.
    /// - Precondition: k ≥ 1.
    public static func cumulativeProbability(_ x: Double, degreesOfFreedom k: Int) -> Double {
        precondition(k >= 1, "chi-square needs at least one degree of freedom, got \(k)")
        if x <= 0 { return 0 }
        if x == .infinity { return 1 }
        return regularizedGamma(a: Double(k) / 2, x: x / 2).lower
    }

    /// The probability that a χ²(k) variable exceeds x: Q(k/2, x/2), accurate far into the tail.
    ///
    /// - Parameters:
    ///   - x: the value the variable must exceed.
    ///   - k: the degrees of freedom, at least 1.
    /// - Precondition: k ≥ 1.
    public static func survivalProbability(_ x: Double, degreesOfFreedom k: Int) -> Double {
        precondition(k >= 1, "chi-square needs at least one degree of freedom, got \(k)")
        if x <= 0 { return 1 }
        if x == .infinity { return 0 }
        return regularizedGamma(a: Double(k) / 2, x: x / 2).upper
    }

    /// The quantile x with P(χ²(k) ≤ x) = p.
    ///
    /// - Parameters:
    ///   - p: the probability P(χ²(k) ≤ x), strictly between 0 and 1.
    ///   - k: the degrees of freedom, at least 1.
    /// - Precondition: 0 < p < 1 and k ≥ 1.
    /// - Complexity: typically 3 to 6 evaluations of the incomplete gamma function, each O(√k) terms.
    public static func quantile(probability p: Double, degreesOfFreedom k: Int) -> Double {
        precondition(k >= 1, "chi-square needs at least one degree of freedom, got \(k)")
        return quantile(probability: p, degreesOfFreedom: Double(k))
    }

    /// The quantile x with P(χ²(k) ≤ x) = p, for any real number of degrees of freedom k > 0.
    ///
    /// Real degrees of freedom arise as the equivalent degrees of freedom of a variance estimate (an Allan
    /// variance's confidence interval, NIST SP 1065 eq. 45).
    ///
    /// - Parameters:
    ///   - p: the probability P(χ²(k) ≤ x), strictly between 0 and 1.
    ///   - kd: the degrees of freedom k, a positive finite real number.
    /// - Precondition: 0 < p < 1 and k > 0.
    public static func quantile(probability p: Double, degreesOfFreedom kd: Double) -> Double {
        precondition(p > 0 && p < 1, "a chi-square quantile needs 0 < p < 1, got \(p)")
        precondition(kd > 0 && kd.isFinite, "chi-square needs a positive number of degrees of freedom, got \(kd)")
        let upperTail = p > 0.5
        let target = upperTail ? 1 - p : p
        // g(x) = F(x) − p, written on whichever tail keeps its digits; increasing in x either way.
        func g(_ x: Double) -> Double {
            let (lower, upper) = regularizedGamma(a: kd / 2, x: x / 2)
            return upperTail ? target - upper : lower - target
        }
        let c = 2 / (9 * kd)
        var x = kd * pow(max(1 - c + standardNormalQuantile(p) * c.squareRoot(), 1e-3), 3)
        var low = 0.0
        var high = max(2 * x, kd + 10)
        while g(high) < 0 { high *= 2 }
        if !(x > low && x < high) { x = 0.5 * (low + high) }
        for _ in 0..<200 {
            let value = g(x)
            if value == 0 { return x }
            if value < 0 { low = x } else { high = x }
            var next = x - value / density(x, degreesOfFreedom: kd)
            if !(next > low && next < high) || !next.isFinite { next = 0.5 * (low + high) }
            if abs(next - x) <= 1e-15 * x { return next }
            x = next
            if high - low <= 1e-15 * high { break }
        }
        return x
    }

    /// The χ²(k) density at x > 0, in log space to avoid overflow for large k.
    static func density(_ x: Double, degreesOfFreedom k: Double) -> Double {
        let a = k / 2
        let logDensity: Double = (a - 1) * log(x) - 0.5 * x - a * M_LN2 - lgamma(a)
        return exp(logDensity)
    }

    /// The regularised incomplete gamma functions P(a, x) and Q(a, x) = 1 − P(a, x), for a > 0 and x > 0.
    static func regularizedGamma(a: Double, x: Double) -> (lower: Double, upper: Double) {
        let logPrefactor = a * log(x) - x - lgamma(a)
        if x < a + 1 {
            // P(a, x) = e^{−x} x^a / Γ(a) Σₙ xⁿ / (a (a+1) … (a+n)).
            var term = 1 / a
            var sum = term
            var denominator = a
            for _ in 0..<10_000 {
                denominator += 1
                term *= x / denominator
                sum += term
                if abs(term) < abs(sum) * 1e-17 { break }
            }
            let lower = min(1, sum * exp(logPrefactor))
            return (lower, 1 - lower)
        }
        // Q(a, x) = e^{−x} x^a / Γ(a) · 1/(x + 1 − a − 1·(1 − a)/(x + 3 − a − …)), modified Lentz.
        let tiny = 1e-300
        var b = x + 1 - a
        var c = 1 / tiny
        var d = 1 / b
        var h = d
        for i in 1...10_000 {
            let an = -Double(i) * (Double(i) - a)
            b += 2
            d = an * d + b
            if abs(d) < tiny { d = tiny }
            c = b + an / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < 1e-16 { break }
        }
        let upper = min(1, exp(logPrefactor) * h)
        return (1 - upper, upper)
    }

    /// The standard normal quantile Φ⁻¹(p), by Acklam's rational approximation (relative error below 1.2e-9),
    /// which is all the quantile's starting point needs.
    static func standardNormalQuantile(_ p: Double) -> Double {
        let a: [Double] = [
            -3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
            1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00,
        ]
        let b: [Double] = [
            -5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
            6.680131188771972e+01, -1.328068155288572e+01, 1,
        ]
        let c: [Double] = [
            -7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
            -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00,
        ]
        let d: [Double] = [
            7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
            3.754408661907416e+00, 1,
        ]
        let low = 0.02425
        if p < low || p > 1 - low {
            let q = (-2 * log(min(p, 1 - p))).squareRoot()
            let value = horner(c, q) / horner(d, q)
            return p < low ? value : -value
        }
        let q = p - 0.5
        let r = q * q
        return horner(a, r) * q / horner(b, r)
    }

    /// The polynomial with `coefficients` (highest degree first) at x.
    private static func horner(_ coefficients: [Double], _ x: Double) -> Double {
        var result = 0.0
        for coefficient in coefficients { result = result * x + coefficient }
        return result
    }
}
