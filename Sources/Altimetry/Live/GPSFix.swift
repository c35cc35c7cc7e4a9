import StateEstimation

/// One GPS altitude fix: a time, the altitude above mean sea level, and its vertical accuracy as one sigma.
///
/// Receivers report accuracy by different conventions (Core Motion and Android one sigma, the W3C geolocation
/// API a 95 % bound); the converting initialiser takes the convention, so the stored value is always one sigma.
public struct GPSFix: Sendable, Equatable, Codable {
    /// Time of the fix, in seconds on the source's clock.
    public var timestamp: Seconds
    /// Altitude above mean sea level, in metres.
    public var altitude: Meters
    /// Vertical accuracy as one standard deviation, in metres; nil if the receiver does not report one.
    public var verticalAccuracy: Meters?

    /// A fix whose accuracy, if any, is already one sigma.
    ///
    /// - Parameters:
    ///   - timestamp: the fix's time, in seconds.
    ///   - altitude: the altitude above mean sea level, in metres.
    ///   - verticalAccuracy: the one-sigma vertical accuracy, in metres, or nil if not reported.
    public init(timestamp: Seconds, altitude: Meters, verticalAccuracy: Meters? = nil) {
        self.timestamp = timestamp
        self.altitude = altitude
        self.verticalAccuracy = verticalAccuracy
    }

    /// A fix whose reported accuracy follows `convention`, converted to one sigma (a 95 % figure is divided by
    /// 1.959964).
    ///
    /// - Parameters:
    ///   - timestamp: the fix's time, in seconds.
    ///   - altitude: the altitude above mean sea level, in metres.
    ///   - reportedAccuracy: the vertical accuracy as the receiver reports it, in metres.
    ///   - convention: what the reported accuracy means.
    public init(timestamp: Seconds, altitude: Meters, reportedAccuracy: Meters, convention: VerticalAccuracyConvention)
    {
        self.init(
            timestamp: timestamp, altitude: altitude,
            verticalAccuracy: convention.standardDeviation(ofReported: reportedAccuracy))
    }

    /// The fix as a filter reading.
    public var reading: AltitudeReading {
        AltitudeReading(time: timestamp, gpsAltitude: altitude, gpsVerticalAccuracy: verticalAccuracy)
    }

    private enum CodingKeys: String, CodingKey {
        case timestamp
        case altitude = "altitudeMeters"
        case verticalAccuracy = "verticalAccuracyOneSigmaMeters"
    }
}
