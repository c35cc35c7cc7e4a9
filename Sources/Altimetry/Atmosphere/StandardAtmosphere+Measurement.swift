import Foundation

extension StandardAtmosphere {
    /// Converts a pressure in any unit (hPa, kPa, Pa, mbar, inHg, …) to the hectopascals the core works in.
    ///
    /// This is the boundary: platforms report kilopascals (Apple's Core Motion) or hectopascals (Android),
    /// and a factor of ten is easy to lose, so values enter as `Measurement`s and leave as hPa.
    ///
    /// - Throws: `AtmosphereError.pressureNotPositive` for a value that is not positive and finite.
    public static func hectopascals(_ pressure: Foundation.Measurement<UnitPressure>) throws(AtmosphereError)
        -> Hectopascals
    {
        let value = pressure.converted(to: .hectopascals).value
        try validate(pressure: value)
        return value
    }

    /// Pressure at an altitude, as a `Measurement` in hectopascals.
    ///
    /// - Parameters:
    ///   - altitude: metres above mean sea level.
    ///   - seaLevelPressure: the reference p₀ (QNH), in any pressure unit.
    /// - Throws: `AtmosphereError` for an altitude outside the model or a reference that is not positive and finite.
    public static func pressure(
        atAltitude altitude: Meters,
        seaLevelPressure: Foundation.Measurement<UnitPressure>
    ) throws(AtmosphereError) -> Foundation.Measurement<UnitPressure> {
        Foundation.Measurement(
            value: try pressure(atAltitude: altitude, seaLevelPressure: hectopascals(seaLevelPressure)),
            unit: .hectopascals)
    }

    /// Altitude at a pressure given in any unit, for a reference QNH in any unit, in metres.
    ///
    /// - Parameters:
    ///   - pressure: the station pressure p, in any pressure unit.
    ///   - seaLevelPressure: the reference p₀ (QNH), in any pressure unit; the standard 1013.25 hPa by default.
    /// - Throws: `AtmosphereError` for pressures that are not positive and finite, or a result outside the model.
    public static func altitude(
        atPressure pressure: Foundation.Measurement<UnitPressure>,
        seaLevelPressure: Foundation.Measurement<UnitPressure> = Foundation.Measurement(
            value: StandardAtmosphere.seaLevelPressure, unit: .hectopascals)
    )
        throws(AtmosphereError) -> Meters
    {
        try altitude(atPressure: hectopascals(pressure), seaLevelPressure: hectopascals(seaLevelPressure))
    }

    /// Hypsometric height difference between two pressures given in any unit, in metres.
    ///
    /// - Parameters:
    ///   - p1: the first pressure p₁, in any pressure unit.
    ///   - p2: the second pressure p₂, in any pressure unit.
    ///   - meanTemperature: T̄, the mean temperature of the air between them, in any temperature unit.
    /// - Throws: `AtmosphereError` for pressures or a temperature that are not positive and finite.
    public static func heightDifference(
        from p1: Foundation.Measurement<UnitPressure>, to p2: Foundation.Measurement<UnitPressure>,
        meanTemperature: Foundation.Measurement<UnitTemperature>
    ) throws(AtmosphereError) -> Meters {
        try heightDifference(
            from: hectopascals(p1), to: hectopascals(p2),
            meanTemperature: meanTemperature.converted(to: .kelvin).value)
    }
}
