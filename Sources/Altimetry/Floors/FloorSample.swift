import Foundation
import StateEstimation

/// One reading for the floor counter: a time and either a relative altitude or a pressure.
///
/// Pressure is converted to relative altitude at the counter's boundary (hypsometric height from the stream's
/// first pressure). Platforms disagree on units (Apple's Core Motion reports kilopascals, Android hectopascals),
/// so a pressure can enter as a `Measurement<UnitPressure>` and is converted to hPa here.
public struct FloorSample: Sendable, Equatable, Codable {
    /// What the sensor reported.
    public enum Reading: Sendable, Equatable, Codable {
        /// Altitude relative to an arbitrary fixed reference, in metres, positive upwards.
        case relativeAltitude(Meters)
        /// Static pressure, in hPa.
        case pressure(Hectopascals)
    }

    /// Time of the reading, in seconds on any fixed clock; times must increase.
    public var time: Seconds
    /// The reading.
    public var reading: Reading

    /// A sample at `time`, in seconds, of `reading`.
    ///
    /// - Parameters:
    ///   - time: the sample's time, in seconds.
    ///   - reading: the relative altitude or pressure sampled.
    public init(time: Seconds, reading: Reading) {
        self.time = time
        self.reading = reading
    }

    /// A relative-altitude sample, in metres.
    ///
    /// - Parameters:
    ///   - time: the sample's time, in seconds.
    ///   - relativeAltitude: the altitude relative to any fixed reference, in metres.
    public init(time: Seconds, relativeAltitude: Meters) {
        self.init(time: time, reading: .relativeAltitude(relativeAltitude))
    }

    /// A pressure sample, in hPa.
    ///
    /// - Parameters:
    ///   - time: the sample's time, in seconds.
    ///   - pressure: the station pressure, in hPa.
    public init(time: Seconds, pressure: Hectopascals) {
        self.init(time: time, reading: .pressure(pressure))
    }

    /// A pressure sample in any unit (kPa, Pa, inHg, …), converted to hPa.
    ///
    /// - Parameters:
    ///   - time: the sample's time, in seconds.
    ///   - pressure: the station pressure, in any pressure unit.
    public init(time: Seconds, pressure: Foundation.Measurement<UnitPressure>) {
        self.init(time: time, reading: .pressure(pressure.converted(to: .hectopascals).value))
    }
}
