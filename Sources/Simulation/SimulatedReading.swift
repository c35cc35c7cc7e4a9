import Altimetry
import StateEstimation

/// One row of a simulated recording: what the sensors reported at one instant, and the true altitude.
///
/// A row carries a barometer reading, a GPS fix, or both when the two sensors sampled at exactly the same
/// instant. The coding keys are the recording format's column names: `t`, `pressure_hpa`, `gps_alt_m`,
/// `gps_vacc_m`, `temperature_c`, `true_alt_m`; an absent value is an absent key.
public struct SimulatedReading: Sendable, Equatable, Codable {
    /// Time of the row, in seconds since the start of the scenario.
    public var time: Seconds
    /// Barometer station pressure, in hPa, or `nil` when the barometer did not sample at this instant.
    public var pressure: Hectopascals?
    /// GPS altitude above mean sea level, in metres, or `nil` without a fix.
    public var gpsAltitude: Meters?
    /// The fix's reported vertical accuracy, in metres (convention per `ReportedVerticalAccuracy`), or `nil`.
    public var gpsVerticalAccuracy: Meters?
    /// Air temperature reading, in degrees Celsius, or `nil`.
    public var temperatureCelsius: Double?
    /// True altitude above mean sea level, in metres.
    public var trueAltitude: Meters

    /// A reading at `time` (seconds) with pressure in hPa, altitudes and accuracy in metres, temperature in °C.
    ///
    /// - Parameters:
    ///   - time: seconds since the start of the scenario.
    ///   - pressure: the barometer's station pressure, in hPa, or nil.
    ///   - gpsAltitude: the GPS altitude above mean sea level, in metres, or nil without a fix.
    ///   - gpsVerticalAccuracy: the fix's reported vertical accuracy, in metres, or nil.
    ///   - temperatureCelsius: the air temperature reading, in degrees Celsius, or nil.
    ///   - trueAltitude: the true altitude above mean sea level, in metres.
    public init(
        time: Seconds, pressure: Hectopascals? = nil, gpsAltitude: Meters? = nil,
        gpsVerticalAccuracy: Meters? = nil, temperatureCelsius: Double? = nil, trueAltitude: Meters
    ) {
        self.time = time
        self.pressure = pressure
        self.gpsAltitude = gpsAltitude
        self.gpsVerticalAccuracy = gpsVerticalAccuracy
        self.temperatureCelsius = temperatureCelsius
        self.trueAltitude = trueAltitude
    }

    enum CodingKeys: String, CodingKey {
        case time = "t"
        case pressure = "pressure_hpa"
        case gpsAltitude = "gps_alt_m"
        case gpsVerticalAccuracy = "gps_vacc_m"
        case temperatureCelsius = "temperature_c"
        case trueAltitude = "true_alt_m"
    }
}
