import Foundation
import LinearAlgebra
import Optimization

/// The altitude model's parameters that maximise the filter's log-likelihood of a recording.
///
/// The log-likelihood of a linear-Gaussian state-space model is the sum over updates of
/// log N(zₖ; h(x⁻ₖ), Sₖ) = −½ (yₖ²/Sₖ + ln 2π + ln Sₖ), the prediction-error decomposition (Harvey, *Forecasting,
/// Structural Time Series Models and the Kalman Filter*, §3.4), here over every barometer and GPS update. The
/// filter runs with the parameters' model but without the GPS gate, the front detector's noise switch and the
/// adaptive bank, each of which would make the likelihood jump as a parameter crosses a threshold, and without
/// the barometric velocity, an input computed from the barometer's own noise that would make that noise look
/// correlated (with it, a static simulated log's σ_p ran to its lower bound and σ_e came out 10 to 70 % high);
/// the weather tendency stays. So it works on moving recordings as on static ones: the altitude's
/// random walk takes the motion, and the barometer and GPS disagree only through the weather and the GPS error.
///
/// The free parameters are searched on a log scale by `NelderMead`; standard errors come from the observed
/// information, the curvature −∇²ℓ at the optimum (`NumericalHessian`, steps of 0.05 in ln θ), inverted by
/// Cholesky: Cov(ln θ̂) ≈ (−∇²ℓ)⁻¹, and SE(θ̂) = θ̂ SE(ln θ̂).
public struct MaximumLikelihoodFit: Sendable, Equatable {
    /// The free parameters' estimates, standard errors and identifiability, in the order they were given.
    public var estimates: [IdentifiedParameter]
    /// The base parameters with every free parameter at its estimate.
    public var parameters: AltitudeModelParameters
    /// ℓ(θ̂), in nats.
    public var logLikelihood: Double
    /// Evaluations of ℓ spent (search and curvature).
    public var evaluations: Int
    /// Whether the search met its tolerances.
    public var converged: Bool

    /// The estimate of `parameter`, or nil where it was not freed.
    public func estimate(of parameter: IdentifiableParameter) -> IdentifiedParameter? {
        estimates.first { $0.parameter == parameter }
    }

    /// The filter's log-likelihood of `readings` under `parameters` (gate, noise switch, bank, fault monitor and column state off), in nats.
    ///
    /// - Parameters:
    ///   - readings: the track, in time order.
    ///   - parameters: the model's parameters under test.
    /// - Throws: `IdentificationError.filter` if the filter refuses a reading.
    public static func logLikelihood(of readings: [AltitudeReading], parameters: AltitudeModelParameters)
        throws(IdentificationError) -> Double
    {
        var p = parameters
        p.gateStandardDeviations = nil
        p.detectsFronts = false
        p.learnsReceiver = false
        p.barometricVelocityTime = 0
        // A fault monitor's reset is a jump the likelihood cannot score, and the column is not what is identified.
        p.detectsFaults = false
        p.estimatesColumnTemperature = false
        // The barometer's noise is one of the parameters identified: the filter fuses with σ_p, not a learned one.
        p.learnsBarometerNoise = false
        var total = 0.0
        do {
            var filter = try AltitudeFilter(parameters: p)
            for reading in readings {
                let e = try filter.process(reading)
                if let r = e.barometerUpdate { total += r.logLikelihoodIncrement }
                if let r = e.gpsUpdate { total += r.logLikelihoodIncrement }
            }
        } catch {
            throw .filter(error)
        }
        return total
    }

    /// Maximises the log-likelihood of `readings` over `free`, starting from `start`.
    ///
    /// - Parameters:
    ///   - readings: the recording, in time order (time in seconds, pressure in hPa, GPS altitude in metres,
    ///     temperature in kelvin), scored as `logLikelihood(of:parameters:)` scores it.
    ///   - free: the parameters to estimate, each searched on the log scale inside its `bounds`; with none, the
    ///     fit is `start` and its log-likelihood.
    ///   - start: the starting values (and the fixed values of every parameter not in `free`).
    ///   - optimizer: the search's settings.
    /// - Throws: `IdentificationError.filter` if the filter refuses a reading at the start.
    public static func fit(
        _ readings: [AltitudeReading], free: [IdentifiableParameter], start: AltitudeModelParameters,
        optimizer: NelderMead = NelderMead(
            valueTolerance: 1e-2, pointTolerance: 1e-2,
            maximumEvaluations: 1_500)
    ) throws(IdentificationError) -> MaximumLikelihoodFit {
        let startLogLikelihood = try logLikelihood(of: readings, parameters: start)
        guard !free.isEmpty else {
            return MaximumLikelihoodFit(
                estimates: [], parameters: start, logLikelihood: startLogLikelihood, evaluations: 1,
                converged: true)
        }
        let bounds = free.map { (log($0.bounds.lowerBound), log($0.bounds.upperBound)) }
        func parameters(at x: [Double]) -> AltitudeModelParameters {
            var p = start
            for (parameter, value) in zip(free, x) { parameter.set(exp(value), in: &p) }
            return p
        }
        func negativeLogLikelihood(_ x: [Double]) -> Double {
            for (value, (low, high)) in zip(x, bounds) where !(value >= low && value <= high) { return .infinity }
            guard let l = try? logLikelihood(of: readings, parameters: parameters(at: x)) else { return .infinity }
            return -l
        }
        let x0 = free.map { log(min(max($0.value(in: start), $0.bounds.lowerBound), $0.bounds.upperBound)) }
        // Steps of 0.3 in ln θ (a factor 1.35): the start, from the Allan fit, is usually that close. The search
        // stops when ℓ varies by less than 0.01 nats over a simplex of 1 % in every θ, far inside any standard
        // error a recording of useful length gives.
        let search = optimizer.minimize(negativeLogLikelihood, from: x0, step: free.map { _ in 0.3 })
        // Observed information at the optimum, on the log scale, over the parameters inside their bounds; a
        // parameter along which the curvature is not positive is dropped, and the rest tried again.
        let h = 0.05
        let atBound = free.indices.map { i in
            search.point[i] - bounds[i].0 < 2 * h || bounds[i].1 - search.point[i] < 2 * h
        }
        var interior = free.indices.filter { !atBound[$0] }
        var logStandardErrors = [Double?](repeating: nil, count: free.count)
        var evaluations = search.evaluations
        while !interior.isEmpty {
            let subset = interior
            let information = NumericalHessian.at(subset.map { search.point[$0] }, step: subset.map { _ in h }) { y in
                var x = search.point
                for (k, i) in subset.enumerated() { x[i] = y[k] }
                return negativeLogLikelihood(x)
            }
            evaluations += 2 * subset.count * subset.count + 1
            if let covariance = NumericalHessian.inverseOfPositiveDefinite(information) {
                for (k, i) in subset.enumerated() { logStandardErrors[i] = covariance[k, k].squareRoot() }
                break
            }
            // Drop the flattest direction: the smallest diagonal curvature.
            let flattest = subset.indices.min { information[$0, $0] < information[$1, $1] } ?? 0
            interior.remove(at: flattest)
        }
        var estimates: [IdentifiedParameter] = []
        for (i, parameter) in free.enumerated() {
            let value = exp(search.point[i])
            let logSE = logStandardErrors[i]
            var reason: String?
            if atBound[i] {
                reason = "the estimate ran to the search's bound (\(parameter.bounds))"
            } else if logSE == nil {
                reason = "the log-likelihood has no curvature along it at the optimum"
            } else if let logSE, logSE > IdentifiedParameter.identifiableLogStandardError {
                // A factor too large for a Double (the curvature is all but zero) is said in words, never "inf".
                let factor = exp(logSE)
                reason =
                    (factor.isFinite
                        ? "its standard error is a factor \(String(format: "%.2f", factor)) on the log scale"
                        : "its standard error on the log scale is beyond measure (the log-likelihood is all but flat along it)")
                    + "; the recording is too short for it"
            }
            estimates.append(
                IdentifiedParameter(
                    parameter: parameter, value: value, standardError: logSE.map { $0 * value },
                    isIdentifiable: reason == nil, reason: reason))
        }
        // σ_e and τ are a pair: σ_e is the spread of a process whose time scale is τ, and where the recording does
        // not fix τ (seen for less than a few correlation times) its σ_e is the spread seen so far, biased low
        // (2 h logs of a 2 m / 3,600 s receiver: 1.07 m in the seeds where σ_e alone passed). Neither is
        // identified unless both are.
        if let s = estimates.firstIndex(where: { $0.parameter == .gpsSigma }),
            let t = estimates.firstIndex(where: { $0.parameter == .gpsTau }),
            estimates[s].isIdentifiable != estimates[t].isIdentifiable
        {
            for i in [s, t] where estimates[i].isIdentifiable {
                estimates[i].isIdentifiable = false
                estimates[i].reason =
                    "σ_e and τ are identified together, and the other is not: "
                    + (estimates[s].reason ?? estimates[t].reason ?? "")
            }
        }
        return MaximumLikelihoodFit(
            estimates: estimates, parameters: parameters(at: search.point),
            logLikelihood: -search.value,
            evaluations: evaluations,
            converged: search.converged)
    }
}
