/// Total ascent and descent of a whole track from its smoothed fused altitude, with one sigma.
///
/// The method, in order (`Docs/ascent.md` gives the reasons and the measurements):
///
/// 1. Fuse and smooth the track (`SmoothedAltitudeTrack`), then average the smoothed altitude over a centred
///    window of w = `averagingTime` seconds: ȟᵢ = mean of hⱼ with |tⱼ − tᵢ| ≤ w/2.
/// 2. Hysteresis from the track's own uncertainty of altitude differences, growing with a reversal's duration:
///    σ_Δ(τ) is the larger of (a) the median, over places spread along the track, of the one sigma of
///    ȟ(t + τ) − ȟ(t) from the smoother's cross-covariances, at τ = 1 to 360 windows
///    (`AscentConfiguration.hysteresisLagWindows`), and (b) the 10-s difference's scatter measured on the track
///    itself (`AveragingWindows.scatterOfDifferences`), which catches noise the model does not know (wind on the
///    phone, skiing turns). H(τ) = k σ_Δ(τ) with k = `hysteresisSigmas` (3) (`AscentHysteresis`): a quick reversal
///    of three sigmas counts, a slow drift within what the weather can do in its time does not.
/// 3. Count ȟ with `AscentCounter` (hysteresis H(τ)) for the turning points, and read each (and the highest and
///    lowest points) at the middle of its plateau, where its own noise did not choose it (`TurningPointPlateau`):
///    segments, ascent, descent.
/// 4. Each figure is a fixed linear combination of the smoothed altitudes once the turning points are known
///    (the ascent is Σ over climbs of ȟ(summit) − ȟ(valley)); its sigma is that combination's smoothed error,
///    altitude and air column together (`SmoothedAltitudeTrack.variances(of:)`). A total's sigma is at least
///    σ_Δ: what the hysteresis hides is not counted, so a total of 0 m is 0 ± σ_Δ, never 0 ± 0.
/// 5. Temperature: the filter carries the air column's temperature as a state (prior 10 K, learned by GPS, and
///    from the track's temperature where it has one), so a track without temperature has the column's posterior
///    in its sigma, not a fixed guess. The column's share of each sigma is reported
///    (`SmoothedAltitudeTrack.columnVariances(of:)`).
/// 6. Comparisons: GPS altitude alone by gpxpy's rule and with each GPS hysteresis (`GPXElevationRule`); the
///    raw barometer's pressure altitude with the same averaging and H.
///
/// Before all of it, GPS altitudes and pressures no device can have reached (`ImpossibleAltitudes`: kilometres off
/// in a second) are removed; the report counts them. The track is fused with the parameters given, as `fuse`
/// fuses it (fault monitor included).
///
/// A slow reversal larger than the track's own 10-s scatter but within H(τ) may be terrain or the model's slow
/// errors (the weather, or under GPS alone the GPS error's wander, which GPS cannot tell from terrain at all).
/// The count with H(τ) takes none of them, the count with k times the scatter takes all; the totals are the
/// middle of the two, with the bracket in their sigma (`AscentReport.Uncertain.bracketing`), which then covers
/// the usual rules (the device's, gpxpy's with 3 to 5 m of hysteresis) where they count what the model cannot
/// confirm. On a barometer track the two counts differ by a few metres; under GPS alone by tens.
public enum AscentAnalysis {
    /// Measures a whole track.
    ///
    /// - Parameters:
    ///   - readings: the track's readings, in time order.
    ///   - parameters: the fusion model's parameters.
    ///   - configuration: the averaging and hysteresis choices and the GPS thresholds.
    /// - Throws: `AscentError.noReadings`, or `.fusion` when the filter refuses a reading.
    /// - Complexity: one fusion and smoothing of the track, the smoother's sweeps over the epochs the figures span,
    ///   O(N w) for the windows, up to the last hour of samples scanned per sample by the counter while it waits
    ///   for a reversal, and O(N) for the plateaus.
    public static func measure(
        _ readings: [AltitudeReading], parameters: AltitudeModelParameters = AltitudeModelParameters(),
        configuration: AscentConfiguration = AscentConfiguration()
    ) throws(AscentError) -> AscentReport {
        // 0. Altitudes no device reaches (a glitch kilometres off in a second) are outliers, never counted.
        let (readings, impossible) = ImpossibleAltitudes.gated(readings)
        guard !readings.isEmpty else { throw .noReadings }
        // With the receiver learned, the track is smoothed with the receiver learned over it, as `fuse --smooth` does.
        let track: SmoothedAltitudeTrack
        do {
            let fixed =
                parameters.learnsReceiver
                ? try AltitudeFilter.learnedReceiverModel(readings, parameters: parameters) { _, _ in } : parameters
            track = try SmoothedAltitudeTrack(readings, parameters: fixed)
        } catch { throw .fusion(error) }
        guard !track.smoothed.isEmpty else { throw .noReadings }
        let times = track.smoothed.map(\.time)
        let windows = AveragingWindows(times: times, width: configuration.averagingTime)
        let averaged = windows.average(track.smoothed.map(\.altitude))

        // 2. The hysteresis from the track's uncertainty of differences at each lag, floored by its own scatter.
        let scatter = windows.scatterOfDifferences(averaged)
        var lags: [Double] = [], sigmas: [Double] = []
        for lag in configuration.hysteresisLags(averagingTime: configuration.averagingTime) {
            let pairs = windows.pairs(lag: lag, limit: lags.isEmpty ? 200 : 25)
            guard !pairs.isEmpty else { break }
            let variances: [Double]
            do {
                variances = try track.variances(of: pairs.map { windows.difference(from: $0.first, to: $0.second) })
            } catch { throw .fusion(error) }
            lags.append(lag)
            sigmas.append(max(median(variances.map { $0.squareRoot() }.filter(\.isFinite)) ?? 0, scatter))
        }
        let differenceSigma = sigmas.first ?? scatter
        let hasPressure = readings.contains { $0.pressure != nil }
        let hysteresis =
            lags.isEmpty
            ? AscentHysteresis(constant: configuration.hysteresisSigmas * differenceSigma)
            : AscentHysteresis(lags: lags, values: sigmas.map { configuration.hysteresisSigmas * $0 })

        // 3 to 5, with a hysteresis: the turning points, the figures as combinations, and their sigmas.
        func figures(_ hysteresis: AscentHysteresis) throws(AscentError) -> Figures {
            // 3. Turning points.
            let counter = AscentCounter.count(times: times, altitudes: averaged, hysteresis: hysteresis)
            // Each turning point, and the highest and lowest points, read at the middle of its plateau.
            let sigmaAtLag = { (lag: Double) in hysteresis.value(atLag: lag) / max(configuration.hysteresisSigmas, 1e-9)
            }
            func plateauMiddle(_ index: Int, _ direction: Double, _ bounds: ClosedRange<Int>) -> Int {
                TurningPointPlateau.middle(
                    of: index, direction: direction, values: averaged, times: times, bounds: bounds,
                    tolerance: sigmaAtLag)
            }
            let extremes = counter.closedTurningPoints
            // The samples strictly between the turning points either side of sample i (the whole track without any).
            func around(_ i: Int) -> ClosedRange<Int> {
                let before = extremes.last { $0.index < i }, after = extremes.first { $0.index > i }
                return (before.map { $0.index + 1 } ?? 0)...(after.map { $0.index - 1 } ?? averaged.count - 1)
            }
            let turns = extremes.indices.map { k -> AscentCounter.TurningPoint in
                let here = extremes[k]
                let neighbour = k + 1 < extremes.count ? extremes[k + 1] : k > 0 ? extremes[k - 1] : here
                let middle = plateauMiddle(here.index, here.altitude >= neighbour.altitude ? 1 : -1, around(here.index))
                return .init(index: middle, time: times[middle], altitude: averaged[middle])
            }
            let highestIndex: Int, lowestIndex: Int
            if let high = averaged.indices.max(by: { averaged[$0] < averaged[$1] }),
                let low = averaged.indices.min(by: { averaged[$0] < averaged[$1] })
            {
                highestIndex = plateauMiddle(high, 1, around(high))
                lowestIndex = plateauMiddle(low, -1, around(low))
            } else {
                highestIndex = 0
                lowestIndex = 0
            }

            // 4. The figures as combinations: ascent, descent, highest, lowest, then each segment.
            var ascent: [Int: Double] = [:], descent: [Int: Double] = [:]
            let totals = AscentCounter.totals(turns)
            var segmentCombinations: [[(index: Int, weight: Double)]] = []
            for (a, b) in zip(turns, turns.dropFirst()) {
                let difference = windows.difference(from: a.index, to: b.index)
                segmentCombinations.append(difference)
                for (index, weight) in difference {
                    if b.altitude > a.altitude {
                        ascent[index, default: 0] += weight
                    } else {
                        descent[index, default: 0] -= weight
                    }
                }
            }
            let combinations =
                [sorted(ascent), sorted(descent), windows.window(highestIndex), windows.window(lowestIndex)]
                + segmentCombinations
            // 5. Their sigmas: the whole, and the part the column's temperature explains.
            let whole: [Double], column: [Double]
            do {
                whole = try track.variances(of: combinations)
                column = try track.columnVariances(of: combinations)
            } catch { throw .fusion(error) }
            func uncertain(_ value: Double, _ k: Int) -> AscentReport.Uncertain {
                let c = min(column[k], whole[k])
                return .init(
                    value: value, standardDeviation: whole[k].squareRoot(),
                    pressureStandardDeviation: (whole[k] - c).squareRoot(),
                    columnStandardDeviation: c.squareRoot())
            }
            var segments: [AscentSegment] = []
            for (k, (a, b)) in zip(turns, turns.dropFirst()).enumerated() {
                let sigma = uncertain(0, 4 + k).standardDeviation
                segments.append(
                    AscentSegment(
                        startTime: a.time, endTime: b.time, startAltitude: a.altitude,
                        endAltitude: b.altitude, gainStandardDeviation: sigma))
            }
            return Figures(
                ascent: uncertain(totals.ascent, 0), descent: uncertain(totals.descent, 1),
                highest: uncertain(averaged.isEmpty ? .nan : averaged[highestIndex], 2),
                lowest: uncertain(averaged.isEmpty ? .nan : averaged[lowestIndex], 3), segments: segments)
        }
        var counted = try figures(hysteresis)
        if !lags.isEmpty {
            // A slow reversal between the track's own short-lag scatter and H(τ) may be terrain or what the model's
            // slow errors (the weather under a barometer, the GPS error's wander under GPS alone) can do in its
            // time, and the track cannot tell which. The count that takes none of them (H(τ)) and the count that
            // takes all (k times the scatter) bracket the total; it is the middle, with the bracket in its sigma.
            let fine = try figures(AscentHysteresis(constant: configuration.hysteresisSigmas * scatter))
            counted.ascent = .bracketing(counted.ascent, fine.ascent)
            counted.descent = .bracketing(counted.descent, fine.descent)
        }

        // 6. Comparisons.
        let comparisons = AscentComparisons(
            readings: readings, averagingTime: configuration.averagingTime,
            hysteresis: hysteresis, gpsHysteresisValues: configuration.gpsHysteresisValues)
        // A total is never known to better than one difference: a climb or descent below the hysteresis is not
        // counted, so even a total of 0 m (no reversal found) carries σ_Δ, the sigma of a change over one window.
        func total(_ counted: AscentReport.Uncertain) -> AscentReport.Uncertain {
            var figure = counted
            figure.standardDeviation = max(figure.standardDeviation, differenceSigma)
            return figure
        }
        return AscentReport(
            ascent: total(counted.ascent), descent: total(counted.descent), highest: counted.highest,
            lowest: counted.lowest, segments: counted.segments, hysteresis: hysteresis.smallest,
            hysteresisByLag: hysteresis,
            differenceStandardDeviation: differenceSigma,
            temperatureAssumed: hasPressure && !readings.contains { $0.temperature != nil },
            columnTemperatureStandardDeviation: median(
                track.smoothed.map(\.columnTemperatureStandardDeviation).filter(\.isFinite)) ?? 0,
            gpsOnly: comparisons.gpsOnly, barometerOnly: comparisons.barometerOnly, impossibleValues: impossible)
    }

    /// The figures of one count: totals, extremes and segments.
    struct Figures {
        var ascent, descent, highest, lowest: AscentReport.Uncertain
        var segments: [AscentSegment]
    }

    static func sorted(_ weights: [Int: Double]) -> [(index: Int, weight: Double)] {
        weights.keys.sorted().compactMap { key in weights[key].map { (key, $0) } }
    }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let s = values.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}
