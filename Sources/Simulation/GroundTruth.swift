import Altimetry

/// The truth behind one simulated row, for scoring an estimator.
public struct GroundTruth: Sendable, Equatable, Codable {
    /// True altitude above mean sea level, in metres.
    public var altitude: Meters
    /// True weather offset b of the sea-level pressure, in hPa.
    public var weatherOffset: Hectopascals
    /// True station pressure before barometer noise, in hPa.
    public var pressure: Hectopascals
    /// True air temperature at the altitude, in kelvin.
    public var airTemperature: Kelvin
    /// The GPS receiver's correlated (Gauss-Markov) error e at this instant, in metres; defined at every
    /// row, with or without a fix.
    public var gpsCorrelatedError: Meters
    /// The fix's whole error, GPS altitude − true altitude (correlated + white + outlier offset), in metres, or
    /// `nil` without a fix.
    public var gpsError: Meters?
    /// The multipath offset injected into this row's fix, in metres, or `nil` for a clean fix or no fix.
    public var outlierOffset: Meters?

    /// A row's truth with altitudes and errors in metres, pressures in hPa and the air temperature in kelvin.
    ///
    /// - Parameters:
    ///   - altitude: the true altitude above mean sea level, in metres.
    ///   - weatherOffset: the true weather offset b of the sea-level pressure, in hPa.
    ///   - pressure: the true station pressure before barometer noise, in hPa.
    ///   - airTemperature: the true air temperature at the altitude, in kelvin.
    ///   - gpsCorrelatedError: the receiver's correlated error e at this instant, in metres.
    ///   - gpsError: the fix's whole error (GPS altitude − true altitude), in metres, or nil without a fix.
    ///   - outlierOffset: the multipath offset injected into this row's fix, in metres, or nil.
    public init(
        altitude: Meters, weatherOffset: Hectopascals, pressure: Hectopascals, airTemperature: Kelvin,
        gpsCorrelatedError: Meters, gpsError: Meters? = nil, outlierOffset: Meters? = nil
    ) {
        self.altitude = altitude
        self.weatherOffset = weatherOffset
        self.pressure = pressure
        self.airTemperature = airTemperature
        self.gpsCorrelatedError = gpsCorrelatedError
        self.gpsError = gpsError
        self.outlierOffset = outlierOffset
    }

    /// Whether this row's fix is an injected multipath outlier.
    public var isOutlier: Bool { outlierOffset != nil }

    /// True sea-level pressure (QNH), 1013.25 + b, in hPa.
    public var seaLevelPressure: Hectopascals { StandardAtmosphere.seaLevelPressure + weatherOffset }
}
