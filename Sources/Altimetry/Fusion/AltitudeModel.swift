import Foundation
import LinearAlgebra
import StateEstimation

/// The altitude model as a state-space model for the generic engine.
///
/// State, in the log-pressure coordinates of `LogPressureCoordinates` (U, B, e in metres, C in kelvin):
///
///     x = [U, B, (Ḃ,) (C,) e]
///
/// where U = H₀ ln(p_s / p) is the log-pressure thickness between sea level and the station, B the weather's
/// sea-level-pressure offset, Ḃ the weather tendency (m/s of B, when `AltitudeModelParameters.hasTendency`),
/// C the air column's temperature offset from the standard atmosphere (when `estimatesColumnTemperature`) and
/// e the GPS altitude's correlated error. The altitude is
///
///     h = h₀(U) + (C/T₀) m,    h₀(U) = (T₀/L)(1 − exp(−L U/T₀)),
///
/// the standard atmosphere's altitude h₀ of the log-pressure altitude U, plus the column's correction of the height
/// m the device has moved (`AltitudeFilter.heightMoved`: the barometer's standard height changes while it moves,
/// summed since the start). Every barometric height difference scales with the mean temperature of the layer
/// crossed, T/T₀ = 1 + C/T₀ (the hypsometric equation: 0.35 % per kelvin), and C is that layer's offset from the
/// standard atmosphere. The weather B is then the altimeter setting (QNH): the sea-level pressure that maps the
/// station's pressure to its altitude through the standard atmosphere, as an airfield's QNH holds the column below
/// the field. So the column is seen only through the height moved, where it is observable; at a station that has
/// not moved, m = 0 and the fixes teach it nothing, and after a climb its share of the altitude's sigma, m σ_C/T₀,
/// stays in the sigma. Docs/model.md derives the rest.
///
/// Between two times dt apart:
///
/// - U is a random walk of density q_U = q s_U², with s_U = dU/dh = T₀ / T(h) (1 at sea level in standard
///   air) and q the density in effect, `altitudeNoiseDensity` (the owner sets it from the barometer's vertical
///   speed: `AltitudeModelParameters.altitudeNoiseDensity(atVerticalSpeed:restDensity:)`; a tuning density, not a physical
///   constant). `altitudeScaleSquared` holds s_U² where the owner last set it: at the current state
///   (`AltitudeFilter` keeps it within 10⁻⁴), or at the first altitude in standard air in the plain model.
/// - B is a random walk of density q_B = q_b s_B², s_B = dB/db = H₀ / QNH ≈ 8.32 m/hPa, likewise at the current
///   QNH or at 1013.25 hPa. With the tendency, (B, Ḃ) is a constant-velocity block whose rate reverts to zero
///   and is driven by white noise of density q_Ḃ (`weatherTendencyNoiseDensity`, converted from (hPa/h)²/h to
///   m²/s³ with the same s_B), and B keeps its own random walk.
/// - C is a first-order Gauss-Markov process that reverts to zero, the standard atmosphere (climatology's mean), with
///   stationary spread σ_C (`columnTemperaturePriorStandardDeviation`) and correlation time τ_C
///   (`columnTemperatureCorrelationTime`): dC = −C/τ_C dt + dw, dw of density q_C = 2 σ_C²/τ_C. A change dC of the
///   column's temperature, whether its own noise or its return to climatology, leaves the station's altitude and
///   pressure alone: it comes with dU = dB = γ dC, γ = −m/(T₀ dh₀/dU) (`columnCoupling`), so that h and the
///   barometer's B − U do not move and only the altimeter setting does.
///   Exactly over dt, with φ_C = exp(−dt/τ_C): C gains (φ_C − 1) C + w and U and B gain γ times that, so F's
///   column C holds (γ (φ_C − 1), γ (φ_C − 1), φ_C) on (U, B, C), and Q's (U, B, C) block is σ_C² (1 − φ_C²) g gᵀ
///   with g = (γ, γ, 1). Without the coupling the column would move the altitude by m/T₀ per kelvin (3.5 m a kelvin
///   after a 1,000 m climb), weather noise that no air mass makes, which GPS must then take back.
///   Where the lapse rate is not the standard one, C (the column's mean offset between sea level and the station)
///   also changes with the height moved (`AltitudeModelParameters.columnLapseRateStandardDeviation`): C alone gains
///   q_Γ |v| dt, density `columnHeightNoiseDensity` in effect, which the owner sets from the barometer's vertical
///   speed v. That change is the temperature of the layer just crossed, which sets the height the pressure change
///   stood for: it moves the altitude by m/T₀ per kelvin, and not the pressure.
/// - e is a first-order Gauss-Markov process, φ = exp(−dt/τ), variance σ_e²(1 − φ²) added per step.
///
/// The engine never mutates a model: it is a value, saved whole in checkpoints.
public struct AltitudeModel: StateSpaceModel, Sendable, Equatable, Codable {
    /// The parameters the model was built from.
    public let parameters: AltitudeModelParameters
    /// s_U² = (dU/dh)², dimensionless, where the owner last set it (see the type's discussion).
    public internal(set) var altitudeScaleSquared: Double
    /// s_B² = (dB/db)², in (m/hPa)², where the owner last set it.
    public internal(set) var weatherScaleSquared: Double
    /// The altitude random walk's density in effect, in m²/s, before the scale s_U²: the density at the barometer's
    /// smoothed vertical speed (`AltitudeModelParameters.altitudeNoiseDensity(atVerticalSpeed:restDensity:)`), which
    /// `AltitudeFilter` sets, or q_h where no pressure vouches for the motion.
    public internal(set) var altitudeNoiseDensity: Double
    /// The column offset's noise density from the height moved, in K²/s (C alone; see the type's discussion):
    /// `AltitudeModelParameters.columnNoiseDensity(atVerticalSpeed:)`, which `AltitudeFilter` sets, or zero where no
    /// pressure vouches for the motion.
    public internal(set) var columnHeightNoiseDensity: Double
    /// γ = dU/dC = dB/dC of the column's changes, in metres per kelvin, where the owner last set it (see the
    /// type's discussion): −m/(T₀ dh₀/dU), zero before the device moves, about −3.6 m/K after a 1,000 m climb.
    public internal(set) var columnCoupling: Double
    /// σ_e, the receiver's correlated error spread in effect, in metres: the parameters' receiver, or the one
    /// `ReceiverLearner` has learned (`AltitudeFilter` sets it).
    public internal(set) var gpsErrorStandardDeviation: Double
    /// τ, the receiver's correlation time in effect, in seconds (as `gpsErrorStandardDeviation`).
    public internal(set) var gpsCorrelationTime: Double

    /// Index of U in the state.
    public static let altitudeIndex = 0
    /// Index of B in the state.
    public static let weatherIndex = 1
    /// Index of Ḃ, when the model has a tendency.
    public static let tendencyIndex = 2

    /// dB/db, metres of log-pressure weather per hPa of sea-level pressure at standard QNH.
    public static let weatherScale = LogPressureCoordinates.scaleHeight / StandardAtmosphere.seaLevelPressure

    /// A model for `parameters`, with the altitude noise scaled at `startAltitude` (metres) in standard air and
    /// the weather noise at 1013.25 hPa.
    ///
    /// - Parameters:
    ///   - parameters: the model's tunable numbers.
    ///   - startAltitude: the altitude at which the altitude noise is scaled, in metres above mean sea level.
    public init(parameters: AltitudeModelParameters, startAltitude: Meters) {
        self.parameters = parameters
        let s =
            LogPressureCoordinates.temperatureHeight
            / (LogPressureCoordinates.temperatureHeight - min(startAltitude, 11_000))
        altitudeScaleSquared = s * s
        weatherScaleSquared = Self.weatherScale * Self.weatherScale
        altitudeNoiseDensity = parameters.altitudeNoiseDensity
        columnHeightNoiseDensity = 0
        columnCoupling = 0
        gpsErrorStandardDeviation = parameters.gpsErrorStandardDeviation
        gpsCorrelationTime = parameters.gpsCorrelationTime
    }

    /// γ = −m/(T₀ dh₀/dU) for the height moved m (metres) at the standard altitude h₀, with dh₀/dU = 1 − L h₀/T₀ and
    /// h₀ held within the troposphere model, so that γ is finite for any state; in metres per kelvin.
    static func columnCoupling(heightMoved m: Meters, atStandardAltitude h0: Meters) -> Double {
        let slope = 1 - StandardAtmosphere.lapseRate * heldStandardAltitude(h0) / StandardAtmosphere.seaLevelTemperature
        let gamma = -m / (StandardAtmosphere.seaLevelTemperature * slope)
        return gamma.isFinite ? gamma : 0
    }

    /// s_U = dU/dh = T₀/T(h) = T₀/(k (T₀ − L h₀)), the altitude's noise scale at the standard altitude h₀ and column
    /// scale k (k = 1 without the column state), dimensionless: between 0.65 and 2.66.
    ///
    /// h₀ is held within the troposphere model (−1,000 to 11,000 m) and k within 0.5 to 1.5 (C within ±144 K; a k
    /// that is not finite counts as 1): a state that a long gap of diffuse prediction has taken outside them would
    /// otherwise make s_U, and with it Q, infinite.
    ///
    /// - Parameters:
    ///   - h0: h₀, the standard altitude, in metres.
    ///   - k: the column scale k, dimensionless.
    public static func altitudeScale(atStandardAltitude h0: Meters, columnScale k: Double) -> Double {
        let h = heldStandardAltitude(h0)
        let scale = k.isFinite ? min(max(k, columnScaleRange.lowerBound), columnScaleRange.upperBound) : 1
        let T0 = StandardAtmosphere.seaLevelTemperature
        return T0 / (scale * (T0 - StandardAtmosphere.lapseRate * h))
    }

    /// The column scales k = 1 + C/T₀ the model holds its state and noise scales within: C within ±144 K.
    public static let columnScaleRange = 0.5...1.5

    /// The log-pressure altitudes U, in metres, the filter holds its state within (`holdStateInModelRange`): h₀ from
    /// −11.2 km to 33 km, beyond every pressure of 10 to 1,200 hPa at any QNH from 870 to 1,085 hPa.
    public static let logPressureAltitudeRange: ClosedRange<Meters> = -10_000...60_000

    /// The column's temperature offsets C, in kelvin, that `columnScaleRange` allows: (k − 1) T₀, ±144 K.
    public static let columnOffsetRange: ClosedRange<Double> = {
        let T0 = StandardAtmosphere.seaLevelTemperature
        return (columnScaleRange.lowerBound - 1) * T0...(columnScaleRange.upperBound - 1) * T0
    }()

    /// The weather tendencies Ḃ, in metres of B per second, the filter holds its state within
    /// (`holdStateInModelRange`): ±1,000 hPa/h at standard QNH (±2.3 m/s), a thousand times the tendency's quiet
    /// stationary spread (1 hPa/h) and 250 times its spread in a front (4 hPa/h).
    public static let tendencyRange: ClosedRange<Double> = -1_000 * weatherScale / 3_600...1_000 * weatherScale / 3_600

    static func heldStandardAltitude(_ h0: Meters) -> Meters {
        h0.isFinite ? min(max(h0, StandardAtmosphere.minimumAltitude), StandardAtmosphere.tropopauseAltitude) : 0
    }

    private enum CodingKeys: String, CodingKey {
        case parameters, altitudeScaleSquared, weatherScaleSquared, altitudeNoiseDensity, columnHeightNoiseDensity,
            columnCoupling, gpsErrorStandardDeviation,
            gpsCorrelationTime
    }

    /// Decodes a saved model, every value checked finite and in range: a saved state is outside data.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        parameters = try c.decode(AltitudeModelParameters.self, forKey: .parameters)
        func positive(_ key: CodingKeys) throws -> Double {
            let v = try c.decode(Double.self, forKey: key)
            guard v.isFinite, v > 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: c, debugDescription: "expected a finite number > 0, found \(v)")
            }
            return v
        }
        func nonNegative(_ key: CodingKeys) throws -> Double {
            let v = try c.decode(Double.self, forKey: key)
            guard v.isFinite, v >= 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: c, debugDescription: "expected a finite number >= 0, found \(v)")
            }
            return v
        }
        altitudeScaleSquared = try positive(.altitudeScaleSquared)
        weatherScaleSquared = try positive(.weatherScaleSquared)
        altitudeNoiseDensity = try nonNegative(.altitudeNoiseDensity)
        columnHeightNoiseDensity = try nonNegative(.columnHeightNoiseDensity)
        columnCoupling = try c.decode(Double.self, forKey: .columnCoupling)
        guard columnCoupling.isFinite else {
            throw DecodingError.dataCorruptedError(
                forKey: .columnCoupling, in: c, debugDescription: "expected a finite number")
        }
        gpsErrorStandardDeviation = try positive(.gpsErrorStandardDeviation)
        gpsCorrelationTime = try positive(.gpsCorrelationTime)
    }

    /// The state dimension: 3, plus the tendency and the column when the parameters ask for them.
    public var stateCount: Int { parameters.stateCount }

    /// Index of e, the GPS error.
    public var gpsErrorIndex: Int { parameters.gpsErrorIndex }

    /// Index of C, the column's temperature offset; nil without it.
    public var columnIndex: Int? { parameters.columnIndex }

    /// Inlined into the engine's predict, which calls it at every step of an irregular recording.
    @inline(__always)
    public func discretize(over dt: Seconds, transition F: inout Matrix, processNoise Q: inout Matrix) {
        let p = parameters
        let s2 = weatherScaleSquared
        let n = stateCount
        let k = gpsErrorIndex
        // e: first-order Gauss-Markov, exact for any dt.
        let phi = exp(-dt / gpsCorrelationTime)
        // (hPa/h)² per hour → hPa²/s³ → m²/s³.
        let tendency =
            p.hasTendency
            ? tendencyStep(over: dt, density: p.weatherTendencyNoiseDensity / (3_600 * 3_600 * 3_600) * s2) : nil
        precondition(
            F.rows == n && F.columns == n && Q.rows == n && Q.columns == n, "discretize: F and Q must be n x n")
        // Written through the column-major storage (element (i, j) at i + j n): this runs once per predict, and
        // the checked subscript would cost a uniqueness check per element.
        F.elements.withUnsafeMutableBufferPointer { f in
            // U: random walk.
            f[0] = 1
            // B (and Ḃ): random walk, or constant velocity plus a random walk on B.
            f[1 &+ n] = 1
            if let tendency {
                f[1 &+ 2 &* n] = tendency.shift
                f[2 &+ 2 &* n] = tendency.decay
            }
            f[k &+ k &* n] = phi
            if let c = p.columnIndex {
                // C reverts by (φ_C − 1) C; U and B move by γ times that, so h and B − U stay.
                let (decay, change) = columnTransition(over: dt)
                f[c &+ c &* n] = decay
                f[c &* n] = columnCoupling * change
                f[1 &+ c &* n] = columnCoupling * change
            }
        }
        Q.elements.withUnsafeMutableBufferPointer { q in
            q[0] = altitudeNoiseDensity * altitudeScaleSquared * dt
            q[1 &+ n] = p.weatherNoiseDensity * s2 * dt
            if let tendency {
                q[1 &+ n] += tendency.bb
                q[2 &+ n] = tendency.bt
                q[1 &+ 2 &* n] = tendency.bt
                q[2 &+ 2 &* n] = tendency.tt
            }
            q[k &+ k &* n] = gpsErrorStandardDeviation * gpsErrorStandardDeviation * (1 - phi * phi)
            if let c = parameters.columnIndex {
                // σ_C² (1 − φ_C²) g gᵀ, g = (γ, γ, 1) on (U, B, C): the column changes, the altitude and B − U do not;
                // and C's own q_Γ |v| dt from the height moved, which moves the altitude and not the pressure.
                let qc = columnNoise(over: dt)
                let g = columnCoupling
                q[0] += qc * g * g
                q[1 &+ n] += qc * g * g
                q[1] = qc * g * g
                q[n] = qc * g * g
                q[c] = qc * g
                q[c &* n] = qc * g
                q[1 &+ c &* n] = qc * g
                q[c &+ n] = qc * g
                q[c &+ c &* n] = qc + columnHeightNoiseDensity * dt
            }
        }
    }
}

extension AltitudeModel {
    /// F's column entries over dt: C's decay φ_C = exp(−dt/τ_C) and its change per kelvin, φ_C − 1 (from one
    /// expm1, exact for small dt).
    func columnTransition(over dt: Double) -> (decay: Double, change: Double) {
        let m = expm1(-dt / parameters.columnTemperatureCorrelationTime)
        return (1 + m, m)
    }

    /// The variance C's noise adds over dt, in K²: σ_C² (1 − φ_C²) = −σ_C² expm1(−2 dt/τ_C), the exact discrete
    /// Gauss-Markov variance (q_C dt = 2 σ_C² dt/τ_C for dt ≪ τ_C).
    func columnNoise(over dt: Double) -> Double {
        let sigma = parameters.columnTemperaturePriorStandardDeviation
        return -sigma * sigma * expm1(-2 * dt / parameters.columnTemperatureCorrelationTime)
    }

    /// The tendency's rate of return to zero, a = 1/τ in 1/s (zero: a random walk).
    var tendencyReversionRate: Double {
        let tau = parameters.weatherTendencyCorrelationTime
        return tau > 0 && tau.isFinite ? 1 / tau : 0
    }

    /// (1 − φ)/x = −m/x for φ = exp(−x), m = expm1(−x): its series 1 − x/2 below x = 10⁻⁸ (the next term, x²/6, is
    /// under 10⁻¹⁶ of it), where a time step of 10⁻³²² s (a subnormal number) makes x zero and −m/x 0/0.
    static func oneMinusDecayOverX(_ x: Double, _ m: Double) -> Double {
        x < 1e-8 ? 1 - x / 2 : -m / x
    }

    /// (1 − φ²)/(2x) = −m (2 + m)/(2x): its series 1 − x below x = 10⁻⁸, as `oneMinusDecayOverX`.
    static func oneMinusDecaySquaredOverTwoX(_ x: Double, _ m: Double) -> Double {
        x < 1e-8 ? 1 - x : -m * (2 + m) / (2 * x)
    }

    /// The (B, Ḃ) block of F and Q over dt, for white noise of density q on the tendency.
    ///
    /// F: B gains Ḃ (1 − φ)/a and Ḃ decays by φ = exp(−a dt) (dt and 1 for a random walk). Q (m², m²/s, m²/s²):
    ///
    ///     random walk (a = 0):  q dt³/3,                      q dt²/2,              q dt
    ///     reverting (a = 1/τ):  q/a² [dt − 2(1−φ)/a + (1−φ²)/(2a)],  q (1−φ)²/(2a²),  q (1−φ²)/(2a)
    ///
    /// The first reverting entry cancels to q dt³ (1/3 − x/4 + 7x²/60 − x³/24 + …), x = a dt, which is used
    /// below x = 10⁻², where the series' next term is under 10⁻⁹ of the sum. One expm1 serves F and Q:
    /// 1 − φ = −m and 1 − φ² = (1 − φ)(1 + φ) = −m (2 + m), with m = expm1(−x).
    func tendencyStep(over dt: Double, density q: Double) -> TendencyStep {
        let a = tendencyReversionRate
        let dt2 = dt * dt
        guard a > 0 else {
            return TendencyStep(shift: dt, decay: 1, bb: q * dt2 * dt / 3, bt: q * dt2 / 2, tt: q * dt)
        }
        let x = a * dt
        let m = expm1(-x)
        let oneMinusPhiOverX = Self.oneMinusDecayOverX(x, m)
        let oneMinusPhi2Over2X = Self.oneMinusDecaySquaredOverTwoX(x, m)
        let bb =
            x < 1e-2
            ? q * dt2 * dt * (1.0 / 3 - x / 4 + 7 * x * x / 60 - x * x * x / 24)
            : q / (a * a) * dt * (1 - 2 * oneMinusPhiOverX + oneMinusPhi2Over2X)
        return TendencyStep(
            shift: dt * oneMinusPhiOverX, decay: 1 + m, bb: bb,
            bt: q * dt2 * oneMinusPhiOverX * oneMinusPhiOverX / 2, tt: q * dt * oneMinusPhi2Over2X)
    }

    /// The tendency's entries of F and Q over one step (`tendencyStep(over:density:)`).
    struct TendencyStep {
        /// F's (B, Ḃ) entry, (1 − φ)/a in seconds, and its (Ḃ, Ḃ) entry, φ.
        var shift: Double, decay: Double
        /// Q's (B, B), (B, Ḃ) and (Ḃ, Ḃ) entries, in m², m²/s and m²/s².
        var bb: Double, bt: Double, tt: Double
    }
}

/// The sensors of the altitude model, as measurement kinds of the engine.
///
/// With h₀(U) = (T₀/L)(1 − exp(−L U/T₀)) and the column scale k = 1 + C/T₀ (k = 1 without the column state):
///
/// - `barometer`: z = H₀ ln(p / 1013.25) = B − U, linear in these coordinates; R = (H₀ σ_p / p)².
/// - `gps`: z = h₀(U) + (C/T₀) m + e; H = [exp(−L U/T₀), 0, (0,) (m/T₀,) 1], m the height moved.
/// - `temperature`: z = T₀ + C − L k h₀(U), the column's temperature at the station in kelvin;
///   H = [−L k exp(−L U/T₀), 0, (0,) 1 − L h₀/T₀, 0]. Only with the column state.
///
/// `Docs/model.md` derives them; `AltitudeModelTests` checks each H against central differences of h(x).
public struct AltitudeSensor: MeasurementKind, Sendable, Equatable, Hashable, Codable {
    /// Which sensor.
    public enum Source: String, Sendable, Equatable, Hashable, Codable {
        /// The barometer (hPa), the GPS (metres), or the air temperature (kelvin).
        case barometer, gps, temperature
    }

    /// Which sensor this is.
    public let source: Source
    /// Index of e in the state.
    public let gpsErrorIndex: Int
    /// Index of C in the state, or nil without the column state.
    public let columnIndex: Int?
    /// m, the height moved over which the column's scale applies, in metres (`AltitudeFilter.heightMoved`).
    public let heightMoved: Meters
    /// The measurement of `source`, with the GPS error's and the column's indices in the state.
    ///
    /// - Parameters:
    ///   - source: the sensor measured.
    ///   - gpsErrorIndex: the index of the GPS error e in the state.
    ///   - columnIndex: the index of the column state C, or nil without it (required for a temperature).
    ///   - heightMoved: m, the height moved over which the column's scale applies, in metres (GPS only).
    public init(_ source: Source, gpsErrorIndex: Int, columnIndex: Int? = nil, heightMoved: Meters = 0) {
        precondition(
            source != .temperature || columnIndex != nil, "AltitudeSensor: a temperature needs the column state")
        self.source = source
        self.gpsErrorIndex = gpsErrorIndex
        self.columnIndex = columnIndex
        self.heightMoved = heightMoved
    }

    public var dimension: Int { 1 }

    /// The column scale k = 1 + C/T₀ at `x` (1 without the column state).
    @inline(__always)
    func columnScale(_ x: [Double]) -> Double {
        guard let c = columnIndex else { return 1 }
        return 1 + x[c] / StandardAtmosphere.seaLevelTemperature
    }

    public func observationMatrix(at mean: Matrix, into H: inout Matrix) {
        // H is 1 x n, so element (0, j) is elements[j]; written directly, as this runs once per update.
        precondition(
            H.elements.count > max(AltitudeModel.weatherIndex, gpsErrorIndex), "observationMatrix: H too small")
        switch source {
        case .barometer:
            H.elements.withUnsafeMutableBufferPointer { h in
                h[AltitudeModel.altitudeIndex] = -1
                h[AltitudeModel.weatherIndex] = 1
            }
        case .gps:
            let x = mean.elements
            let slope = LogPressureCoordinates.altitudeDerivative(x[AltitudeModel.altitudeIndex])
            let k = gpsErrorIndex
            H.elements.withUnsafeMutableBufferPointer { h in
                h[AltitudeModel.altitudeIndex] = slope
                h[k] = 1
                // dh/dC = m/T₀.
                if let c = columnIndex { h[c] = heightMoved / StandardAtmosphere.seaLevelTemperature }
            }
        case .temperature:
            let x = mean.elements
            let slope = LogPressureCoordinates.altitudeDerivative(x[AltitudeModel.altitudeIndex])
            let L = StandardAtmosphere.lapseRate
            H.elements.withUnsafeMutableBufferPointer { h in
                h[AltitudeModel.altitudeIndex] = -L * columnScale(x) * slope
                // 1 − L h₀/T₀ = exp(−L U/T₀).
                if let c = columnIndex { h[c] = slope }
            }
        }
    }

    public func predictedMeasurement(at mean: Matrix, observationMatrix: Matrix, into predicted: inout Matrix) {
        let x = mean.elements
        switch source {
        case .barometer:
            predicted.elements[0] = x[AltitudeModel.weatherIndex] - x[AltitudeModel.altitudeIndex]
        case .gps:
            // h = h₀ + (C/T₀) m, h₀ = (T₀/L)(1 − exp(−U L/T₀)), and H's first entry is that exponential:
            // one exp per fix instead of two.
            let scale = columnScale(x)
            let slope = observationMatrix.elements[AltitudeModel.altitudeIndex]
            let h0 = LogPressureCoordinates.temperatureHeight * (1 - slope)
            predicted.elements[0] = h0 + (scale - 1) * heightMoved + x[gpsErrorIndex]
        case .temperature:
            let scale = columnScale(x)
            let h0 = LogPressureCoordinates.altitude(x[AltitudeModel.altitudeIndex])
            predicted.elements[0] =
                StandardAtmosphere.seaLevelTemperature * scale - StandardAtmosphere.lapseRate * scale * h0
        }
    }
}
