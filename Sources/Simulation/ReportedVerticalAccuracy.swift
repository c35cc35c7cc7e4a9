import Altimetry

/// What vertical accuracy, if any, each simulated GPS fix reports (the `gps_vacc_m` column).
///
/// Receivers report an accuracy figure, but by different conventions: Core Motion and Android give one
/// sigma (68 %), the W3C geolocation API 95 %. The simulator reports the model's own spread scaled by a
/// coverage factor, or a constant; outliers report the same value as other fixes (they are not announced).
public enum ReportedVerticalAccuracy: Sendable, Equatable, Codable {
    /// Fixes carry no accuracy.
    case none
    /// Every fix reports this value, in metres.
    case constant(Meters)
    /// Every fix reports k √(σ_e² + σ_w²), the standard deviation of the model's non-outlier error, times
    /// a coverage factor k (1 for one sigma, 1.959964 for 95 %).
    case modelStandardDeviation(coverageFactor: Double)
}
