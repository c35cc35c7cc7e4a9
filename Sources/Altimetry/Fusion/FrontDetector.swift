/// Detects weather fronts from the filter's own sea-level-pressure estimate.
///
/// A front is a sustained one-sided disagreement between the barometer and GPS: the barometer says the user
/// climbed, GPS says they did not, for tens of minutes. The filter books that disagreement as weather, so its
/// QNH estimate moves; what marks a front is that it moves faster than ordinary weather can. Under the
/// model's random-walk weather (density q_b, hPa²/s) a change over a window W has variance q_b W, and the
/// two estimates compared carry their own variances σ₁², σ₂²; the detector flags a front while
///
///     |QNH(t) − QNH(t − W)| > k √(q_b W + σ₁² + σ₂²),
///
/// with W = 40 min and k = 2.5 by default (a 3 hPa fall in 40 min, the front of the benchmark, is only
/// about 2.8 such sigmas once the estimates' own uncertainty is counted, so a higher threshold would miss it).
/// A low-passed normalised GPS innovation (PX4's approach for its baro bias) was measured too: through the
/// benchmark's front, with little or no tendency noise, its mean (600 s low-pass) reaches only −0.04 to −0.06
/// against a spread of 0.03 without a front, and climbs and descents biased it as much until the filter got its
/// barometric velocity, so the estimate itself is the better witness.
/// Each reported front spans from the last extreme of QNH before the move to the extreme at its end, and
/// its size is the QNH change between them.
public struct FrontDetector: Sendable, Equatable, Codable {
    /// Comparison window W, in seconds.
    public var window: Double = 2_400
    /// Threshold k, in standard deviations of ordinary weather change.
    public var threshold: Double = 2.5
    /// Spacing of the retained history, in seconds (decimation keeps memory bounded).
    public var spacing: Double = 10
    /// The random-walk density of ordinary weather, q_b, in hPa²/s.
    public var weatherNoiseDensity: Double

    /// Fronts found so far, including one still under way (whose `endTime` is the latest time).
    public private(set) var fronts: [WeatherFront] = []
    /// Whether a front is under way.
    public private(set) var isActive = false

    private var history: [Sample] = []
    private var activeStartQNH = 0.0
    private var firstKept = 0

    private struct Sample: Sendable, Equatable, Codable {
        var time: Double
        var qnh: Double
        var variance: Double
    }

    /// Whether finished fronts are kept in `fronts`; without, only the latest is (bounded memory on long tracks).
    public var keepsFronts = true

    /// A detector for weather of random-walk density `weatherNoiseDensity` (hPa²/s).
    public init(weatherNoiseDensity: Double) {
        self.weatherNoiseDensity = weatherNoiseDensity
    }

    /// The sensitive detector `AltitudeFilter` uses to raise its weather noise: W = 20 min, k = 1.25, no history.
    ///
    /// Reporting wants few false fronts; raising the noise wants the front early, and a false alarm costs only
    /// some accuracy while it lasts. Chosen by sweeping W ∈ {10, 15, 20, 30, 40} min and k ∈ {1, 1.25, 1.5, 2, 2.5}
    /// over 40 `front`, `hike` and `canyon` runs each (Docs/model.md): with the default model, 20 min and 1.25 gave
    /// the front's NEES 1.38 against 1.47 at k = 1.5, for 0.02 m more error in the hike.
    public static func noiseAdaptation(weatherNoiseDensity: Double) -> FrontDetector {
        var detector = FrontDetector(weatherNoiseDensity: weatherNoiseDensity)
        detector.window = 1_200
        detector.threshold = 1.25
        detector.keepsFronts = false
        return detector
    }

    /// Whether a sample at `time` would be kept (samples closer than `spacing` to the last are ignored).
    public func isDue(at time: Double) -> Bool {
        guard let last = history.last else { return true }
        return time - last.time >= spacing
    }

    /// Consumes the filter's QNH estimate and its standard deviation (hPa) at `time` (s).
    ///
    /// - Parameters:
    ///   - time: the estimate's time, in seconds.
    ///   - qnh: the filter's sea-level pressure estimate, in hPa.
    ///   - standardDeviation: its one-sigma uncertainty, in hPa.
    public mutating func observe(time: Double, seaLevelPressure qnh: Double, standardDeviation: Double) {
        if let last = history.last, time - last.time < spacing { return }
        history.append(Sample(time: time, qnh: qnh, variance: standardDeviation * standardDeviation))
        while firstKept < history.count - 1, history[firstKept + 1].time <= time - window { firstKept += 1 }
        if firstKept > 1_024 {
            history.removeFirst(firstKept)
            firstKept = 0
        }
        let old = history[firstKept]
        guard time - old.time >= window * 0.9 else { return }
        let change = qnh - old.qnh
        let spread = (weatherNoiseDensity * (time - old.time) + old.variance + standardDeviation * standardDeviation)
            .squareRoot()
        let exceeded = abs(change) > threshold * spread
        if exceeded && !isActive {
            // The move counted from its last extreme after the previous front must itself exceed the threshold,
            // or it was that front's tail.
            let start = extremeBefore(falling: change < 0)
            guard abs(qnh - start.qnh) > threshold * spread else { return }
            isActive = true
            activeStartQNH = start.qnh
            if !keepsFronts { fronts.removeAll(keepingCapacity: true) }
            fronts.append(WeatherFront(startTime: start.time, endTime: time, sizeHectopascals: qnh - start.qnh))
        } else if isActive, let index = fronts.indices.last {
            // The front's end is the extreme QNH reached while it is active.
            let size = qnh - activeStartQNH
            if (fronts[index].sizeHectopascals < 0) == (size < fronts[index].sizeHectopascals) {
                fronts[index].endTime = time
                fronts[index].sizeHectopascals = size
            }
            if !exceeded { isActive = false }
        }
    }

    /// Forgets the QNH history (keeping the fronts found), after the filter moved QNH by a reset rather than the
    /// weather: the next front is measured from the reset on.
    public mutating func forgetHistory() {
        history.removeAll(keepingCapacity: true)
        firstKept = 0
        isActive = false
    }

    /// The sample in the window where QNH was highest (before a fall) or lowest (before a rise).
    /// Fronts never overlap: the search starts after the end of the previous front.
    private func extremeBefore(falling: Bool) -> Sample {
        let notBefore = fronts.last?.endTime ?? -Double.infinity
        let candidates = history[firstKept...].filter { $0.time >= notBefore }
        var best = candidates.first ?? history[history.count - 1]
        for sample in candidates where falling ? sample.qnh > best.qnh : sample.qnh < best.qnh {
            best = sample
        }
        return best
    }
}
