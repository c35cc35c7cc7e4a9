import Altimetry
import StateEstimation

/// Multipath outliers: a number of GPS fixes pushed up by a large positive error.
///
/// `count` distinct fixes are chosen uniformly at random among those at or after `notBefore`, and each
/// gets an extra error drawn uniformly from [`minimumOffset`, `maximumOffset`] metres, on top of its usual
/// error. The fusion issue's canyon puts fixes 40 to 80 m too high; a negative range is allowed too.
/// `notBefore` keeps the first minute clean by default, so that a scenario tests the filter's gate rather
/// than its initialisation from the first fixes.
public struct MultipathOutliers: Sendable, Equatable, Codable {
    /// How many fixes are outliers.
    public var count: Int
    /// Smallest added error, in metres.
    public var minimumOffset: Meters
    /// Largest added error, in metres.
    public var maximumOffset: Meters
    /// Earliest time an outlier may occur, in seconds since the start.
    public var notBefore: Seconds

    /// `count` outliers of `minimumOffset` to `maximumOffset` metres, none before `notBefore` seconds.
    ///
    /// - Parameters:
    ///   - count: how many fixes are outliers.
    ///   - minimumOffset: the smallest added error, in metres.
    ///   - maximumOffset: the largest added error, in metres.
    ///   - notBefore: the earliest time an outlier may occur, in seconds since the start.
    public init(count: Int, minimumOffset: Meters = 40, maximumOffset: Meters = 80, notBefore: Seconds = 60) {
        self.count = count
        self.minimumOffset = minimumOffset
        self.maximumOffset = maximumOffset
        self.notBefore = notBefore
    }
}
