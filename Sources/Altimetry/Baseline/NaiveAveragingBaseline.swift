import Foundation

/// The seed's naive absolute altitude: barometric relative altitude plus an offset averaged from GPS.
///
/// The barometer gives pressure altitude at standard QNH, h_pa(p) = (T₀/L)(1 − (p/1013.25)^(1/n)), whose
/// changes are height changes. Each GPS fix z gives one offset sample d = z − h_pa(p), with p the latest
/// pressure; the estimate is h_pa(p) + mean(d), over every fix so far (cumulative) or over the fixes of
/// the last W seconds (windowed). It reports σ_gps/√N, as if GPS errors were independent: the textbook
/// formula the seed shows to be 7 to 11 times too optimistic. It is the baseline every figure is compared with.
public struct NaiveAveragingBaseline: Sendable {
    /// One estimate of the baseline.
    public struct Estimate: Sendable, Equatable {
        /// Absolute altitude, in metres; nil before the first pressure and fix.
        public var altitudeMeters: Double?
        /// The reported one sigma σ_gps/√N, in metres; nil before the first fix.
        public var reportedStandardDeviation: Double?
        /// Number of fixes averaged.
        public var fixCount: Int
    }

    /// Averaging window W in seconds; nil averages every fix so far.
    public let window: Double?
    /// The GPS standard deviation σ_gps the reported sigma is based on, in metres.
    public let gpsStandardDeviation: Double

    private var offsets: [(time: Double, offset: Double)] = []
    private var firstKept = 0
    private var sum = 0.0
    private var lastPressureAltitude: Double?
    private var lastOffset: Double?
    private var lastCount = 0

    /// A baseline averaging over `window` seconds (nil: cumulative), reporting σ_gps/√N.
    ///
    /// - Parameters:
    ///   - window: the averaging window, in seconds, or nil to average every fix so far.
    ///   - gpsStandardDeviation: σ_gps, the one-sigma error assumed for a fix, in metres; √(10² + 1²) by default.
    public init(window: Double? = nil, gpsStandardDeviation: Double = (10.0 * 10 + 1).squareRoot()) {
        self.window = window
        self.gpsStandardDeviation = gpsStandardDeviation
    }

    /// Pressure altitude at standard QNH, in metres; NaN for a pressure that is not positive.
    ///
    /// - Parameter pressure: the station pressure, in hPa.
    public static func pressureAltitude(_ pressure: Hectopascals) -> Meters {
        StandardAtmosphere.seaLevelTemperature / StandardAtmosphere.lapseRate
            * (1 - pow(pressure / StandardAtmosphere.seaLevelPressure, 1 / StandardAtmosphere.pressureExponent))
    }

    /// Consumes one row: a time, and a pressure and/or a GPS altitude; returns the estimate after it.
    ///
    /// A fix before the first pressure has no relative altitude to pair with and is not used.
    ///
    /// - Parameters:
    ///   - time: the row's time, in seconds.
    ///   - pressure: the station pressure, in hPa, or nil.
    ///   - gpsAltitude: the GPS altitude above mean sea level, in metres, or nil.
    public mutating func update(time: Double, pressure: Hectopascals?, gpsAltitude: Meters?) -> Estimate {
        if let pressure { lastPressureAltitude = Self.pressureAltitude(pressure) }
        if let gpsAltitude, let base = lastPressureAltitude {
            let d = gpsAltitude - base
            offsets.append((time, d))
            sum += d
        }
        if let window {
            while firstKept < offsets.count, offsets[firstKept].time < time - window {
                sum -= offsets[firstKept].offset
                firstKept += 1
            }
            if firstKept > 4_096, firstKept * 2 > offsets.count {
                offsets.removeFirst(firstKept)
                firstKept = 0
                sum = offsets.reduce(0) { $0 + $1.offset }
            }
        }
        let count = offsets.count - firstKept
        if count > 0 {
            lastOffset = sum / Double(count)
            lastCount = count
        }
        guard let base = lastPressureAltitude, let offset = lastOffset else {
            return Estimate(altitudeMeters: nil, reportedStandardDeviation: nil, fixCount: 0)
        }
        return Estimate(
            altitudeMeters: base + offset,
            reportedStandardDeviation: gpsStandardDeviation / Double(lastCount).squareRoot(),
            fixCount: count)
    }
}
