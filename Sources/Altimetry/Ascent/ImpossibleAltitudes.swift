/// Altitudes no device can have reached: a sample further from the last one kept than the fastest vertical
/// speed allows in the time between them (a GPS or barometer glitch kilometres off in a second).
///
/// A sample at (t, h) is kept when |h − h_k| ≤ v_max (t − t_k) + m, with (t_k, h_k) the last sample kept,
/// v_max = `maximumVerticalSpeed` and m = `margin`; the first reference is the sample whose altitude is the
/// median of the first `startSamples`, so that a glitch at the very start does not become the reference. A run
/// of rejected samples that agree with each other (each within the same bound of the one before) is a real
/// change of level the series jumped to (a device switched on in a lift, a barometer recalibrated), not a
/// glitch, once it lasts `settlingTime` seconds or the next sample kept follows on from it: the run is kept.
///
/// Ascent counts only what is kept (`AscentAnalysis` gates every reading before fusing it, and the comparisons
/// gate the GPS and barometer series): a 12 km spike otherwise adds 24 km to a raw count.
public enum ImpossibleAltitudes {
    /// The fastest vertical speed of any track, in m/s: a skydiver's freefall is 55 to 90 m/s.
    public static let maximumVerticalSpeed = 100.0
    /// Noise and quantisation allowed on top, in metres (a phone's GPS altitude scatters by tens of metres).
    public static let margin = 50.0
    /// How many samples the first reference is the median of.
    static let startSamples = 11
    /// How long a run of agreeing rejected samples lasts before it is taken as a new level, in seconds.
    public static let settlingTime = 60.0

    /// The indices of the samples kept, increasing.
    ///
    /// - Parameters:
    ///   - times: the samples' times, in seconds, non-decreasing.
    ///   - altitudes: one altitude per time, in metres.
    /// - Complexity: O(n) after sorting the first `startSamples` altitudes.
    public static func kept(times: [Double], altitudes: [Meters]) -> [Int] {
        precondition(times.count == altitudes.count, "ImpossibleAltitudes: one altitude per time")
        guard !times.isEmpty else { return [] }
        func reachable(_ h: Double, _ t: Double, from reference: (time: Double, altitude: Double)) -> Bool {
            abs(h - reference.altitude) <= maximumVerticalSpeed * abs(t - reference.time) + margin
        }
        // The first reference: the sample whose altitude is the median of the first few, at its own time.
        let first = Array(altitudes.indices.prefix(startSamples)).sorted { altitudes[$0] < altitudes[$1] }
        let median = first[first.count / 2]
        var reference = (time: times[median], altitude: altitudes[median])
        var kept: [Int] = []
        var run: [Int] = []
        for i in altitudes.indices {
            if reachable(altitudes[i], times[i], from: reference) {
                // A run of rejected samples this one follows on from was the start of the level it reached.
                if let last = run.last, reachable(altitudes[i], times[i], from: (times[last], altitudes[last])) {
                    kept += run
                }
                kept.append(i)
                reference = (times[i], altitudes[i])
                run.removeAll()
                continue
            }
            if let last = run.last, !reachable(altitudes[i], times[i], from: (times[last], altitudes[last])) {
                run.removeAll()
            }
            run.append(i)
            if let first = run.first, times[i] - times[first] >= settlingTime {
                kept += run
                reference = (times[i], altitudes[i])
                run.removeAll()
            }
        }
        return kept
    }

    /// `readings` with every impossible GPS altitude and every impossible pressure (judged by its pressure
    /// altitude at standard QNH) removed, each series gated on its own; a reading left with neither is dropped.
    ///
    /// - Returns: the readings kept, and how many values (fixes and pressures) were removed.
    public static func gated(_ readings: [AltitudeReading]) -> (readings: [AltitudeReading], removed: Int) {
        var readings = readings
        let fixes = readings.indices.filter { readings[$0].gpsAltitude != nil }
        let pressures = readings.indices.filter { readings[$0].pressure != nil }
        var removed = 0
        let keptFixes = Set(
            kept(times: fixes.map { readings[$0].time }, altitudes: fixes.map { readings[$0].gpsAltitude ?? 0 }).map {
                fixes[$0]
            })
        for i in fixes where !keptFixes.contains(i) {
            readings[i].gpsAltitude = nil
            readings[i].gpsVerticalAccuracy = nil
            removed += 1
        }
        let keptPressures = Set(
            kept(
                times: pressures.map { readings[$0].time },
                altitudes: pressures.map { NaiveAveragingBaseline.pressureAltitude(readings[$0].pressure ?? 0) }
            ).map { pressures[$0] })
        for i in pressures where !keptPressures.contains(i) {
            readings[i].pressure = nil
            removed += 1
        }
        return (readings.filter { $0.pressure != nil || $0.gpsAltitude != nil }, removed)
    }
}
