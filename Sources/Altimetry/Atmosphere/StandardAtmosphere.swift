import Foundation

/// The International Standard Atmosphere's troposphere, and the hypsometric physics built on it.
///
/// In air at rest, hydrostatic balance dp = −ρ g dh and the ideal gas law ρ = p M / (R T) give
/// dp / p = −(g M / (R T)) dh. Integrating between two pressures at a mean temperature T̄ gives the
/// hypsometric equation
///
///     h₂ − h₁ = (R T̄ / (g M)) ln(p₁ / p₂) = H ln(p₁ / p₂),
///
/// with H the scale height. In the standard troposphere the temperature falls linearly, T(h) = T₀ − L h,
/// and integrating with that profile gives the barometric formula
///
///     p(h) = p₀ (1 − L h / T₀)^n,   n = g M / (R L) ≈ 5.255786,
///
/// where p₀ is the sea-level pressure (QNH, 1013.25 hPa in the standard atmosphere). Every pressure here is
/// in hectopascals, every altitude in metres above mean sea level, every temperature in kelvin.
///
/// The model holds from `minimumAltitude` (below the Dead Sea shore) to the tropopause at 11,000 m; outside
/// that range, and for pressures or temperatures that are not positive and finite, the functions throw.
public enum StandardAtmosphere {
    /// Universal gas constant R, in J/(mol·K).
    public static let gasConstant = 8.314_462_618
    /// Molar mass of dry air M, in kg/mol.
    public static let molarMass = 0.028_964_4
    /// Standard gravity g, in m/s².
    public static let gravity = 9.806_65
    /// Standard sea-level pressure p₀, in hPa.
    public static let seaLevelPressure: Hectopascals = 1_013.25
    /// Standard sea-level temperature T₀, in kelvin (15 °C).
    public static let seaLevelTemperature: Kelvin = 288.15
    /// Temperature lapse rate L of the troposphere, in K/m.
    public static let lapseRate = 0.0065
    /// Exponent of the barometric formula, n = g M / (R L), dimensionless (≈ 5.255786).
    public static let pressureExponent = gravity * molarMass / (gasConstant * lapseRate)
    /// Top of the troposphere model, in metres.
    public static let tropopauseAltitude: Meters = 11_000
    /// Lowest altitude the model accepts, in metres (the deepest land depressions are near −430 m).
    public static let minimumAltitude: Meters = -1_000
    /// Density of dry air at sea level and 15 °C, in kg/m³.
    public static let seaLevelAirDensity = 1.225

    /// Standard temperature at an altitude, T₀ − L h, in kelvin.
    ///
    /// - Parameter altitude: h, in metres above mean sea level.
    /// - Throws: `AtmosphereError.altitudeOutOfRange` outside the troposphere model.
    public static func temperature(atAltitude altitude: Meters) throws(AtmosphereError) -> Kelvin {
        try validate(altitude: altitude)
        return seaLevelTemperature - lapseRate * altitude
    }

    /// Pressure at an altitude, p = p₀ (1 − L h / T₀)ⁿ, in hPa.
    ///
    /// - Parameters:
    ///   - altitude: metres above mean sea level.
    ///   - seaLevelPressure: the reference p₀ (QNH), in hPa; the standard 1013.25 by default.
    /// - Throws: `AtmosphereError` for an altitude outside the model or a reference that is not positive and finite.
    public static func pressure(
        atAltitude altitude: Meters,
        seaLevelPressure: Hectopascals = seaLevelPressure
    ) throws(AtmosphereError) -> Hectopascals {
        try validate(altitude: altitude)
        try validate(pressure: seaLevelPressure)
        return seaLevelPressure * pow(1 - lapseRate * altitude / seaLevelTemperature, pressureExponent)
    }

    /// Altitude at a pressure for a reference QNH, h = (T₀ / L)(1 − (p / p₀)^(1/n)), in metres.
    ///
    /// This is the inverse of `pressure(atAltitude:seaLevelPressure:)`, what an altimeter set to QNH shows.
    ///
    /// - Parameters:
    ///   - pressure: the station pressure p, in hPa.
    ///   - seaLevelPressure: the reference p₀ (QNH), in hPa; the standard 1013.25 by default.
    /// - Throws: `AtmosphereError` for pressures that are not positive and finite, or a result outside the model.
    public static func altitude(
        atPressure pressure: Hectopascals,
        seaLevelPressure: Hectopascals = seaLevelPressure
    ) throws(AtmosphereError) -> Meters {
        try validate(pressure: pressure)
        try validate(pressure: seaLevelPressure)
        let altitude = seaLevelTemperature / lapseRate * (1 - pow(pressure / seaLevelPressure, 1 / pressureExponent))
        try validate(altitude: altitude)
        return altitude
    }

    /// Height gained between two pressures in air at a mean temperature: the hypsometric equation
    /// Δh = (R T̄ / (g M)) ln(p₁ / p₂), in metres.
    ///
    /// Positive when p₂ < p₁ (the second reading is higher). Getting T̄ wrong scales the result by
    /// T_assumed / T_true, about 0.35 % per kelvin.
    ///
    /// - Parameters:
    ///   - p1: the first pressure p₁, in hPa.
    ///   - p2: the second pressure p₂, in hPa.
    ///   - meanTemperature: T̄, the mean temperature of the air between them, in kelvin.
    /// - Throws: `AtmosphereError` for pressures or a temperature that are not positive and finite.
    public static func heightDifference(
        from p1: Hectopascals, to p2: Hectopascals,
        meanTemperature: Kelvin
    ) throws(AtmosphereError) -> Meters {
        try validate(pressure: p1)
        try validate(pressure: p2)
        return try scaleHeight(temperature: meanTemperature) * log(p1 / p2)
    }

    /// The scale height H = R T / (g M), in metres: the height over which pressure falls by a factor e.
    ///
    /// 8,435 m at 15 °C.
    ///
    /// - Parameter temperature: T, in kelvin; the standard sea-level 288.15 K by default.
    /// - Throws: `AtmosphereError.temperatureNotAboveAbsoluteZero` for T ≤ 0 K or non-finite T.
    public static func scaleHeight(temperature: Kelvin = seaLevelTemperature) throws(AtmosphereError) -> Meters {
        guard temperature.isFinite, temperature > 0 else { throw .temperatureNotAboveAbsoluteZero(temperature) }
        return gasConstant * temperature / (molarMass * gravity)
    }

    /// How many metres one hectopascal is worth at an altitude, in m/hPa.
    ///
    /// Computed as the hypsometric height across the 1 hPa centred on the standard pressure at that
    /// altitude, at the standard temperature there: 8.32 m at sea level, 9.64 m at 1,500 m, 11.22 m at 3,000 m.
    /// Equal to H(T)/p to better than one part in 10⁵.
    ///
    /// - Parameter altitude: metres above mean sea level.
    /// - Throws: `AtmosphereError.altitudeOutOfRange` outside the model.
    public static func metersPerHectopascal(atAltitude altitude: Meters) throws(AtmosphereError) -> Double {
        let p = try pressure(atAltitude: altitude)
        return try heightDifference(from: p + 0.5, to: p - 0.5, meanTemperature: temperature(atAltitude: altitude))
    }

    /// Dynamic pressure of wind blowing into a port, q = ½ ρ v², in hPa.
    ///
    /// - Parameters:
    ///   - windSpeed: in m/s.
    ///   - airDensity: ρ in kg/m³; sea level at 15 °C by default.
    public static func dynamicPressure(windSpeed: Double, airDensity: Double = seaLevelAirDensity) -> Hectopascals {
        0.5 * airDensity * windSpeed * windSpeed / 100
    }

    /// The apparent height change a wind of this speed causes on a pressure port, in metres.
    ///
    /// The dynamic pressure times the local metres per hectopascal: an upper bound for wind straight into
    /// the port (1.3 m at 5 m/s, 5.1 m at 10 m/s, 20.4 m at 20 m/s at sea level).
    ///
    /// - Parameters:
    ///   - windSpeed: v, the wind's speed into the port, in m/s.
    ///   - altitude: metres above mean sea level; 0 by default.
    ///   - airDensity: ρ, in kg/m³; the standard sea-level 1.225 kg/m³ by default.
    /// - Throws: `AtmosphereError.altitudeOutOfRange` outside the model.
    public static func apparentHeight(
        windSpeed: Double, atAltitude altitude: Meters = 0,
        airDensity: Double = seaLevelAirDensity
    ) throws(AtmosphereError) -> Meters {
        dynamicPressure(windSpeed: windSpeed, airDensity: airDensity) * (try metersPerHectopascal(atAltitude: altitude))
    }

    static func validate(pressure: Hectopascals) throws(AtmosphereError) {
        guard pressure.isFinite, pressure > 0 else { throw .pressureNotPositive(pressure) }
    }

    static func validate(altitude: Meters) throws(AtmosphereError) {
        guard altitude.isFinite, altitude >= minimumAltitude, altitude <= tropopauseAltitude else {
            throw .altitudeOutOfRange(altitude)
        }
    }
}
