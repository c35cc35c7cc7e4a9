import Altimetry
import StateEstimation

/// The catalogue of named scenarios (see `Scenario.named(_:seed:duration:)` for each one's parameters).
///
/// The raw value is the name used on the command line and in reports.
public enum ScenarioName: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    /// The seed's building visit (1,662 s), with GPS.
    case building
    /// One hour standing still at 250 m, weather random walk.
    case `static`
    /// Six hours: 800 m up to 2,400 m and back, with rests; weather random walk.
    case hike
    /// A two-hour walk during which a front drops the pressure by 3 hPa over 40 minutes.
    case front
    /// A two-hour walk with a 20-minute GPS outage and 30 multipath outliers of +40 to +80 m.
    case canyon
    /// Two hours around 3,000 m in air 20 K colder than standard, with a temperature reading.
    case cold
    /// An hour's walk on the flat at 500 m: true ascent 0.
    case flatWalk = "flat-walk"
    /// Two hours of rolling terrain: 50 rounded hills of 4 m (true ascent 200 m).
    case rolling
    /// The seed's static calibration: 600 s still, regular 1 Hz samples, GPS 10 m / 60 s, no weather.
    case seedCalibration = "seed-calibration"

    /// The scenarios of the `altimetry bench` Monte Carlo, in report order.
    public static let benchmark: [ScenarioName] = [.building, .static, .hike, .front, .canyon, .cold]

    /// The scenario's default length, in seconds.
    public var defaultDuration: Seconds {
        switch self {
        case .building: return 1_662
        case .static: return 3_600
        case .hike, .canyon: return 21_600
        case .front, .cold, .rolling: return 7_200
        case .flatWalk: return 3_600
        case .seedCalibration: return 600
        }
    }
}
