import Foundation
import StateEstimation

/// Learns the GPS receiver while the filter fuses: the posterior over a grid of receivers, from the fixes against
/// the barometer's altitude, and the receiver it supports by Bayes factor.
///
/// **The reduced model.** What tells one receiver from another is how the fixes wander against the barometer. With
/// h_b the barometer's standard-atmosphere altitude, the lift d = z − h_b of a fix z is
///
///     d = L + c m + e + w,
///
/// where L = h − h_b is the barometer's level (the weather, in metres), m the height moved as the barometer measured
/// it while the device moved (`MotionState`), c = C/T₀ the air column's scale error on it, e the receiver's
/// correlated error and w its white noise (`GPSReceiverModel`). Between two fixes L changes as the main filter's
/// model says: moving, by the weather, a random walk of density q_b s_B² plus the integral of the Gauss-Markov
/// tendency L̇ (s_B = 8.3 m/hPa); at rest, by −Δh_b exactly (the barometer's change at rest is the weather) plus the
/// rest density of what the rest test cannot see. Each receiver j of the grid, σ_j = 10^(k/5) m for k = 0 to 8
/// (1 m to 40 m) by τ_j ∈ {30, 100, 330, 1,100, 3,600} s, 45 in all (the spreads of a survey receiver in open sky
/// to a phone indoors, in fifths of a decade; the correlation times of multipath, satellite geometry and the
/// ionosphere, in half decades), has its own Kalman filter on (L, L̇, c, e), with c ~ N(0, (σ_C/T₀)²) and L̇ at the
/// weather tendency's prior. The grid is this fine because the likelihood is sharp in the short-lag density 2σ²/τ
/// and weak across it: on a grid of factors 2 and 5, an 8 h log of a 10 m / 300 s receiver preferred 32 m /
/// 3,600 s, whose short-lag density is the nearest.
///
/// **The samples.** The receivers' filters take one fix every Δ = min(15 s, t/20) at most, t the time since their
/// first: a Gauss-Markov error sampled so is still one, so the likelihood stays exact (averaging the fixes of a bin
/// instead biased it: the error's wander within a bin is not white noise). Every fix of the first seconds counts, so
/// that a drone's minute of flight teaches the receiver, and a long track's receivers cost a few thousand
/// multiply-adds every 15 s, a few per cent of the main filter's time at 1 Hz.
///
/// **The posterior.** Each sample multiplies receiver j's weight by the likelihood of the fix under its filter,
/// N(ν_j; 0, S_j), or, where ν_j² > g² S_j (the gate: the fix is an outlier for that receiver, and does not update
/// its filter), by the density of an outlier, ε/D with ε = 1 % and D = 1 km: a receiver is not credited for
/// explaining a glitch it would have rejected. The receivers follow a Markov chain over the grid with a dwell time
/// of `dwellTime`: between samples the weights relax as w ← (1 − p) w + p/J, p = Δ/dwell (Bar-Shalom, Li and
/// Kirubarajan, *Estimation with Applications to Tracking and Navigation*, §11.6, the multiple-model estimator with
/// Markov switching). Each receiver's filter sees every sample and keeps its own state: the interacting estimator's
/// mixing, which restarts every receiver from the leading one's state each sample, erases the evidence a slow receiver
/// needs many samples to build (measured: on simulated 10 m / 300 s static logs it settled on 32 m / 3,600 s).
///
/// **The receiver in use.** The main filter carries one receiver: the one the posterior supports, changed only when
/// another is more probable by a Bayes factor of e³ ≈ 20 ("strong evidence" on Jeffreys' scale), so that the main
/// filter's model does not flicker between receivers the data cannot yet tell apart. With the parameters' white
/// noise and accuracy scale; before the first samples, the parameters' receiver.
public struct ReceiverLearner: Sendable, Equatable, Codable {
    /// The grid's spreads σ_j, in metres: 1 m to 40 m in fifths of a decade.
    public static let spreads: [Meters] = (0...8).map { pow(10, Double($0) / 5) }
    /// The grid's correlation times τ_j, in seconds: 30 s to an hour in half decades.
    public static let correlationTimes: [Seconds] = [30, 100, 330, 1_100, 3_600]
    /// The longest interval between two fixes the receivers' filters take, in seconds.
    static let sampleInterval: Seconds = 15
    /// The dwell time of the Markov chain over the grid, in seconds: 12 h, a receiver's setting (a logger carried
    /// indoors or out, a phone put in a pocket) changes once or twice a day. The weight a receiver keeps, at least
    /// p/J per sample, is what lets it return within minutes of its evidence. (4 h measures the same on the real
    /// recordings, within 0.2 m on each: `altimetry-bench real`.)
    public static let dwellTime: Seconds = 12 * 3_600
    /// ln(ε/D): the log density of an outlier fix, in 1/m.
    static let outlierLogDensity = log(0.01 / 1_000)
    /// ln K, the log Bayes factor by which another receiver must lead the one in use to replace it.
    static let switchingLogFactor = 4.0

    /// One receiver's filter on (L, L̇, c, e) and its log weight.
    public struct Hypothesis: Sendable, Equatable, Codable {
        /// σ_j, in metres, and τ_j, in seconds.
        var spread: Double
        var correlationTime: Double
        /// The mean (L, L̇, c, e), in m, m/s, 1/1 and m.
        public internal(set) var mean: [Double]
        /// The covariance, 4 x 4, row-major (symmetric).
        var covariance: [Double]
        var logWeight: Double

        /// One sample: predicts over `dt` seconds, of which `moving` the device moved (L shifts by `shift`, walks by
        /// `walk` m², and integrates L̇ over the moving time; L̇ decays by `tendencyDecay` with noise `tendencyNoise`
        /// (m²/s²); e decays by `decay` towards its spread), then updates with the fix's lift `lift` (m) against
        /// H = (1, 0, `moved`, 1) with white variance `white` (m²), unless the fix is beyond the gate `gate`;
        /// returns its log-likelihood (or the outlier's).
        mutating func step(
            decay phi: Double, moving: Double, shift: Double, walk: Double, tendencyDecay: Double,
            tendencyNoise: Double, lift d: Double, moved r: Double, white R: Double, gate: Double
        ) -> Double {
            // F = I but F[L, L̇] = moving, F[L̇, L̇] = φ_D, F[e, e] = φ: P ← F P Fᵀ + Q, written out for that F
            // (rows and columns 0 to 3: L, L̇, c, e), in place.
            let a = moving, g = tendencyDecay
            mean[0] += shift + a * mean[1]
            mean[1] *= g
            mean[3] *= phi
            var nu = 0.0, S = 0.0
            var u = (0.0, 0.0, 0.0, 0.0)
            let accepted: Bool = covariance.withUnsafeMutableBufferPointer { P in
                // Rows: row 0 ← row 0 + a row 1; row 1 ← g row 1; row 3 ← φ row 3.
                for j in 0..<4 {
                    P[j] += a * P[4 + j]
                    P[4 + j] *= g
                    P[12 + j] *= phi
                }
                // Columns likewise.
                for i in 0..<4 {
                    P[4 * i] += a * P[4 * i + 1]
                    P[4 * i + 1] *= g
                    P[4 * i + 3] *= phi
                }
                P[0] += walk
                P[5] += tendencyNoise
                P[15] += spread * spread * (1 - phi * phi)
                // Update with H = (1, 0, r, 1): u = P Hᵀ, S = H u + R.
                u = (
                    P[0] + r * P[2] + P[3], P[4] + r * P[6] + P[7], P[8] + r * P[10] + P[11],
                    P[12] + r * P[14] + P[15]
                )
                S = u.0 + r * u.2 + u.3 + R
                nu = d - (mean[0] + r * mean[2] + mean[3])
                guard nu * nu <= gate * gate * S else { return false }
                let k0 = u.0 / S, k1 = u.1 / S, k2 = u.2 / S, k3 = u.3 / S
                for i in 0..<4 {
                    let ki = i == 0 ? k0 : i == 1 ? k1 : i == 2 ? k2 : k3
                    P[4 * i] -= ki * u.0
                    P[4 * i + 1] -= ki * u.1
                    P[4 * i + 2] -= ki * u.2
                    P[4 * i + 3] -= ki * u.3
                }
                return true
            }
            guard accepted else { return ReceiverLearner.outlierLogDensity }
            mean[0] += u.0 / S * nu
            mean[1] += u.1 / S * nu
            mean[2] += u.2 / S * nu
            mean[3] += u.3 / S * nu
            return -0.5 * (log(2 * Double.pi * S) + nu * nu / S)
        }
    }

    /// The receiver of the main filter (see the type's discussion).
    public private(set) var receiver: GPSReceiverModel
    /// The receivers' weights, normalised, in the order of `spreads` × `correlationTimes`.
    public var weights: [Double] {
        let top = hypotheses.map(\.logWeight).max() ?? 0
        let w = hypotheses.map { exp($0.logWeight - top) }
        let total = w.reduce(0, +)
        return w.map { $0 / total }
    }
    /// The receivers' filters and log weights.
    public internal(set) var hypotheses: [Hypothesis]
    /// q_b s_B², the weather's random-walk density on L while the device moves, in m²/s.
    let weatherDensity: Double
    /// The tendency's correlation time τ_Ḃ (s), and its white-noise density on L̇, in m²/s³.
    let tendencyTime: Double
    let tendencyDensity: Double
    /// L̇'s prior variance, in m²/s².
    let tendencyVariance: Double
    /// The gate g, in standard deviations.
    let gate: Double
    /// c's prior variance, (σ_C/T₀)²; zero without the column state.
    let columnVariance: Double
    /// The receiver in use, by index in `hypotheses`: at first the grid's nearest to the parameters' receiver, whose
    /// own numbers the main filter uses until another leads it by the Bayes factor.
    var current: Int?
    /// The last pressure's standard altitude h_b, in metres, and the height moved m.
    private var pressureAltitude: Double?

    /// Whether the learner has a pressure to measure fixes against: not before the first, nor after the barometer
    /// restarted (a step or a stuck sensor) until the next fused one.
    public var measuresFixes: Bool { pressureAltitude != nil }
    private var moved = 0.0
    /// What L gains between samples: the rest shift −Σ Δh_b at rest (m), the walk's variance (m²) and the seconds moved.
    private var shift = 0.0
    private var walk = 0.0
    private var movingTime = 0.0
    /// The times of the first and the last fix the receivers' filters took, in seconds.
    private var firstSampleTime: Double?
    private var lastSampleTime: Double?

    /// The first field of a decoded learner that a learner for `parameters` cannot hold, or nil: its grid and
    /// constants must be those `init(parameters:)` gives, every array its size (a 4-vector and a 4 x 4 matrix per
    /// receiver), every number finite and the receiver in use on the grid. A saved state is checked with it before use.
    func invalidField(for parameters: AltitudeModelParameters) -> String? {
        let fresh = ReceiverLearner(parameters: parameters)
        guard hypotheses.count == fresh.hypotheses.count else { return "learner.hypotheses" }
        for (j, (h, f)) in zip(hypotheses, fresh.hypotheses).enumerated() {
            let field = "learner.hypotheses[\(j)]"
            guard h.spread == f.spread, h.correlationTime == f.correlationTime else { return field + ".spread" }
            guard h.mean.count == 4, h.mean.allSatisfy(\.isFinite) else { return field + ".mean" }
            guard h.covariance.count == 16, h.covariance.allSatisfy(\.isFinite) else { return field + ".covariance" }
            guard !h.logWeight.isNaN, h.logWeight < .infinity else { return field + ".logWeight" }
        }
        guard
            [weatherDensity, tendencyTime, tendencyDensity, tendencyVariance, gate, columnVariance]
                == [
                    fresh.weatherDensity, fresh.tendencyTime, fresh.tendencyDensity, fresh.tendencyVariance, fresh.gate,
                    fresh.columnVariance,
                ]
        else { return "learner (its constants are not those of the state's parameters)" }
        guard current.map({ hypotheses.indices.contains($0) }) ?? true else { return "learner.current" }
        let times = [pressureAltitude, firstSampleTime, lastSampleTime].compactMap { $0 }
        guard (times + [moved, shift, walk, movingTime]).allSatisfy(\.isFinite) else { return "learner" }
        guard receiver.isValid else { return "learner.receiver" }
        return nil
    }

    /// A learner that starts from the receiver of `parameters`, with its weather, column and gate.
    public init(parameters: AltitudeModelParameters) {
        receiver = parameters.receiver
        let s = AltitudeModel.weatherScale
        weatherDensity = parameters.weatherNoiseDensity * s * s
        tendencyTime = parameters.hasTendency ? parameters.weatherTendencyCorrelationTime : 0
        tendencyDensity = parameters.hasTendency ? parameters.weatherTendencyNoiseDensity / pow(3_600, 3) * s * s : 0
        let sD = parameters.hasTendency ? parameters.weatherTendencyPriorStandardDeviation / 3_600 * s : 0
        tendencyVariance = sD * sD
        gate = parameters.gateStandardDeviations ?? .infinity
        let sigmaC = parameters.columnTemperaturePriorStandardDeviation / StandardAtmosphere.seaLevelTemperature
        columnVariance = parameters.estimatesColumnTemperature ? sigmaC * sigmaC : 0
        hypotheses = Self.spreads.flatMap { s in
            Self.correlationTimes.map {
                Hypothesis(
                    spread: s, correlationTime: $0, mean: [0, 0, 0, 0], covariance: [Double](repeating: 0, count: 16),
                    logWeight: 0)
            }
        }
        // The receiver in use until the evidence names another: the grid's nearest to the parameters' (in ln σ, ln τ).
        let r = parameters.receiver
        current = hypotheses.indices.min { a, b in
            func distance(_ j: Int) -> Double {
                let ds = log(hypotheses[j].spread / r.errorStandardDeviation)
                let dt = log(hypotheses[j].correlationTime / r.correlationTime)
                return ds * ds + dt * dt
            }
            return distance(a) < distance(b)
        }
    }

    /// Takes a fused pressure's standard altitude `altitude` (m) and the height the main filter's model moved the
    /// altitude by since the last one, `heightMoved` (m): L = h − h_b changes by that less the barometer's change
    /// (at rest nothing moves, and L takes the barometer's whole change, the weather). It walks meanwhile, over the
    /// `interval` since the last pressure (s), with the rest density `restDensity` (m²/s) at rest and the weather's
    /// density moving, when L̇ also drives it.
    public mutating func observePressure(
        altitude: Meters, heightMoved: Meters, atRest: Bool, restDensity: Double, interval: Seconds
    ) {
        if let last = pressureAltitude {
            shift += heightMoved - (altitude - last)
            moved += heightMoved
            if atRest {
                walk += restDensity * interval
            } else {
                walk += weatherDensity * interval
                movingTime += interval
            }
        }
        pressureAltitude = altitude
    }

    /// Forgets the last pressure altitude (after the barometer stepped or stuck): the next one starts afresh.
    public mutating func restartBarometer() { pressureAltitude = nil }

    /// Takes a fix `altitude` (m) at `time` with its reported accuracy `accuracy` (m, one sigma); returns whether
    /// the receivers' filters took it (the mixture is then new).
    @discardableResult
    public mutating func observeFix(altitude: Meters, accuracy: Meters?, at time: Double) -> Bool {
        let interval = min(Self.sampleInterval, (time - (firstSampleTime ?? time)) / 20)
        guard let hb = pressureAltitude, time - (lastSampleTime ?? -.infinity) >= interval else { return false }
        if firstSampleTime == nil { firstSampleTime = time }
        let d = altitude - hb
        let white = receiver.whiteNoiseStandardDeviation * receiver.whiteNoiseStandardDeviation
        let reported = accuracy.map { $0 * receiver.accuracyScale }
        defer {
            shift = 0
            walk = 0
            movingTime = 0
            lastSampleTime = time
        }
        guard let last = lastSampleTime else {
            for j in hypotheses.indices {
                let s = hypotheses[j].spread
                hypotheses[j].mean = [d, 0, 0, 0]
                var P = [Double](repeating: 0, count: 16)
                P[0] = 1e6
                P[5] = tendencyVariance
                P[10] = columnVariance
                P[15] = s * s
                hypotheses[j].covariance = P
            }
            return false
        }
        let dt = max(0, time - last)
        relax(switching: min(1, dt / Self.dwellTime))
        let tendencyDecay = tendencyTime > 0 ? exp(-dt / tendencyTime) : 1
        let tendencyNoise =
            tendencyTime > 0 ? tendencyDensity * tendencyTime / 2 * (1 - tendencyDecay * tendencyDecay) : 0
        // φ_j depends on τ_j alone: one exponential per correlation time of the grid.
        let times = Self.correlationTimes
        let decays = (
            exp(-dt / times[0]), exp(-dt / times[1]), exp(-dt / times[2]), exp(-dt / times[3]), exp(-dt / times[4])
        )
        for j in hypotheses.indices {
            let k = j % times.count
            let phi = k == 0 ? decays.0 : k == 1 ? decays.1 : k == 2 ? decays.2 : k == 3 ? decays.3 : decays.4
            let s2 = hypotheses[j].spread * hypotheses[j].spread
            // The fix's white variance under receiver j: max(σ_w², (k a)² − σ_j²).
            let R = reported.map { max(white, $0 * $0 - s2) } ?? white
            hypotheses[j].logWeight += hypotheses[j].step(
                decay: phi, moving: min(movingTime, dt), shift: shift, walk: walk, tendencyDecay: tendencyDecay,
                tendencyNoise: tendencyNoise, lift: d, moved: moved, white: R, gate: gate)
        }
        let top = hypotheses.map(\.logWeight).max() ?? 0
        for j in hypotheses.indices { hypotheses[j].logWeight -= top }
        hasEvidence = true
        updateReceiver()
        return true
    }

    /// The posterior over every receiver at the last sample, as one Gaussian: the mixture's mean and covariance of
    /// (L, L̇, c, e), x̄ = Σ w_j x_j and P̄ = Σ w_j (P_j + (x_j − x̄)(x_j − x̄)ᵀ) (row-major, 4 x 4), the moments of the
    /// model-averaged posterior (the IMM's output combination, Bar-Shalom et al. §11.6.6). Nil before the second sample.
    public var mixture: (mean: [Double], covariance: [Double])? {
        guard hasEvidence else { return nil }
        let w = weights
        var mean = [0.0, 0, 0, 0]
        for (j, h) in hypotheses.enumerated() { for a in 0..<4 { mean[a] += w[j] * h.mean[a] } }
        var covariance = [Double](repeating: 0, count: 16)
        for (j, h) in hypotheses.enumerated() {
            for a in 0..<4 {
                for b in 0..<4 {
                    covariance[4 * a + b] +=
                        w[j] * (h.covariance[4 * a + b] + (h.mean[a] - mean[a]) * (h.mean[b] - mean[b]))
                }
            }
        }
        return (mean, covariance)
    }

    /// Whether a sample beyond the first has updated the receivers' filters.
    public private(set) var hasEvidence = false

    /// Moves every receiver's level by `shift` metres and widens it by `variance` m² beyond its receiver's spread,
    /// forgetting e (zero at σ_j²): the fault monitor's reset, which found the level wrong (`FaultMonitor`).
    public mutating func resetLevel(shift: Double, variance: Double) {
        for j in hypotheses.indices {
            let s2 = hypotheses[j].spread * hypotheses[j].spread
            hypotheses[j].mean[0] += shift + hypotheses[j].mean[3]
            hypotheses[j].mean[3] = 0
            var P = hypotheses[j].covariance
            P[0] += variance + s2
            for k in 0..<4 where k != 3 {
                P[4 * k + 3] = 0
                P[12 + k] = 0
            }
            P[15] = s2
            hypotheses[j].covariance = P
        }
    }

    /// The Markov chain's transition, p_ij = (1 − p) δ_ij + p/J: w ← (1 − p) w + p/J.
    mutating func relax(switching p: Double) {
        let J = Double(hypotheses.count)
        var total = 0.0
        for h in hypotheses { total += exp(h.logWeight) }
        for j in hypotheses.indices {
            hypotheses[j].logWeight = log((1 - p) * exp(hypotheses[j].logWeight) / total + p / J)
        }
    }

    /// Sets `receiver` to the receiver the posterior supports by a Bayes factor of e⁴ over the one in use (see the
    /// type).
    private mutating func updateReceiver() {
        guard hasEvidence else { return }
        let w = hypotheses.map(\.logWeight)
        let best = w.indices.max { w[$0] < w[$1] } ?? 0
        if let c = current, w[best] - w[c] < Self.switchingLogFactor { return }
        guard current != best else { return }
        current = best
        receiver.errorStandardDeviation = hypotheses[best].spread
        receiver.correlationTime = hypotheses[best].correlationTime
    }
}
