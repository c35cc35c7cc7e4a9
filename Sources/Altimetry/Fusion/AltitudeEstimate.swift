import StateEstimation

/// What the altitude filter knows after a reading.
public struct AltitudeEstimate: Sendable, Equatable, Codable {
    /// Time of the estimate, in seconds.
    public var time: Double
    /// Absolute altitude above mean sea level, in metres.
    public var altitude: Meters
    /// One-sigma accuracy of `altitude`, √P_hh, in metres: the error falls inside it about 68 % of the time.
    public var altitudeStandardDeviation: Meters
    /// The resolution worth displaying, in metres (a 1-2-5 step at most half the sigma, at least 0.1 m),
    /// in the spirit of Core Motion's `precision`.
    public var displayPrecision: Meters
    /// Barometric altitude change since the first pressure, at standard QNH, in metres (weather included, as
    /// Core Motion's relative altitude).
    public var relativeAltitude: Meters
    /// Estimated sea-level pressure (QNH), in hPa: the reference a barometer needs to read altitude.
    public var seaLevelPressure: Hectopascals
    /// One sigma of `seaLevelPressure`, in hPa.
    public var seaLevelPressureStandardDeviation: Hectopascals
    /// Estimated weather tendency, the rate of change of QNH, in hPa per hour (0 without the tendency state).
    public var weatherTendency: Double
    /// Estimated correlated GPS altitude error e, in metres (GPS reads h + e).
    public var gpsError: Meters
    /// One sigma of `gpsError`, in metres.
    public var gpsErrorStandardDeviation: Meters
    /// The air column's temperature at the estimated altitude, in kelvin: (T₀ + C)(1 − L h₀/T₀), the temperature
    /// that sets the scale of barometric height differences here (NaN without the column state).
    public var columnTemperature: Kelvin
    /// One sigma of `columnTemperature`, in kelvin.
    public var columnTemperatureStandardDeviation: Kelvin
    /// m, the height moved since the start over which the column's scale applies, in metres (`AltitudeModel`).
    public var heightMoved: Meters = 0
    /// What the fault monitoring did or held at this reading ("ok" when nothing).
    public var status: AltitudeFilterStatus = []
    /// The barometer update at this reading, if it had a pressure.
    public var barometerUpdate: ScalarUpdateRecord?
    /// The GPS update at this reading, if it had a fix: accepted or gated, with its NIS.
    public var gpsUpdate: ScalarUpdateRecord?

    /// The resolution worth showing for a one sigma: the largest of 0.1, 0.2, 0.5, 1, 2, 5, … m not above σ/2.
    ///
    /// - Parameter sigma: σ, in metres.
    public static func displayPrecision(forStandardDeviation sigma: Double) -> Double {
        var step = 0.1
        var decade = 1.0
        while true {
            // 1, 2, 5 times the decade (a tuple, not an array: this runs for every row).
            for index in 0..<3 {
                let candidate = (index == 0 ? 0.1 : index == 1 ? 0.2 : 0.5) * decade
                if candidate > sigma / 2 { return step }
                step = candidate
            }
            decade *= 10
            if decade > 1e6 { return step }
        }
    }
}
