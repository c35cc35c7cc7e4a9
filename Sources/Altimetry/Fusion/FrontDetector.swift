/// Reports weather fronts from the filter's own estimate of the weather tendency: a report, which changes nothing in
/// the model.
///
/// The model's tendency Ḃ is a Gauss-Markov rate of stationary spread s (1 hPa/h, `AltitudeModelParameters`); a
/// front is a tendency ordinary weather rarely reaches. The detector reports one while the estimate exceeds
/// k s (k = `threshold`, 2.5: 1.2 % of the time under the model's own weather, a synoptic "rapid" fall of 2.5 hPa
/// an hour and more) by two of its own standard deviations, |Ḃ| − 2 σ_Ḃ > k s, so that a tendency the data do not
/// yet support is not a front. A report spans the stretch where that holds, from the QNH where it began to the
/// extreme QNH reached (a falling front's size is negative); a report shorter than `minimumDuration` (10 min)
/// is dropped as a gust of the estimate, not weather.
///
/// At rest the barometer measures the weather, and the tendency follows a front as it comes; while the device
/// moves, a front's fall is as much a climb as weather until the GPS tells them apart, and the tendency follows it
/// late.
public struct FrontDetector: Sendable, Equatable, Codable {
    /// k, the front's tendency in stationary spreads of the model's tendency.
    public var threshold: Double = 2.5
    /// The shortest front reported, in seconds.
    public var minimumDuration: Double = 600
    /// s, the model's tendency spread, in hPa per hour.
    public var tendencySpread: Double

    /// Fronts found so far, including one still under way (whose `endTime` is the latest time).
    public private(set) var fronts: [WeatherFront] = []
    /// Whether a front is under way.
    public private(set) var isActive = false
    /// Where the front under way began: its time and QNH (hPa).
    private var start: (time: Double, qnh: Double)?

    /// The most fronts kept: a saved state stays small however long the track (`frontCount` counts them all).
    static let capacity = 64
    /// Fronts reported so far, including those no longer in `fronts`.
    public private(set) var frontCount = 0

    /// A detector for a model whose tendency has the stationary spread `tendencySpread` (hPa/h).
    public init(tendencySpread: Double) {
        self.tendencySpread = tendencySpread
    }

    /// Consumes the filter's QNH (hPa) and tendency estimate Ḃ with its standard deviation (hPa/h) at `time` (s).
    public mutating func observe(time: Double, seaLevelPressure qnh: Double, tendency: Double, tendencySigma: Double) {
        let fast = abs(tendency) - 2 * tendencySigma > threshold * tendencySpread
        if fast, !isActive {
            isActive = true
            start = (time, qnh)
        } else if isActive, let s = start {
            let size = qnh - s.qnh
            if time - s.time >= minimumDuration {
                if let last = fronts.last, last.startTime == s.time {
                    // The front's end is the extreme QNH reached while it lasts.
                    if abs(size) >= abs(last.sizeHectopascals) {
                        fronts[fronts.count - 1].endTime = time
                        fronts[fronts.count - 1].sizeHectopascals = size
                    }
                } else {
                    fronts.append(WeatherFront(startTime: s.time, endTime: time, sizeHectopascals: size))
                    frontCount += 1
                    if fronts.count > Self.capacity { fronts.removeFirst() }
                }
            }
            if !fast {
                isActive = false
                start = nil
            }
        }
    }

    /// Forgets the front under way (keeping those found), after the filter moved QNH by a reset rather than the
    /// weather.
    public mutating func forgetHistory() {
        isActive = false
        start = nil
    }

    public static func == (a: FrontDetector, b: FrontDetector) -> Bool {
        a.threshold == b.threshold && a.minimumDuration == b.minimumDuration && a.tendencySpread == b.tendencySpread
            && a.fronts == b.fronts && a.isActive == b.isActive && a.start?.time == b.start?.time
            && a.start?.qnh == b.start?.qnh && a.frontCount == b.frontCount
    }

    private enum CodingKeys: String, CodingKey {
        case threshold, minimumDuration, tendencySpread, fronts, isActive, startTime, startQNH, frontCount
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        threshold = try c.decode(Double.self, forKey: .threshold)
        minimumDuration = try c.decode(Double.self, forKey: .minimumDuration)
        tendencySpread = try c.decode(Double.self, forKey: .tendencySpread)
        fronts = try c.decode([WeatherFront].self, forKey: .fronts)
        isActive = try c.decode(Bool.self, forKey: .isActive)
        frontCount = try c.decode(Int.self, forKey: .frontCount)
        if let time = try c.decodeIfPresent(Double.self, forKey: .startTime) {
            start = (time, try c.decode(Double.self, forKey: .startQNH))
        }
        guard fronts.count <= Self.capacity else {
            throw DecodingError.dataCorruptedError(
                forKey: .fronts, in: c, debugDescription: "more than \(Self.capacity) fronts")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(threshold, forKey: .threshold)
        try c.encode(minimumDuration, forKey: .minimumDuration)
        try c.encode(tendencySpread, forKey: .tendencySpread)
        try c.encode(fronts, forKey: .fronts)
        try c.encode(isActive, forKey: .isActive)
        try c.encode(frontCount, forKey: .frontCount)
        try c.encodeIfPresent(start?.time, forKey: .startTime)
        try c.encodeIfPresent(start?.qnh, forKey: .startQNH)
    }
}
