/// What a track's elevation series says about its source when the device does not: a GPS altitude wanders from
/// one second to the next, a device's barometric altitude does not.
///
/// The statistic is the mean absolute second difference of the elevation, |h(k+1) − 2 h(k) + h(k−1)| in metres,
/// over the samples whose two neighbours are equally far, at most `maximumSpacing` away: a climb at a steady rate
/// adds nothing to it, white noise of one sigma σ adds √6·√(2/π)·σ ≈ 1.95 σ (the second difference has variance
/// 6σ²), so the threshold of 1 m is white noise of about 0.5 m. Above `gpsThreshold` the elevation is GPS. On device files from public parsers' test suites it measured 0.0 to 0.35
/// m for the barometric altitude of a Garmin Edge 500 and Edge 810, a fēnix 2, a Wahoo ELEMNT and a Coros Pace 2,
/// 0.5 to 0.7 m for two varios' raw GNSS altitude (IGC), 0.5 to 1.05 m for their raw 1 m pressure altitude; the
/// GPS altitude of a Forerunner 110 and an Edge 200, which Garmin smooths, measured 0.18 to 0.24 m. So the
/// statistic tells an unsmoothed GPS altitude (a phone's) from a device's smoothed altitude, not a smoothed GPS
/// altitude from a barometric one: that is what the device's identity is for (`FITDeviceCatalog`, the creator).
enum ElevationCharacter {
    /// The longest spacing of the samples used, in seconds.
    static let maximumSpacing = 2.0
    /// The fewest triples of samples for a verdict.
    static let minimumTriples = 60
    /// The mean absolute second difference, in metres, above which the elevation is GPS.
    static let gpsThreshold = 1.0

    /// The mean absolute second difference of `elevations` (metres) at `times` (seconds), or nil with fewer than
    /// `minimumTriples` usable triples.
    static func wander(times: [Double], elevations: [Double]) -> Double? {
        guard times.count == elevations.count, times.count >= 3 else { return nil }
        var sum = 0.0
        var count = 0
        for k in 1..<(times.count - 1) {
            let before = times[k] - times[k - 1], after = times[k + 1] - times[k]
            guard before > 0, before <= maximumSpacing, abs(after - before) < 1e-6 else { continue }
            sum += abs(elevations[k + 1] - 2 * elevations[k] + elevations[k - 1])
            count += 1
        }
        return count >= minimumTriples ? sum / Double(count) : nil
    }

    /// The elevation source the series shows, with why: GPS above the threshold, nil (undecided) otherwise.
    static func verdict(times: [Double], elevations: [Double]) -> (ElevationSource, String)? {
        guard let wander = wander(times: times, elevations: elevations), wander > gpsThreshold else { return nil }
        let shown = (wander * 100).rounded() / 100
        return (
            .gps,
            "the device is not known, and the elevation wanders like GPS (mean |second difference| \(shown) m "
                + "> \(gpsThreshold) m); --ele barometric to override"
        )
    }
}
