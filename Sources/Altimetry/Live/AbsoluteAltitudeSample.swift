import StateEstimation

/// One absolute-altitude sample as a platform reports it (Core Motion's `CMAbsoluteAltitudeData`): altitude
/// above mean sea level with its one-sigma accuracy and the resolution worth displaying.
///
/// Core Motion documents `accuracy` as "the estimated uncertainty of the altimeter in meters, based on one
/// standard deviation", and `precision` as "the recommended resolution for the altitude"; both are carried
/// through unchanged.
public struct AbsoluteAltitudeSample: Sendable, Equatable, Codable {
    /// Time of the sample, in seconds on the source's clock (Core Motion: seconds since boot).
    public var timestamp: Seconds
    /// Altitude above mean sea level, in metres.
    public var altitude: Meters
    /// One-sigma accuracy of `altitude`, in metres.
    public var accuracy: Meters
    /// The resolution worth displaying, in metres.
    public var precision: Meters

    /// A sample at `timestamp` (seconds) with altitude, accuracy and precision in metres.
    ///
    /// - Parameters:
    ///   - timestamp: the sample's time, in seconds.
    ///   - altitude: the altitude above mean sea level, in metres.
    ///   - accuracy: the altitude's accuracy, in metres.
    ///   - precision: the altitude's precision, in metres.
    public init(timestamp: Seconds, altitude: Meters, accuracy: Meters, precision: Meters) {
        self.timestamp = timestamp
        self.altitude = altitude
        self.accuracy = accuracy
        self.precision = precision
    }

    /// The sample as an absolute-altitude fix for the filter, weighted by its one-sigma accuracy.
    ///
    /// The platform's absolute altitude is itself calibrated from GPS and the barometer, so its errors are
    /// correlated over minutes much as GPS altitude's are; the filter's correlated-error state treats it so.
    public var fix: GPSFix { GPSFix(timestamp: timestamp, altitude: altitude, verticalAccuracy: accuracy) }
}
