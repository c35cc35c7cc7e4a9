/// A sensor fault or a filter reset that the altitude filter recognised, with when it began and ended.
///
/// Episodes are what `altimetry fuse` reports in its status column and per-track summary: nothing the filter
/// decided about its sensors is silent.
public struct FilterEpisode: Sendable, Equatable, Codable {
    /// What happened.
    public enum Kind: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
        /// The filter reset its altitude to the GPS: after refused fixes that agreed with each other for
        /// `lockoutResetTime` (a lock-out), after accepted fixes one-sided beyond `consistencyThreshold` (a start or
        /// a drift the correlated-error state was absorbing), at one of the first, ungated fixes beyond the gate (a
        /// wild start, `AltitudeFilter.relevelAtWildStartFix`), or at the end of a GPS jump's hold.
        case reset
        /// The barometer stepped by more than any motion explains; its offset was re-anchored.
        case barometerStep = "baro-step"
        /// A barometer step undone within a minute: a spike; both edges re-anchored.
        case barometerSpike = "baro-spike"
        /// The barometer repeated one value for `barometerStuckTime`; its readings were ignored until it moved.
        case barometerStuck = "baro-stuck"
        /// The GPS jumped away from a filter that agreed with it a moment before, and stayed; its fixes were refused
        /// until it came back, or until the weather could have explained it (then the filter resets to it).
        case gpsJump = "gps-jump"
    }

    /// What happened.
    public var kind: Kind
    /// When it began, in seconds.
    public var startTime: Double
    /// When it ended (the latest time while it lasts), in seconds; the start time for a reset.
    public var endTime: Double
    /// Its size in metres of altitude: the reset's shift, the barometer step's (+: the barometer read higher), the
    /// GPS jump (+: up); 0 for a stuck barometer.
    public var sizeMeters: Double
    /// Whether it is still under way.
    public var isActive: Bool

    /// An episode of `kind` from `startTime` to `endTime` (seconds), of `sizeMeters` metres.
    ///
    /// - Parameters:
    ///   - kind: what happened.
    ///   - startTime: when the episode began, in seconds.
    ///   - endTime: when it ended (or the latest time while active), in seconds.
    ///   - sizeMeters: its size, in metres.
    ///   - isActive: whether it is still under way.
    public init(kind: Kind, startTime: Double, endTime: Double, sizeMeters: Double, isActive: Bool) {
        self.kind = kind
        self.startTime = startTime
        self.endTime = endTime
        self.sizeMeters = sizeMeters
        self.isActive = isActive
    }
}
