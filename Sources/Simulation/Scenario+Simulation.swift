import Altimetry
import Randomness
import StateEstimation

extension Scenario {
    /// Simulates the scenario: the merged, time-ordered rows of both sensors and the truth behind each.
    ///
    /// The seed is expanded by SplitMix64 into one independent `SeededGenerator` per source of randomness
    /// (barometer times, GPS times, outlier choice, weather walk, GPS correlated error, GPS white noise,
    /// barometer noise, temperature noise, and the two bridges below). The weather random walk W is drawn
    /// forward at the barometer's times (from W(0) = 0), the GPS correlated error e at the fixes' times (from
    /// its stationary law at t = 0), each exactly over the actual, irregular steps; the values the truth
    /// needs at the other sensor's rows are bridged (see `AnchoredPath`). So a barometer reading depends only
    /// on the barometer's streams and the weather, a fix only on the GPS's streams: changing one sensor's
    /// rate or noise leaves the other's readings bit-identical.
    ///
    /// Rows where both sensors sampled at exactly the same instant carry both readings.
    ///
    /// - Throws: `ScenarioError` when a parameter is out of its domain (see `validate()`), or when more
    ///   outliers are requested than there are fixes after `notBefore`.
    /// - Complexity: O(n) in the number of rows n (times the number of outages when filtering fixes).
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
        var weatherBridgeRandom = SeededGenerator(seed: streams.next())
        var gpsBridgeRandom = SeededGenerator(seed: streams.next())
        // Drawn after the ten streams above, so that the weather's smooth parts leave every other stream as it was.
        var weatherShapeRandom = SeededGenerator(seed: streams.next())
        var gustRandom = SeededGenerator(seed: streams.next())
        var gustBridgeRandom = SeededGenerator(seed: streams.next())

        let barometerTimes = barometer.clock.times(before: duration, using: &barometerClockRandom)
        let outages = gps.outages
        let gpsTimes = gps.clock.times(before: duration, using: &gpsClockRandom).filter { t in
            !outages.contains { $0.contains(t) }
        }
        let outlierOffsets = try drawOutliers(at: gpsTimes, using: &outlierRandom)

        var weatherWalk = drawWeatherWalk(at: barometerTimes, using: &weatherRandom)
        let randomTrendPerHour =
            weather.randomTrendStandardDeviation > 0
            ? weather.randomTrendStandardDeviation * weatherShapeRandom.gaussian() : 0
        let swells = weather.swells?.draw(using: &weatherShapeRandom) ?? []
        var gusts = weather.gusts.map { g in
            drawGaussMarkov(
                standardDeviation: g.standardDeviation, correlationTime: g.correlationTime,
                at: barometerTimes, using: &gustRandom)
        }
        var gpsError = drawGaussMarkov(
            standardDeviation: gps.correlatedErrorStandardDeviation,
            correlationTime: gps.correlationTime, at: gpsTimes, using: &gpsCorrelatedRandom)

        var readings: [SimulatedReading] = []
        var truth: [GroundTruth] = []
        readings.reserveCapacity(barometerTimes.count + gpsTimes.count)
        truth.reserveCapacity(barometerTimes.count + gpsTimes.count)

        var cursor = AltitudeProfile.Cursor(profile)
        let accuracy = gps.reportedAccuracyValue
        let sigmaP = barometer.noiseStandardDeviation
        let sigmaW = gps.whiteNoiseStandardDeviation
        let temperatureSensor = barometer.temperatureSensor
        var i = 0, j = 0
        var lastPressure: Hectopascals?
        while i < barometerTimes.count || j < gpsTimes.count {
            let nextBarometer = i < barometerTimes.count ? barometerTimes[i] : .infinity
            let nextGPS = j < gpsTimes.count ? gpsTimes[j] : .infinity
            let t = min(nextBarometer, nextGPS)

            let h = cursor.altitude(at: t)
            var b = weather.deterministicOffset(at: t) + weatherWalk.value(at: t, using: &weatherBridgeRandom)
            b += randomTrendPerHour * t / 3_600 + WeatherSwells.offset(at: t, components: swells)
            b += gusts?.value(at: t, using: &gustBridgeRandom) ?? 0
            let e = gpsError.value(at: t, using: &gpsBridgeRandom)
            let p = air.pressure(atAltitude: h, seaLevelPressure: StandardAtmosphere.seaLevelPressure + b)
            let airTemperature = air.temperature(atAltitude: h)

            var reading = SimulatedReading(time: t, trueAltitude: h)
            var row = GroundTruth(
                altitude: h, weatherOffset: b, pressure: p, airTemperature: airTemperature,
                gpsCorrelatedError: e)
            if nextBarometer == t {
                // Faults come on top of the noise; a stuck sensor repeats its last reading (the noise is still
                // drawn, so the other readings do not depend on the fault).
                let noisy =
                    p + sigmaP * barometerNoiseRandom.gaussian() + barometer.faults.reduce(0) { $0 + $1.offset(at: t) }
                let stuck = barometer.faults.contains { $0.isStuck(at: t) }
                reading.pressure = stuck ? (lastPressure ?? noisy) : noisy
                lastPressure = reading.pressure
                if let sensor = temperatureSensor {
                    reading.temperatureCelsius =
                        airTemperature - Self.kelvinAtZeroCelsius + sensor.bias
                        + sensor.noiseStandardDeviation * temperatureRandom.gaussian()
                }
                i += 1
            }
            if nextGPS == t {
                let offset = outlierOffsets[j]
                let error =
                    e + sigmaW * gpsWhiteRandom.gaussian() + (offset ?? 0)
                    + gps.faults.reduce(0) { $0 + $1.offset(at: t) }
                reading.gpsAltitude = h + error
                reading.gpsVerticalAccuracy = accuracy
                row.gpsError = error
                row.outlierOffset = offset
                j += 1
            }
            readings.append(reading)
            truth.append(row)
        }
        return SimulatedRecording(scenario: self, readings: readings, truth: truth)
    }

    /// 0 °C in kelvin.
    static let kelvinAtZeroCelsius: Kelvin = 273.15

    /// The weather random walk W, in hPa, drawn at t = 0 (where it is 0) and at the barometer's times.
    private func drawWeatherWalk(at times: [Seconds], using random: inout SeededGenerator) -> AnchoredPath {
        let q = weather.randomWalkVariance
        var values = [0.0]
        values.reserveCapacity(times.count + 1)
        var previous: (time: Seconds, value: Double) = (0, 0)
        for t in times {
            // W(t) = W(t_prev) + √(q Δt) N(0, 1): exact for any step. No draws when q = 0.
            let value = q > 0 ? previous.value + (q * (t - previous.time)).squareRoot() * random.gaussian() : 0
            values.append(value)
            previous = (t, value)
        }
        return AnchoredPath(law: .wiener(variancePerSecond: q), anchorTimes: [0] + times, anchorValues: values)
    }

    /// A first-order Gauss-Markov process (the GPS correlated error e in metres at the fixes' times, the gusts in
    /// hPa at the barometer's): a stationary draw at t = 0, then the exact discretisation over each step.
    private func drawGaussMarkov(
        standardDeviation sigma: Double, correlationTime tau: Seconds, at times: [Seconds],
        using random: inout SeededGenerator
    ) -> AnchoredPath {
        var process = GaussMarkovProcess(standardDeviation: sigma, correlationTime: tau, using: &random)
        var values = [process.value]
        values.reserveCapacity(times.count + 1)
        var previous: Seconds = 0
        for t in times {
            values.append(process.advance(by: t - previous, using: &random))
            previous = t
        }
        return AnchoredPath(
            law: .gaussMarkov(standardDeviation: sigma, correlationTime: tau),
            anchorTimes: [0] + times, anchorValues: values)
    }

    /// The multipath offset of each fix, in metres, or `nil` for a clean fix.
    ///
    /// Draws `count` distinct eligible fixes by a partial Fisher-Yates shuffle, then each offset uniformly.
    private func drawOutliers(
        at gpsTimes: [Seconds],
        using random: inout SeededGenerator
    ) throws(ScenarioError) -> [Meters?] {
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
