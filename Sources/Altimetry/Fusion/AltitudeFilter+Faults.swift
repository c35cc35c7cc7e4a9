import LinearAlgebra
import StateEstimation

extension AltitudeFilter {
    /// Fault episodes so far (`SensorFaultMonitor`), in order of start; empty when fault detection is off. With the
    /// bank of GPS error models, the bank's (`GPSErrorModelBank.episodes`).
    public var episodes: [FilterEpisode] { gpsModelBank?.episodes ?? faults?.episodes ?? [] }

    /// Number of episodes of a kind so far: the per-track counters of `altimetry fuse`'s summary.
    public func episodeCount(_ kind: FilterEpisode.Kind) -> Int { episodes.count { $0.kind == kind } }

    /// Decides whether a pressure is fused: not while the barometer is stuck, and not the reading at which it
    /// steps, whose innovation ν re-anchors the barometer's offset instead.
    ///
    /// The offset's error is the prediction's, √S; it is added to the weather's variance P_BB, where an offset of
    /// the barometer lives, so the filter stays honest about it.
    mutating func screenBarometer(
        pressure: Hectopascals, measurement z: Meters, variance R: Double,
        time: Double
    ) throws(AltitudeModelError) -> Bool {
        // A case pattern, not `faults != nil`, which copies the whole monitor (through a generic witness) every row.
        guard case .some = faults, isStarted else { return true }
        if faults?.isStuck(pressure: pressure, at: time) == true {
            // The velocity came from the stuck readings: none.
            barometricVelocity = 0
            lastBarometer = nil
            return false
        }
        let u = AltitudeModel.altitudeIndex, b = AltitudeModel.weatherIndex
        let nu = z - (core.mean[b, 0] - core.mean[u, 0])
        let S = core.covariance[u, u] + core.covariance[b, b] - 2 * core.covariance[u, b] + R
        guard faults?.isStep(innovation: nu, variance: S, at: time) == true else { return true }
        barometerOffset += nu
        lastBarometer = nil
        var covariance = core.covariance
        covariance[b, b] += S
        try reset(mean: core.mean.elements, covariance: covariance)
        return false
    }

    /// The GPS datum's re-anchored offset, in metres, subtracted from every fix: the sum of the jumps the monitor
    /// recognised (`SensorFaultMonitor`), zero without one.
    var gpsAnchor: Meters { faults?.anchor.meters ?? 0 }

    /// Tells the monitor about a GPS update (with the GPS-error estimate ê before it) and resets when it says so.
    ///
    /// A reset shifts U and B together by δU = shift / (dh/dU), which moves the filter's altitude by `shift` and
    /// leaves the barometer's prediction B − U alone; sets ê = 0 with its stationary variance σ_e² and no
    /// correlation; and adds (σ_e² + spread²)/(dh/dU)² to the (U, B) block, fully correlated: the level of the fixes
    /// is known to their spread and the GPS's correlated error. The front detectors forget their history, since
    /// QNH moved by the reset, not by the weather.
    mutating func monitorFix(_ record: ScalarUpdateRecord, fix: Meters, priorGPSError: Double)
        throws(AltitudeModelError)
    {
        guard case .some = faults, isStarted else { return }
        let residual = record.innovation + priorGPSError
        // The fix (re-anchored) less the pressure altitude: constant while GPS and barometer agree, whatever the filter.
        let lift = fix - (lastPressureAltitude ?? 0)
        let action: SensorFaultMonitor.RefusalAction?
        let variance = altitudeVariance()
        if record.decision.wasApplied {
            let e = parameters.gpsErrorIndex
            let sigmaE = parameters.gpsErrorStandardDeviation
            action = faults?.acceptedFix(
                innovation: record.innovation, innovationVariance: record.innovationVariance,
                residual: residual, lift: lift, gpsError: core.mean[e, 0],
                gpsErrorVariance: core.covariance[e, e], stationaryVariance: sigmaE * sigmaE,
                altitudeVariance: variance, at: record.time)
        } else {
            action = faults?.refusedFix(
                innovation: record.innovation, innovationVariance: record.innovationVariance,
                residual: residual, lift: lift, barometerSteady: abs(barometricVelocity) < 10,
                altitudeVariance: variance, at: record.time)
        }
        switch action {
        case .reset(let shift, let variance)?, .dropAnchorAndReset(let shift, let variance)?:
            try resetLevel(shift: shift, spreadVariance: variance)
        case .holdLevelOpen(let floor)?:
            try widenLevel(toAltitudeVariance: floor)
        default: return
        }
    }

    /// Re-levels the filter at one of its first, ungated fixes that lies beyond the gate (its normalised innovation
    /// squared, computed on a copy of the engine, above the gate's threshold): the start itself, or this fix, is
    /// wrong, and the fix alone cannot say which. The filter resets its altitude to the fix as the monitor's reset
    /// does (`resetLevel(shift:spreadVariance:)`, the shift the fix's residual against the altitude without ê), so
    /// that the fixes after it set the level with their own weight instead of being pulled in by the gains a wrong
    /// start has already shrunk; the reset is reported. The fix then updates as usual, and its update reports the
    /// record before the reset (returned): its innovation is what the fix told the filter, and a bank of GPS error
    /// models weighs its members by it, not by the nil innovation the reset leaves. A fix that meets only the prior
    /// (none accepted since the start, the start over at the first pressure, or the last reset) is left to its
    /// update: there is no level to be wrong yet.
    ///
    /// Without it, the 9.8-day Bergen logger's first fix (160 m low, a fix every 30 s) sets the level to ±11 m, the
    /// next good fixes take ten minutes to pull it back, and its second fix, 128 m above the first, moves the column
    /// by 38 K: the column's lever h₀/T₀ at the wrong start's −122 m is three times the station's. A cold start that
    /// lasts for all of the first fixes (a receiver converging over a minute at 1 Hz) agrees with itself and is the
    /// consistency test's (`SensorFaultMonitor`).
    mutating func relevelAtWildStartFix(_ z: Double, kind: AltitudeSensor, variance: Double, at time: Double)
        throws(AltitudeModelError) -> ScalarUpdateRecord?
    {
        guard faults?.hasLevel == true, isStarted, gate.threshold.isFinite else { return nil }
        var trial = core
        guard let record = try? trial.update(z, kind: kind, variance: variance),
            record.normalizedInnovationSquared > gate.threshold
        else { return nil }
        let residual = record.innovation + core.mean[parameters.gpsErrorIndex, 0]
        guard case .reset(let shift, let spread)? = faults?.wildStartFix(residual: residual, at: time) else {
            return nil
        }
        try resetLevel(shift: shift, spreadVariance: spread)
        return record
    }

    /// Moves the filter's altitude by `shift` metres and widens its level by `spreadVariance` m² on top of the GPS's
    /// correlated error (see `monitorFix`).
    mutating func resetLevel(shift: Double, spreadVariance: Double) throws(AltitudeModelError) {
        let u = AltitudeModel.altitudeIndex, b = AltitudeModel.weatherIndex, e = parameters.gpsErrorIndex
        let sigmaE = parameters.gpsErrorStandardDeviation
        var covariance = core.covariance
        let slope = widenLevelBlock(&covariance, byAltitudeVariance: sigmaE * sigmaE + spreadVariance)
        let du = shift / slope
        var mean = core.mean.elements
        mean[u] += du
        mean[b] += du
        mean[e] = 0
        Self.forgetGPSError(in: &covariance, index: e, standardDeviation: sigmaE)
        try reset(mean: mean, covariance: covariance)
        // The reset's shift of B is not weather.
        detectorWeather?.weather = mean[b]
        frontDetector?.forgetHistory()
        noiseDetector?.forgetHistory()
    }

    /// Whether the fault monitor held the level open at the fix at `time` (`SensorFaultMonitor.unsteadyStartVariance`):
    /// the start's fixes were still moving against the barometer.
    func heldLevelOpen(at time: Double) -> Bool { faults?.heldOpenAt == time }

    /// Widens the (U, B) block, fully correlated, until the altitude variance P_hh is at least `floor` m², leaving
    /// the mean, the barometer's prediction B − U and the GPS error alone (`SensorFaultMonitor.unsteadyStartVariance`).
    mutating func widenLevel(toAltitudeVariance floor: Double) throws(AltitudeModelError) {
        let shortfall = floor - altitudeVariance()
        guard shortfall > 0 else { return }
        var covariance = core.covariance
        widenLevelBlock(&covariance, byAltitudeVariance: shortfall)
        try reset(mean: core.mean.elements, covariance: covariance)
    }

    /// Adds `variance` m² to the altitude through the (U, B) block of `covariance`, fully correlated: variance / a² on
    /// each of its elements, a = dh/dU at the mean with the column's scale, so that the barometer's prediction B − U
    /// keeps its variance. Returns a.
    @discardableResult
    mutating func widenLevelBlock(_ covariance: inout Matrix, byAltitudeVariance variance: Double) -> Double {
        let x = core.mean
        let u = AltitudeModel.altitudeIndex, b = AltitudeModel.weatherIndex
        let slope =
            exponentials.altitudeDerivative(x[u, 0]) * Self.columnScale(x, columnIndex: parameters.columnIndex)
        let added = variance / (slope * slope)
        for i in [u, b] { for j in [u, b] { covariance[i, j] += added } }
        return slope
    }

    /// The filter's altitude variance P_hh = a² P_UU + 2 a b P_UC + b² P_CC, a = dh/dU, b = dh/dC (`estimate`), in m².
    mutating func altitudeVariance() -> Double {
        guard isStarted else { return 0 }
        let u = AltitudeModel.altitudeIndex
        let slope = exponentials.altitudeDerivative(core.mean[u, 0])
        guard let c = parameters.columnIndex else { return slope * slope * core.covariance[u, u] }
        let a = slope * Self.columnScale(core.mean, columnIndex: c)
        let b = LogPressureCoordinates.temperatureHeight * (1 - slope) / StandardAtmosphere.seaLevelTemperature
        return a * a * core.covariance[u, u] + 2 * a * b * core.covariance[u, c] + b * b * core.covariance[c, c]
    }

    /// The column scale k = 1 + C/T₀ at the state `x` (1 without the column state).
    ///
    /// Static: an instance method called from the filter's mutating methods copies the whole filter (2 kB) per call.
    static func columnScale(_ x: Matrix, columnIndex: Int?) -> Double {
        guard let c = columnIndex else { return 1 }
        return 1 + x[c, 0] / StandardAtmosphere.seaLevelTemperature
    }

    /// Replaces the engine's mean and covariance (`KalmanFilter.reset(mean:covariance:)`); the filter is unchanged
    /// if it throws.
    ///
    /// - Throws: `AltitudeModelError.numerical` if the covariance is not symmetric positive definite.
    mutating func reset(mean: [Double], covariance: Matrix) throws(AltitudeModelError) {
        do { try core.reset(mean: mean, covariance: covariance) } catch {
            throw .numerical(String(describing: error))
        }
    }

    /// Forgets the GPS's correlated error e in `covariance`: e uncorrelated with every other state, at its stationary
    /// variance σ_e² (`standardDeviation`, in metres), as a new receiver regime starts it.
    static func forgetGPSError(in covariance: inout Matrix, index e: Int, standardDeviation sigma: Double) {
        for i in 0..<covariance.rows where i != e {
            covariance[i, e] = 0
            covariance[e, i] = 0
        }
        covariance[e, e] = sigma * sigma
    }

    /// Makes the front detectors forget their history, where the QNH moved by a new state rather than by the weather.
    mutating func forgetDetectorHistory() {
        detectorWeather = nil
        frontDetector?.forgetHistory()
        noiseDetector?.forgetHistory()
    }

    /// Keeps the model's noise scales at the current state: s_U = dU/dh = T₀/T(h) with T(h) the column's temperature
    /// at the estimated altitude, and s_B = dB/db = H₀/QNH.
    ///
    /// With the column state it also keeps the column's coupling γ (`AltitudeModel.columnCoupling`) at the state.
    ///
    /// The model is replaced only when either square moves by more than 10⁻⁴ relative (about 2 m of altitude or
    /// 0.05 hPa) or γ by more than 0.01 m/K (about 3 m of altitude), so the engine's cached discretisation serves
    /// most steps; the scale is then within 0.005 % of the state's.
    mutating func scaleNoiseAtCurrentState() throws(AltitudeModelError) {
        guard isStarted else { return }
        let oldU = core.model.altitudeScaleSquared, oldB = core.model.weatherScaleSquared
        // T(h) = (T₀ + C) exp(−L U/T₀) = k (T₀ − L h₀), h₀ = (T₀/L)(1 − exp(−L U/T₀)) the standard altitude; both
        // scales are held at a state inside the model's range (see `AltitudeModel.altitudeScale`; QNH at 10 hPa or
        // more, the lowest station pressure a reading may carry), so that a state a long gap of diffuse prediction
        // has taken anywhere keeps Q finite.
        let h0 =
            LogPressureCoordinates.temperatureHeight
            * (1 - exponentials.altitudeDerivative(core.mean[AltitudeModel.altitudeIndex, 0]))
        let k = Self.columnScale(core.mean, columnIndex: parameters.columnIndex)
        let su = AltitudeModel.altitudeScale(atStandardAltitude: h0, columnScale: k)
        let sb =
            LogPressureCoordinates.scaleHeight
            / max(exponentials.seaLevelPressure(core.mean[AltitudeModel.weatherIndex, 0]), 10)
        let u2 = su * su, b2 = sb * sb
        let gamma =
            parameters.columnIndex == nil ? 0 : AltitudeModel.columnCoupling(atStandardAltitude: h0, altitudeScale: su)
        guard
            abs(u2 - oldU) > 1e-4 * u2 || abs(b2 - oldB) > 1e-4 * b2 || abs(gamma - core.model.columnCoupling) > 1e-2
        else { return }
        var model = core.model
        model.altitudeScaleSquared = u2
        model.weatherScaleSquared = b2
        model.columnCoupling = gamma
        do { try core.replaceModel(model) } catch { throw .numerical(String(describing: error)) }
    }
}
