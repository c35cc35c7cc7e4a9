import Altimetry
import Randomness

extension Scenario {
    /// Simulates the scenario: the merged, time-ordered rows of both sensors and the truth behind each.
    ///
    /// The seed is expanded by SplitMix64 into one independent `SeededGenerator` per source of randomness
    /// (barometer times, GPS times, outlier choice, weather, GPS correlated error, GPS white noise,
    /// barometer noise, temperature noise), so that, for example, changing the barometer's noise leaves the
    /// GPS fixes unchanged. The two continuous processes, the weather random walk W and the GPS correlated
    /// error e, are advanced exactly from one row's time to the next, so each row sees a draw with exactly
    /// the right joint distribution whatever the spacing; e starts from its stationary law, W from 0.
    ///
    /// Rows where both sensors sampled at exactly the same instant carry both readings.
    ///
    /// - Throws: `ScenarioError` when a parameter is out of its domain (see `validate()`), or when more
    ///   outliers are requested than there are fixes after `notBefore`.
    /// - Complexity: O(n) in the number of rows n, plus O(log) per outage check.
    public func simulate() throws(ScenarioError) -> SimulatedRecording {
        try validate()
        var streams = SplitMix64(state: seed)
        var barometerClockRandom = SeededGenerator(seed: streams.next())
        var gpsClockRandom = SeededGenerator(seed: streams.next())
        var outlierRandom = SeededGenerator(seed: streams.next())
        var weatherRandom = SeededGenerator(seed: streams.next())
        var gpsCorrelatedRandom = SeededGenerator(seed: streams.next())
        var gpsWhiteRandom = SeededGenerator(seed: streams.next())
        var barometerNoiseRandom = SeededGenerator(seed: streams.next())
        var temperatureRandom = SeededGenerator(seed: streams.next())

        let barometerTimes = barometer.clock.times(before: duration, using: &barometerClockRandom)
        let outages = gps.outages
        let gpsTimes = gps.clock.times(before: duration, using: &gpsClockRandom).filter { t in
            !outages.contains { $0.contains(t) }
        }
        let outlierOffsets = try drawOutliers(at: gpsTimes, using: &outlierRandom)

        var readings: [SimulatedReading] = []
        var truth: [GroundTruth] = []
        readings.reserveCapacity(barometerTimes.count + gpsTimes.count)
        truth.reserveCapacity(barometerTimes.count + gpsTimes.count)

        var cursor = AltitudeProfile.Cursor(profile)
        var gpsError = GaussMarkovProcess(standardDeviation: gps.correlatedErrorStandardDeviation,
                                          correlationTime: gps.correlationTime, using: &gpsCorrelatedRandom)
        let randomWalkVariance = weather.randomWalkVariance
        var randomWalk: Hectopascals = 0
        var previousTime: Seconds = 0
        let accuracy = gps.reportedAccuracyValue
        let sigmaP = barometer.noiseStandardDeviation
        let sigmaW = gps.whiteNoiseStandardDeviation
        let temperatureSensor = barometer.temperatureSensor
        var i = 0, j = 0
        while i < barometerTimes.count || j < gpsTimes.count {
            let nextBarometer = i < barometerTimes.count ? barometerTimes[i] : .infinity
            let nextGPS = j < gpsTimes.count ? gpsTimes[j] : .infinity
            let t = min(nextBarometer, nextGPS)
            let step = t - previousTime
            previousTime = t

            // Continuous processes, advanced exactly over the step since the previous row.
            gpsError.advance(by: step, using: &gpsCorrelatedRandom)
            if randomWalkVariance > 0 {
                randomWalk += (randomWalkVariance * step).squareRoot() * weatherRandom.gaussian()
            }
            let h = cursor.altitude(at: t)
            let b = weather.deterministicOffset(at: t) + randomWalk
            let p = air.pressure(atAltitude: h, seaLevelPressure: StandardAtmosphere.seaLevelPressure + b)
            let airTemperature = air.temperature(atAltitude: h)

            var reading = SimulatedReading(time: t, trueAltitude: h)
            var row = GroundTruth(altitude: h, weatherOffset: b, pressure: p, airTemperature: airTemperature,
                                  gpsCorrelatedError: gpsError.value, gpsError: nil, isOutlier: false)
            if nextBarometer == t {
                reading.pressure = p + sigmaP * barometerNoiseRandom.gaussian()
                if let sensor = temperatureSensor {
                    reading.temperatureCelsius = airTemperature - Self.kelvinAtZeroCelsius + sensor.bias
                        + sensor.noiseStandardDeviation * temperatureRandom.gaussian()
                }
                i += 1
            }
            if nextGPS == t {
                let offset = outlierOffsets[j]
                let error = gpsError.value + sigmaW * gpsWhiteRandom.gaussian() + (offset ?? 0)
                reading.gpsAltitude = h + error
                reading.gpsVerticalAccuracy = accuracy
                row.gpsError = error
                row.isOutlier = offset != nil
                j += 1
            }
            readings.append(reading)
            truth.append(row)
        }
        return SimulatedRecording(scenario: self, readings: readings, truth: truth)
    }

    /// 0 °C in kelvin.
    static let kelvinAtZeroCelsius: Kelvin = 273.15

    /// The multipath offset of each fix, in metres, or `nil` for a clean fix.
    ///
    /// Draws `count` distinct eligible fixes by a partial Fisher-Yates shuffle, then each offset uniformly.
    private func drawOutliers(at gpsTimes: [Seconds],
                              using random: inout SeededGenerator) throws(ScenarioError) -> [Meters?] {
        var offsets = [Meters?](repeating: nil, count: gpsTimes.count)
        guard let outliers = gps.outliers, outliers.count > 0 else { return offsets }
        var eligible = gpsTimes.indices.filter { gpsTimes[$0] >= outliers.notBefore }
        guard outliers.count <= eligible.count else {
            throw .tooManyOutliers(requested: outliers.count, eligibleFixes: eligible.count)
        }
        let width = outliers.maximumOffset - outliers.minimumOffset
        for k in 0..<outliers.count {
            let remaining = eligible.count - k
            let pick = k + min(remaining - 1, Int(random.uniform() * Double(remaining)))
            eligible.swapAt(k, pick)
            offsets[eligible[k]] = outliers.minimumOffset + width * random.uniform()
        }
        return offsets
    }
}
