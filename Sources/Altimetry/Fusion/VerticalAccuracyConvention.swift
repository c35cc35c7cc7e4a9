/// What a receiver's reported vertical accuracy means.
///
/// Core Motion's `accuracy` and Android's `verticalAccuracyMeters` (68 %) are one standard deviation; the
/// W3C geolocation API's `altitudeAccuracy` is a 95 % bound. For a Gaussian error the 95 % two-sided bound
/// is 1.959964 σ, so a 95 % figure is divided by that to get σ.
public enum VerticalAccuracyConvention: Sendable, Equatable, Codable {
    /// The figure is one standard deviation (68 %).
    case oneSigma
    /// The figure bounds 95 % of errors.
    case ninetyFivePercent

    /// Two-sided 95 % quantile of the standard normal, Φ⁻¹(0.975).
    public static let ninetyFivePercentQuantile = 1.959_963_984_540_054

    /// The one-sigma value of a reported accuracy, in metres.
    public func standardDeviation(ofReported accuracy: Double) -> Double {
        switch self {
        case .oneSigma: return accuracy
        case .ninetyFivePercent: return accuracy / Self.ninetyFivePercentQuantile
        }
    }
}
