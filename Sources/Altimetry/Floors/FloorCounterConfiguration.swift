import StateEstimation

/// Every threshold of the floor counter, in seconds and metres, with the seed's values as defaults.
///
/// The counter works in time, not in sample indices, so it handles irregular sampling and gaps; at the
/// seed's 1 Hz the defaults reproduce the seed's index-based counter exactly. Each threshold is a trade-off
/// (see `Docs/floors.md`):
///
/// - `movingRate`: weather faster than 0.1 m/s would count as climbing, but that is 43 hPa/h and never
///   happens; a ramp or lift slower than it is not seen as a move at all (the uncertainty check exists for it).
/// - `minimumStretch`: a moving stretch is closed only once it is more than 20 s long, so the quick pressure
///   pulses of doors and ventilation are measured over a span long enough for them to be over, and round to
///   zero floors.
/// - `uncertaintyResidual`, `stillnessForUncertainty`: how far (1.5 m, half a floor) and after how long still
///   (10 min) an unexplained change of altitude makes the floor uncertain.
public struct FloorCounterConfiguration: Sendable, Equatable, Codable {
    /// Height of one floor, in metres; each stretch's change is rounded to whole multiples of it.
    public var floorHeight: Meters
    /// Length of the trailing moving-average window, in seconds: the smoothed altitude at time t is the mean of
    /// the samples with times in (t − window, t].
    public var smoothingWindow: Seconds
    /// The rate at time t compares the smoothed altitude with its value this many seconds earlier:
    /// r(t) = (s(t) − s(t − lag)) / lag, in m/s.
    public var rateLag: Seconds
    /// The user is moving while |r(t)| exceeds this rate, in m/s (the seed's 0.1 m/s).
    public var movingRate: Double
    /// When motion is first seen at time t, the stretch is taken to have begun this many seconds earlier, to
    /// catch the start of the motion that the lagged rate detects late.
    public var backUp: Seconds
    /// A moving stretch closes at the first still sample more than this many seconds after its start.
    public var minimumStretch: Seconds
    /// Samples further apart than this, in seconds, are a gap: the smoothed altitude is held at its last value
    /// across a gap instead of being interpolated, so a change during the gap shows as a step at its end.
    public var maximumSampleInterval: Seconds
    /// How long the counter must have been still (no counted transition), in seconds, before the residual
    /// check can flag the floor as uncertain.
    public var stillnessForUncertainty: Seconds
    /// The largest weather-corrected residual, in metres, between the altitude and the counted floors that is
    /// still explained; beyond it the floor is uncertain.
    public var uncertaintyResidual: Meters
    /// A transition is confident when its change, corrected for the weather, is within this many metres of its
    /// whole number of floors; only a confident transition clears an uncertainty and restarts the residual.
    public var transitionTolerance: Meters
    /// Length, in seconds, of the blocks of still samples whose median levels measure the weather trend.
    public var weatherBlock: Seconds
    /// Mean air temperature, in kelvin, for converting pressure samples to relative altitude (the counter is
    /// insensitive to it: 0.35 % of each change per kelvin).
    public var meanTemperature: Kelvin

    /// The seed's thresholds, plus the uncertainty check's.
    ///
    /// - Parameters:
    ///   - floorHeight: the height of one floor, in metres.
    ///   - smoothingWindow: the trailing moving-average window, in seconds.
    ///   - rateLag: the lag of the rate r(t) = (s(t) − s(t − lag)) / lag, in seconds.
    ///   - movingRate: the rate |r(t)| beyond which the user is moving, in m/s.
    ///   - backUp: how far before motion is first seen the stretch is taken to begin, in seconds.
    ///   - minimumStretch: the least length of a moving stretch before a still sample closes it, in seconds.
    ///   - maximumSampleInterval: the longest spacing of samples that is not a gap, in seconds.
    ///   - stillnessForUncertainty: how long the counter must have been still before the residual check runs, in
    ///     seconds.
    ///   - uncertaintyResidual: the largest residual still explained by the counted floors, in metres.
    ///   - transitionTolerance: how close a transition's weather-corrected change must be to whole floors to be
    ///     confident, in metres.
    ///   - weatherBlock: the length of the blocks of still samples that measure the weather trend, in seconds.
    ///   - meanTemperature: the mean air temperature for converting pressures to relative altitude, in kelvin.
    public init(
        floorHeight: Meters = 3, smoothingWindow: Seconds = 5, rateLag: Seconds = 10, movingRate: Double = 0.1,
        backUp: Seconds = 15, minimumStretch: Seconds = 20, maximumSampleInterval: Seconds = 5,
        stillnessForUncertainty: Seconds = 600, uncertaintyResidual: Meters = 1.5,
        transitionTolerance: Meters = 1, weatherBlock: Seconds = 60, meanTemperature: Kelvin = 288.15
    ) {
        self.floorHeight = floorHeight
        self.smoothingWindow = smoothingWindow
        self.rateLag = rateLag
        self.movingRate = movingRate
        self.backUp = backUp
        self.minimumStretch = minimumStretch
        self.maximumSampleInterval = maximumSampleInterval
        self.stillnessForUncertainty = stillnessForUncertainty
        self.uncertaintyResidual = uncertaintyResidual
        self.transitionTolerance = transitionTolerance
        self.weatherBlock = weatherBlock
        self.meanTemperature = meanTemperature
    }

    /// Checks that every threshold is positive and finite.
    ///
    /// - Throws: `FloorCountingError.invalidConfiguration` naming the first bad parameter.
    public func validate() throws(FloorCountingError) {
        let parameters: [(String, Double)] = [
            ("floorHeight", floorHeight), ("smoothingWindow", smoothingWindow), ("rateLag", rateLag),
            ("movingRate", movingRate), ("backUp", backUp), ("minimumStretch", minimumStretch),
            ("maximumSampleInterval", maximumSampleInterval), ("stillnessForUncertainty", stillnessForUncertainty),
            ("uncertaintyResidual", uncertaintyResidual), ("transitionTolerance", transitionTolerance),
            ("weatherBlock", weatherBlock), ("meanTemperature", meanTemperature),
        ]
        for (name, value) in parameters where !(value.isFinite && value > 0) {
            throw .invalidConfiguration(parameter: name, value: value)
        }
    }
}
