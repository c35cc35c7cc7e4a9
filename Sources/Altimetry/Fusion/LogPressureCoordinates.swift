import Foundation

/// The coordinates the altitude filter works in, which make the barometer a linear measurement.
///
/// The barometric formula p = (1013.25 + b)(1 − L h / T₀)ⁿ is nonlinear in the altitude h and the weather
/// offset b. Taking logarithms and writing
///
///     U = −(T₀ / L) ln(1 − L h / T₀)            (altitude, in metres of log-pressure),
///     B = (T₀ / (n L)) ln((1013.25 + b) / 1013.25)  (weather, in metres of log-pressure),
///
/// gives ln p = ln 1013.25 + (n L / T₀)(B − U): the barometer measures B − U linearly, with the scale height
/// H₀ = T₀ / (n L) = R T₀ / (g M) ≈ 8,434.6 m as the factor. An extended filter that re-linearised the barometer
/// around a moving estimate became overconfident (reported 3.75 m, achieved 4.67 m in a reference run); in
/// these coordinates nothing needs re-linearising there. The nonlinearity moves to the GPS update,
/// h = (T₀ / L)(1 − exp(−L U / T₀)), whose curvature over the metres an update moves is negligible
/// (dh/dU = T(h)/T₀ changes by 2 × 10⁻⁶ per metre).
///
/// Near sea level U ≈ h and B ≈ 8.32 m per hPa of b.
public enum LogPressureCoordinates {
    /// T₀ / L, in metres: the height at which the standard temperature would reach 0 K (44,330.8 m).
    public static let temperatureHeight = StandardAtmosphere.seaLevelTemperature / StandardAtmosphere.lapseRate
    /// The scale height at T₀, H₀ = T₀ / (n L), in metres.
    public static let scaleHeight = temperatureHeight / StandardAtmosphere.pressureExponent

    /// U for an altitude h in metres (h < T₀/L).
    @inlinable
    public static func logPressureAltitude(_ altitude: Meters) -> Meters {
        -temperatureHeight * log(1 - altitude / temperatureHeight)
    }

    /// The altitude h in metres for a log-pressure altitude U.
    @inlinable
    public static func altitude(_ logPressureAltitude: Meters) -> Meters {
        temperatureHeight * (1 - exp(-logPressureAltitude / temperatureHeight))
    }

    /// dh/dU at U: exp(−U L / T₀) = T(h) / T₀, dimensionless.
    @inlinable
    public static func altitudeDerivative(_ logPressureAltitude: Meters) -> Double {
        exp(-logPressureAltitude / temperatureHeight)
    }

    /// B for a sea-level pressure (QNH) in hPa.
    @inlinable
    public static func logPressureWeather(seaLevelPressure: Hectopascals) -> Meters {
        scaleHeight * log(seaLevelPressure / StandardAtmosphere.seaLevelPressure)
    }

    /// The sea-level pressure (QNH) in hPa for a log-pressure weather offset B.
    @inlinable
    public static func seaLevelPressure(_ logPressureWeather: Meters) -> Hectopascals {
        StandardAtmosphere.seaLevelPressure * exp(logPressureWeather / scaleHeight)
    }

    /// dQNH/dB at B, in hPa per metre: QNH / H₀.
    @inlinable
    public static func seaLevelPressureDerivative(_ logPressureWeather: Meters) -> Double {
        seaLevelPressure(logPressureWeather) / scaleHeight
    }

    /// The barometer's measurement in these coordinates, H₀ ln(p / 1013.25) = B − U, in metres.
    @inlinable
    public static func barometerMeasurement(pressure: Hectopascals) -> Meters {
        scaleHeight * log(pressure / StandardAtmosphere.seaLevelPressure)
    }
}
