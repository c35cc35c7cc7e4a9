import Foundation
import LinearAlgebra
import Testing

@testable import Altimetry

/// The weather block of `AltitudeModel.discretize`: (B, Ḃ) with a tendency that reverts to zero.
@Suite("AltitudeModel")
struct AltitudeModelTests {
    /// A model whose only process noise on B is the tendency's, so that Q's (B, Ḃ) block is the tendency's alone
    /// (the column state, whose changes move B with C, is off).
    static func model(tau: Double) -> AltitudeModel {
        var p = AltitudeModelParameters()
        p.weatherNoiseDensity = 0
        p.estimatesColumnTemperature = false
        p.weatherTendencyCorrelationTime = tau
        return AltitudeModel(parameters: p, startAltitude: 500)
    }

    /// q, the tendency's white-noise density in m²/s³ (the model's (hPa/h)²/h converted).
    static func density(_ model: AltitudeModel) -> Double {
        model.parameters.weatherTendencyNoiseDensity / (3_600 * 3_600 * 3_600) * AltitudeModel.weatherScale
            * AltitudeModel.weatherScale
    }

    /// Q = ∫₀^dt Φ(s) G q Gᵀ Φ(s)ᵀ ds by composite Simpson over 20,000 intervals, with Φ(s) = [[1, (1 − e^{−as})/a],
    /// [0, e^{−as}]] and G = [0, 1]ᵀ: an independent route to the closed form (the integrand is smooth, so the
    /// rule's error is below 10⁻¹² relative).
    static func integrated(dt: Double, a: Double, q: Double) -> (bb: Double, bt: Double, tt: Double) {
        let m = 20_000
        let h = dt / Double(m)
        var bb = 0.0, bt = 0.0, tt = 0.0
        for i in 0...m {
            let s = Double(i) * h
            let w = (i == 0 || i == m) ? 1.0 : (i % 2 == 1 ? 4.0 : 2.0)
            let shift = a > 0 ? -expm1(-a * s) / a : s
            let decay = a > 0 ? exp(-a * s) : 1
            bb += w * shift * shift
            bt += w * shift * decay
            tt += w * decay * decay
        }
        return (q * bb * h / 3, q * bt * h / 3, q * tt * h / 3)
    }

    @Test(
        "The reverting tendency's Q matches the integral, on both sides of the series switch",
        arguments: [0.5, 1, 17, 19, 60, 600, 3_600, 36_000] as [Double])
    func revertingNoise(dt: Double) {
        let model = Self.model(tau: 1_800)
        var F = Matrix(rows: model.stateCount, columns: model.stateCount),
            Q = Matrix(rows: model.stateCount, columns: model.stateCount)
        model.discretize(over: dt, transition: &F, processNoise: &Q)
        let q = Self.density(model)
        let expected = Self.integrated(dt: dt, a: 1.0 / 1_800, q: q)
        // 1e-8: the series is truncated after its x³ term below x = a dt = 10⁻² (dt < 18 s), where the next term is
        // under 10⁻⁹ of the sum; the closed form above it loses at most ~10⁻⁹ to cancellation. (With the series cut
        // after x², this failed at dt = 17 s by 1.06e-7.)
        #expect(abs(Q[1, 1] / expected.bb - 1) < 1e-8, "dt \(dt): \(Q[1, 1]) vs \(expected.bb)")
        #expect(abs(Q[1, 2] / expected.bt - 1) < 1e-9 && Q[2, 1] == Q[1, 2])
        #expect(abs(Q[2, 2] / expected.tt - 1) < 1e-9)
        #expect(abs(F[2, 2] - exp(-dt / 1_800)) < 1e-15)
        #expect(abs(F[1, 2] - 1_800 * (1 - exp(-dt / 1_800))) < 1e-9 * dt)
    }

    @Test(
        "Steps too short for a dt of their own (a subnormal 10⁻³²² s, and either side of the series switch at a dt = 10⁻⁸) give the small-step limits",
        arguments: [5e-324, 1.24e-322, 1e-310, 1e-9, 1.79e-5, 1.81e-5] as [Double])
    func shortStep(dt: Double) {
        let model = Self.model(tau: 1_800)
        var F = Matrix(rows: model.stateCount, columns: model.stateCount),
            Q = Matrix(rows: model.stateCount, columns: model.stateCount)
        model.discretize(over: dt, transition: &F, processNoise: &Q)
        #expect(F.elements.allSatisfy(\.isFinite) && Q.elements.allSatisfy(\.isFinite), "dt \(dt)")
        // (1 − φ)/x = 1 − x/2 + x²/6 − … and (1 − φ²)/(2x) = 1 − x + 2x²/3 − …: for x = a dt ≤ 2 × 10⁻⁸ the terms
        // in x² are under 10⁻¹⁵, so the forms to first order hold to 10⁻¹², below the switch (the series) and above
        // it (the closed forms through expm1): B gains Ḃ dt (1 − x/2), Q_BḂ = q dt² (1 − x/2)²/2, Q_ḂḂ = q dt (1 − x).
        let q = Self.density(model), x = dt / 1_800
        #expect(abs(F[1, 2] / (dt * (1 - x / 2)) - 1) < 1e-12, "dt \(dt): \(F[1, 2])")
        #expect(F[2, 2] == 1 || abs(F[2, 2] - exp(-x)) < 1e-15)
        // Where q dt² or q dt is itself subnormal, its relative precision is gone; finiteness is the promise there.
        if q * dt * dt > .leastNormalMagnitude {
            let expected = q * dt * dt * (1 - x / 2) * (1 - x / 2) / 2
            #expect(abs(Q[1, 2] / expected - 1) < 1e-12, "dt \(dt): \(Q[1, 2])")
        }
        if q * dt > .leastNormalMagnitude {
            #expect(abs(Q[2, 2] / (q * dt * (1 - x)) - 1) < 1e-12, "dt \(dt): \(Q[2, 2])")
        }
    }

    @Test("With no correlation time the tendency is a random walk: q dt³/3, q dt²/2, q dt")
    func randomWalkNoise() {
        let model = Self.model(tau: 0)
        var F = Matrix(rows: model.stateCount, columns: model.stateCount),
            Q = Matrix(rows: model.stateCount, columns: model.stateCount)
        model.discretize(over: 30, transition: &F, processNoise: &Q)
        let q = Self.density(model)
        #expect(abs(Q[1, 1] / (q * 27_000 / 3) - 1) < 1e-14)
        #expect(abs(Q[1, 2] / (q * 900 / 2) - 1) < 1e-14)
        #expect(abs(Q[2, 2] / (q * 30) - 1) < 1e-14)
        #expect(F[1, 2] == 30 && F[2, 2] == 1)
    }

    /// The default's stated meaning: 4 (hPa/h)²/h with τ = 30 min is a stationary spread of √(q τ/2) = 1 hPa/h.
    @Test("The default tendency settles at a spread of 1 hPa/h")
    func stationarySpread() {
        let model = Self.model(tau: AltitudeModelParameters().weatherTendencyCorrelationTime)
        var F = Matrix(rows: model.stateCount, columns: model.stateCount),
            Q = Matrix(rows: model.stateCount, columns: model.stateCount)
        model.discretize(over: 60, transition: &F, processNoise: &Q)
        var variance = 0.0
        for _ in 0..<2_000 { variance = F[2, 2] * F[2, 2] * variance + Q[2, 2] }  // 33 h: converged
        let hPaPerHour = variance.squareRoot() / AltitudeModel.weatherScale * 3_600
        #expect(abs(hPaPerHour - 1) < 1e-9, "\(hPaPerHour) hPa/h")
    }
}

/// The measurement equations of `AltitudeSensor` with the column state: every H against central differences of h(x).
@Suite("AltitudeSensor")
struct AltitudeSensorTests {
    /// h(x) through the sensor itself.
    static func predicted(_ sensor: AltitudeSensor, _ x: [Double]) -> Double {
        let mean = Matrix(rows: x.count, columns: 1, columnMajor: x)
        var H = Matrix(rows: 1, columns: x.count)
        sensor.observationMatrix(at: mean, into: &H)
        var z = Matrix(rows: 1, columns: 1)
        sensor.predictedMeasurement(at: mean, observationMatrix: H, into: &z)
        return z.elements[0]
    }

    @Test(
        "Each sensor's H is the derivative of its h(x), to 1e-7 relative, from sea level to 6 km and ±25 K",
        arguments: [(0.0, 0.0), (800, -20), (2_500, 15), (4_500, 25), (6_000, -25)] as [(Double, Double)])
    func jacobians(altitude: Double, column: Double) throws {
        let p = AltitudeModelParameters()
        let n = p.stateCount
        let c = try #require(p.columnIndex)
        var x = [Double](repeating: 0, count: n)
        x[AltitudeModel.altitudeIndex] = LogPressureCoordinates.logPressureAltitude(altitude) + 17
        x[AltitudeModel.weatherIndex] = -23
        x[AltitudeModel.tendencyIndex] = 1e-3
        x[c] = column
        x[p.gpsErrorIndex] = 4
        for source in [AltitudeSensor.Source.barometer, .gps, .temperature] {
            // A climb of `altitude` from sea level: the height moved, over which the column's scale applies.
            let sensor = AltitudeSensor(source, gpsErrorIndex: p.gpsErrorIndex, columnIndex: c, heightMoved: altitude)
            var H = Matrix(rows: 1, columns: n)
            sensor.observationMatrix(at: Matrix(rows: n, columns: 1, columnMajor: x), into: &H)
            for j in 0..<n {
                // Steps of 1 m and 0.01 K: the functions are smooth (curvature 2e-6 per metre), so the central
                // difference's error is under 1e-9 of the slope; rounding adds 1e-12 / step.
                let step = j == c ? 0.01 : 1.0
                var up = x, down = x
                up[j] += step
                down[j] -= step
                let numeric = (Self.predicted(sensor, up) - Self.predicted(sensor, down)) / (2 * step)
                let analytic = H.elements[j]
                #expect(
                    abs(analytic - numeric) <= 1e-7 * max(1, abs(numeric)),
                    "\(source) dh/dx[\(j)] at \(altitude) m, \(column) K: \(analytic) vs \(numeric)")
            }
        }
    }

    @Test("GPS and temperature predictions are the column's hypsometric altitude and temperature")
    func predictions() throws {
        // A column T(h) = T₀ + C − L h puts the pressure of standard altitude h₀ at h = (1 + C/T₀) h₀ (Docs/model.md):
        // h = h₀ + (C/T₀) m after a climb of m = h₀ from sea level, where the altimeter setting was standard.
        let p = AltitudeModelParameters()
        let c = try #require(p.columnIndex)
        var x = [Double](repeating: 0, count: p.stateCount)
        let h0 = 3_000.0, column = -20.0
        x[AltitudeModel.altitudeIndex] = LogPressureCoordinates.logPressureAltitude(h0)
        x[c] = column
        let gps = Self.predicted(
            AltitudeSensor(.gps, gpsErrorIndex: p.gpsErrorIndex, columnIndex: c, heightMoved: h0), x)
        // Independent route: integrate dh = −(R T(h)/(g M)) dp/p from sea level up to the standard pressure at h₀.
        let target = try StandardAtmosphere.pressure(atAltitude: h0)
        var h = 0.0, pressure = StandardAtmosphere.seaLevelPressure
        let steps = 200_000
        let dlnp = log(target / pressure) / Double(steps)
        for _ in 0..<steps {
            // Midpoint rule in ln p: dh/dln p = −R T(h)/(g M), with T(h) linear in h.
            let scale = StandardAtmosphere.gasConstant / (StandardAtmosphere.gravity * StandardAtmosphere.molarMass)
            let half =
                h - 0.5 * dlnp * scale
                * (StandardAtmosphere.seaLevelTemperature + column - StandardAtmosphere.lapseRate * h)
            h -= dlnp * scale * (StandardAtmosphere.seaLevelTemperature + column - StandardAtmosphere.lapseRate * half)
            pressure *= exp(dlnp)
        }
        #expect(abs(gps - h) < 1e-3, "model \(gps) m, integral \(h) m")
        let temperature = Self.predicted(
            AltitudeSensor(.temperature, gpsErrorIndex: p.gpsErrorIndex, columnIndex: c), x)
        #expect(
            abs(temperature - (StandardAtmosphere.seaLevelTemperature + column - StandardAtmosphere.lapseRate * h))
                < 1e-6)
    }

    /// The model at `altitude` (standard altitude h₀, metres, reached by a climb from sea level) and `column` (K), with
    /// the column's coupling set there as the filter sets it, and its F and Q over `dt`; `tau` overrides the column's
    /// correlation time.
    static func columnStep(altitude: Double, column: Double, dt: Double, tau: Double? = nil) throws
        -> (model: AltitudeModel, x: [Double], F: Matrix, Q: Matrix)
    {
        var parameters = AltitudeModelParameters()
        if let tau { parameters.columnTemperatureCorrelationTime = tau }
        var model = AltitudeModel(parameters: parameters, startAltitude: altitude)
        model.columnCoupling = AltitudeModel.columnCoupling(heightMoved: altitude, atStandardAltitude: altitude)
        let n = model.stateCount, c = try #require(model.columnIndex)
        var F = Matrix(rows: n, columns: n), Q = Matrix(rows: n, columns: n)
        model.discretize(over: dt, transition: &F, processNoise: &Q)
        var x = [Double](repeating: 0, count: n)
        x[AltitudeModel.altitudeIndex] = LogPressureCoordinates.logPressureAltitude(altitude)
        x[c] = column
        return (model, x, F, Q)
    }

    /// C alone is the Ornstein-Uhlenbeck process dC = −C/τ dt + dw, E[dw²] = q dt, q = 2 σ²/τ: over dt its mean decays
    /// by φ = exp(−dt/τ) and it gains ∫₀^dt q exp(−2s/τ) ds of variance, here by composite Simpson (an independent route
    /// to σ² (1 − φ²)); the variance's fixed point is σ², the prior.
    @Test(
        "The column's Gauss-Markov transition and noise match the continuous process",
        arguments: [1, 60, 3_600, 86_400, 30 * 86_400] as [Double])
    func columnGaussMarkov(dt: Double) throws {
        let step = try Self.columnStep(altitude: 1_000, column: 5, dt: dt)
        let p = step.model.parameters
        let c = try #require(step.model.columnIndex)
        let tau = p.columnTemperatureCorrelationTime, sigma = p.columnTemperaturePriorStandardDeviation
        let q = 2 * sigma * sigma / tau
        let m = 20_000
        let h = dt / Double(m)
        var integral = 0.0
        for i in 0...m {
            let w = (i == 0 || i == m) ? 1.0 : (i % 2 == 1 ? 4.0 : 2.0)
            integral += w * q * exp(-2 * Double(i) * h / tau)
        }
        integral *= h / 3
        #expect(abs(step.F[c, c] - exp(-dt / tau)) < 1e-15)
        #expect(abs(step.Q[c, c] / integral - 1) < 1e-10, "dt \(dt): \(step.Q[c, c]) vs \(integral)")
        // The fixed point of P ← φ² P + Q_CC is the stationary variance: σ², the prior's, for any dt.
        let stationary = step.Q[c, c] / (1 - step.F[c, c] * step.F[c, c])
        #expect(abs(stationary / (sigma * sigma) - 1) < 1e-8, "stationary sigma \(stationary.squareRoot()) K")
    }

    /// GIVEN the model at several altitudes and columns, WHEN the column changes (its own noise and its return to
    /// climatology), THEN neither the altitude h = h₀(U) + (C/T₀) m nor the barometer's B − U moves, to first order:
    /// for each
    /// of their rows r, r · (F's column of C − e_C) = 0 and r Q rᵀ gets nothing from the column's noise, which is
    /// σ_C² (1 − φ²) g gᵀ with g = (γ, γ, 1); and a finite reversion moves h by second order only.
    @Test(
        "The column's changes leave the altitude and the barometer alone", arguments: [0.0, 1_000, 3_000, 6_000])
    func columnChangesAreTheColumnAlone(altitude: Double) throws {
        for column in [-20.0, 0, 20] {
            // A short correlation time, so that the reversion is large: 600 s of it moves C by 45 % of its offset.
            let step = try Self.columnStep(altitude: altitude, column: column, dt: 600, tau: 1_000)
            let model = step.model, n = model.stateCount, c = try #require(model.columnIndex)
            let gps = AltitudeSensor(.gps, gpsErrorIndex: model.gpsErrorIndex, columnIndex: c, heightMoved: altitude)
            var H = Matrix(rows: 1, columns: n)
            gps.observationMatrix(at: Matrix(rows: n, columns: 1, columnMajor: step.x), into: &H)
            H[0, model.gpsErrorIndex] = 0
            var baro = [Double](repeating: 0, count: n)
            baro[AltitudeModel.altitudeIndex] = -1
            baro[AltitudeModel.weatherIndex] = 1
            let qc = step.Q[c, c], g = model.columnCoupling
            #expect(abs(qc - 100 * -expm1(-2 * 600.0 / 1_000)) < 1e-12)
            #expect(abs(step.Q[AltitudeModel.altitudeIndex, c] - g * qc) < 1e-12)
            #expect(abs(step.Q[AltitudeModel.weatherIndex, c] - g * qc) < 1e-12)
            for row in [H.elements, baro] {
                var moved = 0.0
                for i in 0..<n { moved += row[i] * (step.F[i, c] - (i == c ? 1 : 0)) }
                // 1 K of column is m/T₀ of altitude (up to 21 m after 6 km): the reversion's share must be nil.
                #expect(abs(moved) < 1e-12, "altitude \(altitude) m, column \(column) K: r·(F_C − e_C) = \(moved)")
                let seen = row[c] + g * (row[AltitudeModel.altitudeIndex] + row[AltitudeModel.weatherIndex])
                #expect(
                    abs(seen * seen * qc) < 1e-9, "altitude \(altitude) m, column \(column) K: \(seen * seen * qc) m²")
            }
            // The finite step x' = F x (C from `column` to φ column) against h(x) itself.
            var next = step.x
            for i in 0..<n { next[i] = (0..<n).reduce(0) { $0 + step.F[i, $1] * step.x[$1] } }
            let moved =
                AltitudeSensorTests.predicted(gps, next) - AltitudeSensorTests.predicted(gps, step.x)
            let change = next[c] - step.x[c]
            // h = h₀(U) + (C/T₀) m is nonlinear in U: with the coupling fixed over the step, Δh has second-order
            // terms under 2 m ΔC²/T₀² (9 K after 6 km: 0.012 m; without the coupling, 187 m).
            #expect(
                abs(moved) <= 2 * altitude * change * change / (288.15 * 288.15) + 1e-9,
                "altitude \(altitude) m, column \(column) K: h moved \(moved) m for \(change) K")
        }
    }

    /// GIVEN the model with the noise from the height moved in effect (q K²/s), WHEN it is discretised over dt, THEN Q
    /// gains exactly q dt on C and nothing else, and F is unchanged: the pressure (B − U) sees none of it, and the
    /// altitude h = h₀(U) + (C/T₀) m gains (m/T₀)² q dt.
    @Test("The column's noise from the height moved is C's alone", arguments: [0.0, 1_000, 4_000])
    func columnHeightNoiseIsTheColumnAlone(altitude: Double) throws {
        let quiet = try Self.columnStep(altitude: altitude, column: 10, dt: 2)
        var model = quiet.model
        model.columnHeightNoiseDensity = 0.025
        let n = model.stateCount, c = try #require(model.columnIndex)
        var F = Matrix(rows: n, columns: n), Q = Matrix(rows: n, columns: n)
        model.discretize(over: 2, transition: &F, processNoise: &Q)
        for i in 0..<n {
            for j in 0..<n {
                let added = Q[i, j] - quiet.Q[i, j], expected = i == c && j == c ? 0.025 * 2 : 0
                #expect(abs(added - expected) < 1e-12 * max(1, abs(Q[i, j])), "Q[\(i), \(j)]: \(added)")
                #expect(F[i, j] == quiet.F[i, j])
            }
        }
    }

    /// s_U = dU/dh is T₀/T(h) for the column's temperature T(h) = k (T₀ − L h₀) inside the troposphere model, and
    /// held there outside it: a state a long gap has taken anywhere (h₀ of ±10⁶ m, k near zero or negative, NaN)
    /// gives a finite scale between the held bounds' 0.65 and 2.66, and γ = −m/(T₀ dh₀/dU) = −h₀ s_U/T₀ in standard
    /// air after a climb of m = h₀.
    @Test("The altitude's noise scale is T₀/T(h) in the troposphere and held finite outside it")
    func altitudeScaleIsHeld() {
        let T0 = StandardAtmosphere.seaLevelTemperature, L = StandardAtmosphere.lapseRate
        for h0 in [-1_000.0, 0, 2_500, 11_000] {
            for k in [0.5, 0.93, 1, 1.07] {
                let scale = AltitudeModel.altitudeScale(atStandardAltitude: h0, columnScale: k)
                #expect(abs(scale * k * (T0 - L * h0) / T0 - 1) < 1e-14, "h₀ \(h0) m, k \(k)")
                let gamma = AltitudeModel.columnCoupling(heightMoved: h0, atStandardAltitude: h0)
                let standard = AltitudeModel.altitudeScale(atStandardAltitude: h0, columnScale: 1)
                #expect(abs(gamma + h0 * standard / T0) <= 1e-12 * (1 + abs(gamma)), "h₀ \(h0) m, k \(k)")
            }
        }
        let extremes = [-1e6, -1_001, 11_001, 44_330.8, 1e6, .infinity, -.infinity, .nan]
        for h0 in extremes {
            for k in [-3, 0, 1e-300, 0.49, 1, 1.51, 1e300, .infinity, .nan] as [Double] {
                let scale = AltitudeModel.altitudeScale(atStandardAltitude: h0, columnScale: k)
                #expect(scale.isFinite && scale >= 0.65 && scale <= 2.67, "h₀ \(h0) m, k \(k): \(scale)")
                #expect(AltitudeModel.columnCoupling(heightMoved: 500, atStandardAltitude: h0).isFinite)
            }
        }
        // Held at the bounds: beyond the tropopause the scale is the tropopause's.
        #expect(
            AltitudeModel.altitudeScale(atStandardAltitude: 30_000, columnScale: 1)
                == AltitudeModel.altitudeScale(atStandardAltitude: 11_000, columnScale: 1))
    }
}
