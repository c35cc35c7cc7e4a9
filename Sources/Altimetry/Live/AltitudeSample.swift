import Foundation
import StateEstimation

/// One barometer sample as a platform reports it: a time, the relative altitude, and the pressure in hPa.
///
/// Platforms disagree on the pressure unit: Core Motion's `CMAltitudeData.pressure` is in kilopascals, Android's
/// `Sensor.TYPE_PRESSURE` in hectopascals (millibars). A factor of ten is easy to lose (the seed's warning), so
/// the stored value is always hPa and there is no initialiser that takes an unlabelled pressure: each one names
/// its unit (`kilopascals:`, `hectopascals:`, or a `Foundation.Measurement<UnitPressure>` that carries it).
/// The JSON key is `pressureHectopascals` for the same reason.
public struct AltitudeSample: Sendable, Equatable, Codable {
    /// Time of the sample, in seconds on the source's clock (Core Motion: seconds since boot).
    public var timestamp: Seconds
    /// Altitude change since the source's first sample, in metres, positive upwards (Core Motion's
    /// `relativeAltitude`; weather included).
    public var relativeAltitude: Meters
    /// Station pressure, in hPa.
    public private(set) var pressure: Hectopascals

    /// A sample whose pressure is in hPa (Android, weather services).
    ///
    /// - Parameters:
    ///   - timestamp: the sample's time, in seconds.
    ///   - relativeAltitude: the altitude relative to the stream's start, in metres.
    ///   - hectopascals: the station pressure, in hPa.
    public init(timestamp: Seconds, relativeAltitude: Meters, hectopascals: Hectopascals) {
        self.timestamp = timestamp
        self.relativeAltitude = relativeAltitude
        self.pressure = hectopascals
    }

    /// A sample whose pressure is in kPa (Core Motion), converted here: 1 kPa = 10 hPa.
    ///
    /// - Parameters:
    ///   - timestamp: the sample's time, in seconds.
    ///   - relativeAltitude: the altitude relative to the stream's start, in metres.
    ///   - kilopascals: the station pressure, in kPa.
    public init(timestamp: Seconds, relativeAltitude: Meters, kilopascals: Double) {
        self.init(timestamp: timestamp, relativeAltitude: relativeAltitude, hectopascals: kilopascals * 10)
    }

    /// A sample whose pressure carries its own unit (kPa, Pa, inHg, mbar, …), converted to hPa here.
    ///
    /// - Parameters:
    ///   - timestamp: the sample's time, in seconds.
    ///   - relativeAltitude: the altitude relative to the stream's start, in metres.
    ///   - pressure: the station pressure, in any pressure unit.
    public init(timestamp: Seconds, relativeAltitude: Meters, pressure: Foundation.Measurement<UnitPressure>) {
        self.init(
            timestamp: timestamp, relativeAltitude: relativeAltitude,
            hectopascals: pressure.converted(to: .hectopascals).value)
    }

    /// The pressure as a measurement in hPa.
    public var pressureMeasurement: Foundation.Measurement<UnitPressure> {
        Foundation.Measurement(value: pressure, unit: .hectopascals)
    }

    /// The sample as a filter reading (its pressure; the relative altitude is implied by it).
    public var reading: AltitudeReading { AltitudeReading(time: timestamp, pressure: pressure) }

    private enum CodingKeys: String, CodingKey {
        case timestamp
        case relativeAltitude = "relativeAltitudeMeters"
        case pressure = "pressureHectopascals"
    }
}
