import Foundation
import LinearAlgebra
import StateEstimation

extension AltitudeFilter {
    /// The barometer stage: tests the pressure `p` (hPa) at `time`, fuses it with the learned noise, and hands it to
    /// the motion state and the receiver learner. Returns the seconds since the fused pressure before where `p` was
    /// fused, nil where it was refused.
    ///
    /// The measurement is z = H₀ ln((p − Δp)/1013.25), of the pressure less the re-anchored offset Δp (zero unless
    /// the sensor stepped): linear in the state, z = B − U. Its variance is the barometer's learned noise
    /// (`BarometerNoise`). A step of a barometer is an offset of its pressure, in hPa, so it is re-anchored in hPa:
    /// the run's median innovation δz at the pressure p of the re-anchoring reading sets Δp so that that reading's z
    /// falls by δz, p − Δp' = (p − Δp) exp(−δz/H₀), and the offset then holds at every pressure the device reaches.
    /// (An offset of δz in log pressure would not: a 30 hPa step taken at 2,300 m as 324 m of z is 255 m at 300 m, and
    /// the 69 m between them would pass for weather on the way down.) The offset's error (the prediction's) lives in
    /// the weather's variance, where an offset of the barometer does: P_BB gains S. A pressure at or below the offset
    /// is no reading the offset explains, and is refused.
    mutating func fuseBarometer(_ p: Hectopascals, at time: Double) throws(AltitudeModelError) -> Seconds? {
        let corrected = p - barometerOffset
        guard corrected > 0 else {
            faults?.status.insert(.barometerSpike)
            return nil
        }
        let raw = LogPressureCoordinates.barometerMeasurement(pressure: p)
        // One logarithm per reading unless the sensor stepped (p − 0 is p, bit for bit).
        var z = barometerOffset == 0 ? raw : LogPressureCoordinates.barometerMeasurement(pressure: corrected)
        let R =
            parameters.learnsBarometerNoise
            ? barometerNoise.measurementVariance
            : Self.barometerVariance(p, standardDeviation: parameters.barometerNoiseStandardDeviation)
        let u = AltitudeModel.altitudeIndex, b = AltitudeModel.weatherIndex
        if case .some = faults, let gate = parameters.gateStandardDeviations {
            let nu = z - (core.mean[b, 0] - core.mean[u, 0])
            let S = core.covariance[u, u] + core.covariance[b, b] - 2 * core.covariance[u, b] + R
            let interval = motion.last.map { time - $0.time } ?? .infinity
            let verdict = faults?.judgePressure(
                p, at: time, innovation: nu, variance: S, interval: interval, gate: gate,
                gpsMotionAllowance: { [receiver] duration in
                    let phi = receiver.decay(over: duration)
                    let e = receiver.errorStandardDeviation, w = receiver.whiteNoiseStandardDeviation
                    return (2 * (e * e * (1 - phi) + w * w)).squareRoot()
                })
            switch verdict {
            case .reject?:
                if faults?.status.contains(.barometerStuck) == true {
                    // A stuck barometer vouches for no motion: the altitude walks at q_h until it reads again.
                    restartBarometer()
                    do { try setMotionNoise() } catch { throw .numerical(String(describing: error)) }
                }
                return nil
            case .reanchor(let offset)?:
                barometerOffset = p - corrected * exp(-offset / LogPressureCoordinates.scaleHeight)
                z -= offset
                restartBarometer()
                var covariance = core.covariance
                covariance[b, b] += S
                do { try core.reset(mean: core.mean.elements, covariance: covariance) } catch {
                    throw .numerical(String(describing: error))
                }
            case .fuse?, nil:
                break
            }
        }
        do {
            lastBarometerRecord = try core.update(
                z, kind: AltitudeSensor(.barometer, gpsErrorIndex: parameters.gpsErrorIndex), variance: R)
        } catch {
            throw .numerical(String(describing: error))
        }
        // The height the device moved is read off U next (dh₀/dU at U), inside the model's range.
        try holdStateInModelRange()
        let interval = motion.last.map { time - $0.time } ?? 0
        barometerNoise.observe(raw)
        motion.observe(
            time: time, measurement: z, noiseVariance: barometerNoise.measurementVariance,
            velocityTime: parameters.barometricVelocityTime)
        // Pressure altitude at standard QNH, T₀/L (1 − (p/1013.25)^(1/n)), from the logarithm already taken:
        // (p/1013.25)^(1/n) = exp(z L/T₀) for z = H₀ ln(p/1013.25), so no pow per row.
        let T = LogPressureCoordinates.temperatureHeight
        let altitude = -T * expm1(z / T)
        if firstPressureAltitude == nil { firstPressureAltitude = altitude }
        lastPressureAltitude = altitude
        do { try setMotionNoise() } catch { throw .numerical(String(describing: error)) }
        return interval
    }

    /// R = (H₀ σ_p / p)², the variance of z = H₀ ln(p/1013.25) for a pressure noise σ_p (hPa) at p hPa, in m².
    static func barometerVariance(_ p: Hectopascals, standardDeviation sigma: Hectopascals) -> Double {
        let s = LogPressureCoordinates.scaleHeight * sigma / p
        return s * s
    }

    /// Forgets the barometer's recent readings where its level changed or it stuck: no velocity, no rest, and the
    /// noise estimate and the learner start their differences afresh.
    private mutating func restartBarometer() {
        motion.restart()
        barometerNoise.restart()
        learner?.restartBarometer()
        faults?.forgetBarometerRun()
    }

    /// The temperature stage: one station temperature (K) every `temperatureUpdateInterval`, as a measurement of the
    /// column's temperature at the station (`AltitudeSensor`), linearised at a mean inside the model's range.
    mutating func fuseTemperature(_ temperature: Kelvin, at time: Double) throws(AltitudeModelError) {
        guard let c = parameters.columnIndex,
            time >= (lastTemperatureTime ?? -.infinity) + parameters.temperatureUpdateInterval
        else { return }
        try holdStateInModelRange()
        let sigma = parameters.columnTemperatureMeasurementStandardDeviation
        do {
            try core.update(
                temperature,
                kind: AltitudeSensor(.temperature, gpsErrorIndex: parameters.gpsErrorIndex, columnIndex: c),
                variance: sigma * sigma)
        } catch {
            throw .numerical(String(describing: error))
        }
        lastTemperatureTime = time
    }

    /// Keeps the model's noise scales at the current state: s_U = dU/dh = T₀/T(h) with T(h) the column's temperature
    /// at the estimated altitude, s_B = dB/db = H₀/QNH, and the column's coupling γ (`AltitudeModel.columnCoupling`).
    ///
    /// The model is replaced only when either square moves by more than 10⁻⁴ relative (about 2 m of altitude or
    /// 0.05 hPa) or γ by more than 0.01 m/K (about 3 m of altitude), so the engine's cached discretisation serves
    /// most steps.
    mutating func scaleNoiseAtCurrentState() throws(AltitudeModelError) {
        guard isStarted, parameters.scalesNoiseAtCurrentState else { return }
        let oldU = core.model.altitudeScaleSquared, oldB = core.model.weatherScaleSquared
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
            parameters.columnIndex == nil
            ? 0
            : AltitudeModel.columnCoupling(heightMoved: heightMoved, atStandardAltitude: h0)
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
