import Altimetry
import Foundation

/// The true temperature of the air column, and the station pressure it implies.
///
/// The temperature falls linearly with height, T(h) = T₀ + ΔT − Γ h, with ΔT the offset from the standard
/// atmosphere (the same at every height) and Γ the lapse rate. Integrating the hypsometric relation
/// dp / p = −(g M / (R T(h))) dh from sea level, where the pressure is the QNH p_s, gives
///
///     p(h) = p_s (1 − Γ h / T_s)^(g M / (R Γ)),   T_s = T₀ + ΔT,     (Γ ≠ 0)
///     p(h) = p_s exp(−g M h / (R T_s)),                               (Γ = 0, isothermal)
///
/// which is exactly the standard barometric formula when ΔT = 0 and Γ = 0.0065 K/m. A colder column is
/// denser, so its pressure falls faster with height: a filter that assumes the standard atmosphere reads
/// the station as higher than it is (about 7 % of the height above the reference at ΔT = −20 K).
public struct AirColumn: Sendable, Equatable, Codable {
    /// Offset ΔT from the standard atmosphere's temperature, in kelvin (−20 is 20 K colder at every height).
    public var temperatureOffset: Kelvin
    /// Lapse rate Γ, in K/m (positive when the air cools with height; the standard 0.0065).
    public var lapseRate: Double

    /// A column `temperatureOffset` kelvin from standard with lapse rate `lapseRate` in K/m.
    ///
    /// - Parameters:
    ///   - temperatureOffset: the column's offset from the standard atmosphere's temperature, in kelvin; 0 by default.
    ///   - lapseRate: Γ, the temperature's fall with height, in K/m; the standard 0.0065 K/m by default.
    public init(temperatureOffset: Kelvin = 0, lapseRate: Double = StandardAtmosphere.lapseRate) {
        self.temperatureOffset = temperatureOffset
        self.lapseRate = lapseRate
    }

    /// The standard atmosphere's column.
    public static let standard = AirColumn()

    /// Sea-level temperature T_s = T₀ + ΔT, in kelvin.
    public var seaLevelTemperature: Kelvin { StandardAtmosphere.seaLevelTemperature + temperatureOffset }

    /// Air temperature at an altitude, T_s − Γ h, in kelvin.
    public func temperature(atAltitude altitude: Meters) -> Kelvin {
        seaLevelTemperature - lapseRate * altitude
    }

    /// Station pressure at an altitude for a sea-level pressure (QNH), in hPa: the hypsometric integral above.
    ///
    /// - Parameters:
    ///   - altitude: metres above mean sea level; the temperature there must be positive.
    ///   - seaLevelPressure: the true QNH p_s, in hPa.
    public func pressure(atAltitude altitude: Meters, seaLevelPressure: Hectopascals) -> Hectopascals {
        let g = StandardAtmosphere.gravity, m = StandardAtmosphere.molarMass, r = StandardAtmosphere.gasConstant
        if lapseRate == 0 {
            return seaLevelPressure * exp(-g * m * altitude / (r * seaLevelTemperature))
        }
        return seaLevelPressure * pow(1 - lapseRate * altitude / seaLevelTemperature, g * m / (r * lapseRate))
    }
}
