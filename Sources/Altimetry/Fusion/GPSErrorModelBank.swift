import Foundation
import StateEstimation

/// A bank of altitude filters that differ only in their GPS error model, weighted by how well each predicts the
/// readings: the filter learns the receiver while it fuses.
///
/// A static multiple-model estimator (Magill 1965; Bar-Shalom, Li and Kirubarajan, *Estimation with
/// Applications to Tracking and Navigation*, §11.6.2) with a slow switching prior. Member j is an
/// `AltitudeFilter` whose GPS error is the Gauss-Markov process of hypothesis j (σ_e,j, τ_j, white σ_g,j) and whose
/// fixes read the reported accuracy at the hypothesis' scale (`verticalAccuracyScales`); all share the rest of the
/// model. After each reading its weight is multiplied by the likelihood of what it saw,
///
///     w_j ← w_j · exp(Σ log N(z; ẑ_j, S_j))   over the reading's barometer and GPS updates,
///
/// and the weights are normalised. The normalised innovation squared in each term is capped at the gate's 25, so
/// that one multipath outlier cannot decide between receivers, and a fix that the mixture's own prediction calls an
/// outlier counts in no weight (`isOutlierForMixture(_:)`). Before each reading the weights relax towards
/// uniform as a Markov chain with a mean dwell time of `switchingTime` (one hour) would, w ← (1 − ε) w + ε/K with
/// ε = 1 − exp(−Δt / switchingTime): a receiver's surroundings change (a logger moved indoors), and a hypothesis
/// the data ruled out an hour ago is revived within minutes of evidence rather than never.
///
/// The estimate is the mixture's: mean x̄ = Σ w_j x_j and variance Σ w_j (σ_j² + (x_j − x̄)²), so the reported
/// sigma includes the spread between the models. Early on, and on any recording shorter than the correlation
/// times at stake, the likelihoods cannot tell the models apart, the weights stay near the prior, and the sigma
/// rests on the spread of the hypotheses: it errs on the safe side (see `Docs/identification.md`).
///
/// The hypotheses are about the receiver only: before each reading every member takes the bank's marginal of the
/// column (`shareColumn()`), and after it the weather noise regime, ordinary or front, that the weighted members'
/// detectors call (`shareWeatherRegime()`), so that the likelihoods compare receivers, not atmospheres.
///
/// Every member runs the model's fault rules (`SensorFaultMonitor`), and the bank reports the episodes of the member
/// leading when each began (`recordEpisodes(at:)`). A fix moves the weights only near a fused pressure
/// (`barometerEvidenceTime`); and while the member of the parameters' own model holds its level open at an
/// unsettled start (`AltitudeFilter.heldLevelOpen(at:)`), the weights are the prior's: a logger's cold start that
/// fades over ten minutes handed the weight to the 30 m hypotheses at its second fix, which took the fade for their
/// error.
///
/// Fronts are those of the leading member, reported only where the bank is sure of the receiver
/// (`recordFronts(at:)`). Fix counts and the update records are the leading member's (the one of largest weight).
public struct GPSErrorModelBank: Sendable {
    /// One GPS error model of the bank.
    public struct Hypothesis: Sendable, Equatable, Hashable, Codable {
        /// σ_e, in metres.
        public var correlatedStandardDeviation: Meters
        /// τ, in seconds.
        public var correlationTime: Seconds
        /// σ_g, in metres.
        public var whiteStandardDeviation: Meters
        /// A factor on the parameters' `gpsVerticalAccuracyScale`: how far this hypothesis trusts the receiver's
        /// reported accuracy (1 as the parameters say, 0.5 a receiver that reports twice its error).
        public var verticalAccuracyScale: Double

        /// A hypothesis with σ_e and σ_g in metres, τ in seconds and a factor on the reported accuracy's scale.
        ///
        /// - Parameters:
        ///   - correlatedStandardDeviation: σ_e, the correlated error's stationary standard deviation, in metres.
        ///   - correlationTime: τ, its correlation time, in seconds.
        ///   - whiteStandardDeviation: σ_g, the white noise's standard deviation, in metres.
        ///   - verticalAccuracyScale: a factor on the parameters' scale of the reported vertical accuracy.
        public init(
            correlatedStandardDeviation: Meters, correlationTime: Seconds, whiteStandardDeviation: Meters,
            verticalAccuracyScale: Double = 1
        ) {
            self.correlatedStandardDeviation = correlatedStandardDeviation
            self.correlationTime = correlationTime
            self.whiteStandardDeviation = whiteStandardDeviation
            self.verticalAccuracyScale = verticalAccuracyScale
        }
    }

    /// The spreads of the hypotheses, in metres: from a receiver that keeps its 0.5 m to a poor antenna's 30 m.
    public static let standardDeviations: [Meters] = [0.5, 2, 10, 30]
    /// Hypotheses with σ_e below this many metres take part only once a fix reports a vertical accuracy at most
    /// this large: a receiver that keeps 0.5 m says so. Without that evidence a slow GPS wander and the weather's
    /// random walk explain a static logger's data about equally well, and the bank chose 0.5 m on both Bergen
    /// loggers (coverage 0.17 and 0.44 of their static stretches, NEES 57 and 102).
    public static let claimedAccuracyThreshold: Meters = 1
    /// The factors on the reported vertical accuracy's scale: the report as the parameters read it, and a receiver
    /// that reports twice its error.
    ///
    /// A fix's noise beyond the GPS error state is R = max(σ_g², (k a)² − σ_e²) for a report a, so a report can only
    /// widen it. A receiver whose 10 m error wanders over an hour but that reports 20 m makes R ≈ (17 m)² for every
    /// hypothesis of 10 m or less, where its fixes are smooth; only the 30 m hypotheses then predict them, and on a
    /// static 4 h log the bank's sigma was covered 0.42 of the time. The twin of each hypothesis with k halved
    /// predicts such a receiver as it is. A receiver that reports less than its error needs no twin: a report under
    /// σ_e leaves R at σ_g², and the grid's σ_e carries the error. A twin runs only once a report tells it from its
    /// base member (`admit(reportedAccuracy:)`).
    public static let verticalAccuracyScales: [Double] = [1, 0.5]
    /// The correlation times of the hypotheses, in seconds: fast multipath, satellite geometry, ionosphere.
    public static let correlationTimes: [Seconds] = [30, 300, 3_600]
    /// The mean dwell time of the switching prior, in seconds.
    public static let switchingTime: Seconds = 3_600
    /// The cap on each update's normalised innovation squared in the weights (the gate's 5² = 25).
    public static let normalizedInnovationCap = 25.0
    /// A fix counts in the weights only within this many seconds of a fused pressure.
    ///
    /// A fix measures the altitude plus the GPS error; only the barometer says how the altitude moved, so without
    /// it the hypotheses are told apart by how each splits the fixes' wander between motion and receiver, not by the
    /// receiver. A barometer stuck for an hour during a 300 m climb let small hypotheses explain a 10 m receiver's
    /// fixes as motion and take the weight: the bank's sigma fell to 3.3 m where the fixed model's was 9.7 m, and the
    /// stress benchmark's stuck scenario was covered 0.48 of the time (0.77 with this rule, the fixed model 0.69).
    /// Sixty seconds spans a logger's 30-s pressures.
    public static let barometerEvidenceTime: Seconds = 60

    /// The hypotheses for `parameters`: the grid of `standardDeviations` × `correlationTimes`, white noise
    /// min(σ_g, σ_e), plus the parameters' own model if it is not on the grid; then the same list again at each
    /// further factor of `verticalAccuracyScales`, in that order.
    public static func hypotheses(for parameters: AltitudeModelParameters) -> [Hypothesis] {
        let white = parameters.gpsWhiteNoiseStandardDeviation
        var list = standardDeviations.flatMap { s in
            correlationTimes.map {
                Hypothesis(correlatedStandardDeviation: s, correlationTime: $0, whiteStandardDeviation: min(white, s))
            }
        }
        let own = ownHypothesis(for: parameters)
        if !list.contains(own) { list.append(own) }
        return verticalAccuracyScales.flatMap { k in
            list.map { h in
                var twin = h
                twin.verticalAccuracyScale = k
                return twin
            }
        }
    }

    /// The parameters' own GPS error model as a hypothesis, at the parameters' own scale of the reported accuracy.
    static func ownHypothesis(for parameters: AltitudeModelParameters) -> Hypothesis {
        Hypothesis(
            correlatedStandardDeviation: parameters.gpsErrorStandardDeviation,
            correlationTime: parameters.gpsCorrelationTime,
            whiteStandardDeviation: parameters.gpsWhiteNoiseStandardDeviation)
    }

    /// The switching prior's log weights: uniform over the hypotheses that take part, −∞ for the others.
    static func priorLogWeights(isEnabled: [Bool]) -> [Double] {
        let enabledCount = Double(isEnabled.filter { $0 }.count)
        return isEnabled.map { $0 ? -log(enabledCount) : -.infinity }
    }

    /// A member's parameters: `parameters` with `hypothesis`'s GPS error model, as a single model with the
    /// parameters' own fault rules (`recordEpisodes(at:)`).
    public static func memberParameters(_ parameters: AltitudeModelParameters, for hypothesis: Hypothesis)
        -> AltitudeModelParameters
    {
        var p = parameters
        p.adaptsGPSErrorModel = false
        p.gpsErrorStandardDeviation = hypothesis.correlatedStandardDeviation
        p.gpsCorrelationTime = hypothesis.correlationTime
        p.gpsWhiteNoiseStandardDeviation = hypothesis.whiteStandardDeviation
        p.gpsVerticalAccuracyScale = parameters.gpsVerticalAccuracyScale * hypothesis.verticalAccuracyScale
        return p
    }

    /// The members, one per hypothesis, in the order of `hypotheses(for:)`.
    public internal(set) var members: [AltitudeFilter]
    /// The members' hypotheses.
    public let hypotheses: [Hypothesis]
    /// The members' log weights, normalised (log Σ exp = 0).
    public internal(set) var logWeights: [Double]
    /// Whether each hypothesis takes part (see `claimedAccuracyThreshold`).
    public internal(set) var isEnabled: [Bool]
    /// Weather fronts, in order of start: those the leading member saw begin while the bank was sure of the receiver
    /// (`recordFronts(at:)`).
    public internal(set) var fronts: [WeatherFront] = []
    /// The time of the last reading, nil before the first.
    public internal(set) var time: Double?
    /// o_j, the share of each member's probability mass that its own state represents rather than the switching
    /// prior's recent inflow (`reseedInflowDominatedMembers(elapsed:)`), in 0 ... 1.
    public internal(set) var ownShares: [Double]
    /// Fault episodes, in order of start: those of the member leading when each began (`recordEpisodes(at:)`).
    public internal(set) var episodes: [FilterEpisode] = []
    /// The time of the last reading whose pressure a member fused, nil before the first.
    public internal(set) var lastFusedPressureTime: Double?
    /// The number of hypotheses at the parameters' own scale of the reported accuracy: the first `baseCount`
    /// members, whose twins at the further `verticalAccuracyScales` follow in the same order.
    public let baseCount: Int
    /// The member that runs the parameters' own GPS error model, whose unsettled start holds the weights at the
    /// prior (`process(_:)`).
    let ownIndex: Int

    /// A bank for `parameters` (whose `adaptsGPSErrorModel` is ignored: members are single models).
    ///
    /// - Parameters:
    ///   - parameters: the model's parameters, the starting point of every hypothesis.
    ///   - recordsRun: keep every epoch of each member for the smoother (memory grows with the track).
    /// - Throws: `AltitudeModelError.invalidParameter`.
    public init(parameters: AltitudeModelParameters, recordsRun: Bool = false) throws(AltitudeModelError) {
        hypotheses = Self.hypotheses(for: parameters)
        var members: [AltitudeFilter] = []
        for h in hypotheses {
            var member = try AltitudeFilter(
                parameters: Self.memberParameters(parameters, for: h), recordsRun: recordsRun)
            member.followsSharedWeatherRegime = true
            members.append(member)
        }
        self.members = members
        baseCount = hypotheses.count / Self.verticalAccuracyScales.count
        ownIndex = hypotheses.firstIndex(of: Self.ownHypothesis(for: parameters)) ?? 0
        isEnabled = hypotheses.map {
            $0.correlatedStandardDeviation >= Self.claimedAccuracyThreshold && $0.verticalAccuracyScale == 1
        }
        logWeights = Self.priorLogWeights(isEnabled: isEnabled)
        ownShares = hypotheses.map { _ in 1 }
    }

    /// The weights, Σ = 1.
    public var weights: [Double] { logWeights.map(Self.weight(fromLog:)) }

    /// e^x for a log weight x: 0 below −746, where `exp` gives 0 too, but through its underflow path (which sets
    /// errno, ten times the cost): a member the data has ruled out has a log weight of −10⁴ and less, read a dozen
    /// times a reading.
    @inline(__always) static func weight(fromLog x: Double) -> Double { x < -746 ? 0 : exp(x) }

    /// Calls `body` with the weights (as `weights`, in a buffer on the stack rather than an array: the bank asks
    /// for them twice a reading).
    func withWeights<Result>(_ body: (UnsafeBufferPointer<Double>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: logWeights.count) { w in
            for j in logWeights.indices { w[j] = Self.weight(fromLog: logWeights[j]) }
            return body(UnsafeBufferPointer(w))
        }
    }

    /// The number of hypotheses that take part.
    var enabledCount: Int { isEnabled.reduce(0) { $1 ? $0 + 1 : $0 } }

    /// The index of the member of largest weight.
    public var leadingIndex: Int { logWeights.indices.max { logWeights[$0] < logWeights[$1] } ?? 0 }

    /// Whether member `j` processes readings: every member at the parameters' own scale (one that does not take part
    /// yet keeps a state for when it does), and a twin at another scale once it takes part. Until then the twin's
    /// state would be its base member's to the last bit, and its base member's weight stands for both.
    public func isRunning(_ j: Int) -> Bool { j < baseCount || isEnabled[j] }

    /// The member whose estimate stands for member `j`: itself if it runs, else its base member.
    func runningIndex(_ j: Int) -> Int { isRunning(j) ? j : j % baseCount }

    /// Admits the hypotheses that `accuracy`, a fix's reported vertical accuracy, lets take part.
    ///
    /// A claim of at most `claimedAccuracyThreshold` admits the small hypotheses with the prior's share. A twin at
    /// another scale of the report joins once a report makes its fix noise differ from its base member's, that is
    /// once (k a)² − σ_e² > σ_g² at the base member's scale k: up to then the two would have processed every reading
    /// alike (a receiver that reports 0.5 m never runs the twins of the 0.5 m and larger hypotheses). It joins with
    /// its base member's state and half its weight, a uniform prior over the scales given the rest of the hypothesis.
    mutating func admit(reportedAccuracy accuracy: Meters) {
        guard isEnabled.contains(false) else { return }
        if accuracy <= Self.claimedAccuracyThreshold {
            // The receiver claims sub-metre accuracy: the small hypotheses join with the prior's share.
            let share = log(1 / Double(baseCount))
            for j in 0..<baseCount where !isEnabled[j] {
                logWeights[j] = share
                isEnabled[j] = true
            }
            normalize()
        }
        let split = log(1 / Double(Self.verticalAccuracyScales.count))
        for base in 0..<baseCount where isEnabled[base] && !isEnabled[base + baseCount] {
            guard Self.scaleMatters(reportedAccuracy: accuracy, to: members[base].parameters) else { continue }
            let w = logWeights[base] + split
            logWeights[base] = w
            for j in stride(from: base + baseCount, to: members.count, by: baseCount) {
                var twin = members[base]
                twin.parameters = Self.memberParameters(members[base].parameters, for: hypotheses[j])
                members[j] = twin
                logWeights[j] = w
                ownShares[j] = ownShares[base]
                isEnabled[j] = true
            }
        }
    }

    /// Whether a fix reporting `accuracy` gets a noise that depends on the scale of the report under `parameters`:
    /// (k a)² − σ_e² > σ_g², where R = max(σ_g², (k a)² − σ_e²) leaves σ_g².
    public static func scaleMatters(reportedAccuracy accuracy: Meters, to parameters: AltitudeModelParameters) -> Bool {
        let a = accuracy * parameters.gpsVerticalAccuracyScale, sigmaE = parameters.gpsErrorStandardDeviation
        let white = parameters.gpsWhiteNoiseStandardDeviation
        return a * a - sigmaE * sigmaE > white * white
    }

    /// Processes one reading in every member and returns the mixture's estimate.
    ///
    /// - Throws: as `AltitudeFilter.process(_:)`; the bank is unchanged after a reading the members refuse as
    ///   invalid (they check it before changing anything).
    public mutating func process(_ reading: AltitudeReading) throws(AltitudeModelError) -> AltitudeEstimate {
        try reading.validate()
        if let time, reading.time < time { throw .timeWentBackwards(previous: time, current: reading.time) }
        // Every member starts (or starts over) at the same readings: one refuses what all would, before anything moves.
        try members.first?.checkStart(reading)
        if let a = reading.gpsVerticalAccuracy { admit(reportedAccuracy: a) }
        let k = Double(enabledCount)
        // Relax towards uniform: w ← (1 − ε) w + ε/K, the inflow carrying its state where it dominates a member.
        if let time, reading.time > time {
            try reseedInflowDominatedMembers(elapsed: reading.time - time)
            let epsilon = -expm1(-(reading.time - time) / Self.switchingTime)
            for j in logWeights.indices where isEnabled[j] {
                logWeights[j] = log((1 - epsilon) * Self.weight(fromLog: logWeights[j]) + epsilon / k)
            }
        }
        // The column is the atmosphere's: every member starts the reading from the bank's marginal of it.
        try shareColumn()
        var estimates: [AltitudeEstimate] = []
        estimates.reserveCapacity(members.count)
        for j in members.indices {
            // A twin that does not run yet stands in with its base member's estimate, at no weight.
            guard isRunning(j) else {
                estimates.append(estimates[j % baseCount])
                continue
            }
            let e = try members[j].process(reading)
            if e.barometerUpdate != nil { lastFusedPressureTime = reading.time }
            estimates.append(e)
        }
        // A fix tells the receivers apart only where the barometer pins the motion (`barometerEvidenceTime`).
        let weighsFixes =
            reading.time - (lastFusedPressureTime ?? -.infinity) <= Self.barometerEvidenceTime
            && !isOutlierForMixture(estimates)
        if members[ownIndex].heldLevelOpen(at: reading.time) {
            // The start's fixes still move against the barometer under the parameters' own model: a receiver's cold
            // start, which fades over minutes, is no receiver's steady error, and what the fixes said about the
            // receiver so far came from it. The weights are the prior's until the start settles.
            logWeights = Self.priorLogWeights(isEnabled: isEnabled)
        } else {
            for j in members.indices {
                logWeights[j] += Self.cappedLogLikelihood(estimates[j].barometerUpdate)
                if weighsFixes { logWeights[j] += Self.cappedLogLikelihood(estimates[j].gpsUpdate) }
            }
        }
        normalize()
        // The front is the atmosphere's: every member takes the weather noise the weighted members' detectors call.
        try shareWeatherRegime()
        recordEpisodes(at: reading.time)
        recordFronts(at: reading.time)
        time = reading.time
        return mixture(of: estimates)
    }

    /// The mixture of the members' current estimates; nil before the first reading.
    public var currentEstimate: AltitudeEstimate? {
        let estimates = members.indices.compactMap { members[runningIndex($0)].currentEstimate }
        guard estimates.count == members.count else { return nil }
        return mixture(of: estimates)
    }

    /// The mixture of the members' estimates predicted to `time` (`AltitudeFilter.predictedEstimate(at:)`), the
    /// bank unchanged; nil before the first reading or for a time before the bank's.
    public func predictedEstimate(at time: Double) -> AltitudeEstimate? {
        let estimates = members.indices.compactMap { members[runningIndex($0)].predictedEstimate(at: time) }
        guard estimates.count == members.count else { return nil }
        return mixture(of: estimates)
    }

    /// Whether the reading's fix is an outlier under the bank's own predictive distribution
    /// (`mixtureNormalizedInnovationSquared(weights:predictions:)` above the gate's 25). Such a fix comes from the outlier
    /// process every hypothesis shares (a GNSS glitch of hundreds of metres), so it says nothing about which receiver
    /// is right: counted, it hands the weight to the widest hypotheses, whose gates admit it. Where the bank is
    /// unsure of the receiver, the mixture is wide and admits what its wide members predict.
    func isOutlierForMixture(_ estimates: [AltitudeEstimate]) -> Bool {
        withWeights { w in
            // Lazily: the test runs every reading, and arrays would allocate.
            let nis = Self.mixtureNormalizedInnovationSquared(
                weights: w,
                predictions: estimates.lazy.map { $0.gpsUpdate.map { ($0.innovation, $0.innovationVariance) } })
            return nis.map { $0 > Self.normalizedInnovationCap } ?? false
        }
    }

    /// (z − z̄)² / V for a fix z under the mixture of the members' predictions N(ẑ_j, S_j) with weights w_j:
    /// z̄ = Σ w_j ẑ_j and V = Σ w_j (S_j + (ẑ_j − z̄)²), the weights normalised over the members of positive weight.
    /// With each member's innovation ν_j = z − ẑ_j, z − z̄ = Σ w_j ν_j. Nil where a member of positive weight has no
    /// prediction or no member has weight.
    ///
    /// - Parameters:
    ///   - weights: the members' weights.
    ///   - predictions: each member's innovation ν_j and its variance S_j for the fix, in the same order.
    static func mixtureNormalizedInnovationSquared<
        Weights: Collection<Double>, Predictions: Collection<(innovation: Double, variance: Double)?>
    >(weights: Weights, predictions: Predictions) -> Double? {
        var mean = 0.0, total = 0.0
        for (w, prediction) in zip(weights, predictions) where w > 0 {
            guard let r = prediction else { return nil }
            mean += w * r.innovation
            total += w
        }
        guard total > 0 else { return nil }
        mean /= total
        var variance = 0.0
        for (w, prediction) in zip(weights, predictions) where w > 0 {
            guard let r = prediction else { return nil }
            let d = r.innovation - mean
            variance += w / total * (r.variance + d * d)
        }
        return variance > 0 ? mean * mean / variance : nil
    }

    /// log N(z; ẑ, S) of an update, with its normalised innovation squared capped; 0 without an update.
    public static func cappedLogLikelihood(_ record: ScalarUpdateRecord?) -> Double {
        guard let r = record else { return 0 }
        return -0.5
            * (min(r.normalizedInnovationSquared, normalizedInnovationCap) + log(2 * Double.pi * r.innovationVariance))
    }

    private mutating func normalize() {
        let top = logWeights.max() ?? 0
        guard top.isFinite else { return }
        let total = top + log(logWeights.reduce(0) { $0 + Self.weight(fromLog: $1 - top) })
        for j in logWeights.indices { logWeights[j] -= total }
    }

    /// The weighted mixture: means averaged, variances with the spread between members added; update records,
    /// relative altitude and weather tendency from the leading member.
    func mixture(of estimates: [AltitudeEstimate]) -> AltitudeEstimate {
        var e = estimates[leadingIndex]
        withWeights { w in
            typealias Field = (AltitudeEstimate) -> Double
            func combine(_ mean: Field, _ sigma: Field) -> (Double, Double) {
                var m = 0.0
                for (j, x) in estimates.enumerated() { m += w[j] * mean(x) }
                var v = 0.0
                for (j, x) in estimates.enumerated() {
                    let d = mean(x) - m
                    let s = sigma(x)
                    v += w[j] * (s * s + d * d)
                }
                return (m, v.squareRoot())
            }
            (e.altitude, e.altitudeStandardDeviation) = combine(\.altitude, \.altitudeStandardDeviation)
            (e.seaLevelPressure, e.seaLevelPressureStandardDeviation) = combine(
                \.seaLevelPressure, \.seaLevelPressureStandardDeviation)
            (e.gpsError, e.gpsErrorStandardDeviation) = combine(\.gpsError, \.gpsErrorStandardDeviation)
        }
        e.displayPrecision = AltitudeEstimate.displayPrecision(forStandardDeviation: e.altitudeStandardDeviation)
        return e
    }
}
