import Foundation
import Simulation
import Testing

@testable import Altimetry

/// The air column's temperature as a state, and the process noise scaled at the current state.
@Suite("AltitudeFilter column")
struct AltitudeFilterColumnTests {
    @Test(
        "In hot and cold columns without a temperature the filter stays honest and learns the column",
        arguments: [StressScenarioName.driveHot, .driveCold, .skydiveHot])
    func columnFromGPS(name: StressScenarioName) throws {
        var score = EstimatorScore()
        var columnSquares = 0.0, columnCount = 0.0
        for seed in [21, 22, 23] as [UInt64] {
            let evaluation = try StressEvaluation(
                try Scenario.stress(name, seed: seed).simulate(), event: name.eventTime,
                parameters: AltitudeModelParameters())
            score.merge(evaluation.score)
            columnSquares += evaluation.columnErrors.reduce(0) { $0 + $1 * $1 }
            columnCount += Double(evaluation.columnErrors.count)
            if let event = evaluation.errorAfterEvent {
                #expect(abs(event.error) < 15, "\(name) seed \(seed): \(event)")
            }
        }
        // Three seeds of a few thousand correlated rows: the coverage's standard error is about 0.04.
        // Known shortfall on the skydive (coverage 0.39, NEES 1.95 measured): after the dive the level sits on the
        // GPS error of the descent, about 10 m, with a sigma of 4 to 5 m, for the rest of the track.
        withKnownIssue("the skydive through a hot column is overconfident after landing") {
            #expect((0.55...0.85).contains(score.coverage), "\(name): coverage \(score.coverage)")
            #expect((0.5...1.7).contains(score.meanNEES), "\(name): NEES \(score.meanNEES)")
        } when: {
            name == .skydiveHot
        }
        let rms = (columnSquares / max(columnCount, 1)).squareRoot()
        #expect(rms < 3, "\(name): column RMS \(rms) K after 1,000 m")
    }

    /// GIVEN drives up and down 2,000 m in columns 20 K from standard whose lapse rates are 5.5 and 7.5 K/km, WHEN the
    /// default filter fuses them without a temperature, THEN the column's reported sigma covers its error after
    /// 1,000 m about as a one sigma should; with a column whose offset cannot change with height and a station
    /// temperature read off the standard lapse (`column_lapse_sigma` 0) it covers far less.
    @Test(
        "After climbs of kilometres the column's sigma includes the lapse rate's spread",
        arguments: [StressScenarioName.driveHot, .driveCold])
    func columnSigmaIncludesLapseRate(name: StressScenarioName) throws {
        // The stress benchmark's own pooled figure over seeds 21 to 24.
        func coverage(_ parameters: AltitudeModelParameters) throws -> Double {
            let result = try StressBenchmark.run(trials: 4, seed: 21, parameters: parameters, scenarios: [name])
            return try #require(result.scenarios.first?.column_coverage)
        }
        var constant = AltitudeModelParameters()
        constant.columnLapseRateStandardDeviation = 0
        let lapse = try coverage(AltitudeModelParameters()), without = try coverage(constant)
        #expect((0.55...0.9).contains(lapse), "\(name): column coverage \(lapse)")
        #expect(without < lapse - 0.1, "\(name): \(without) without the lapse rate, \(lapse) with it")
    }

    @Test("A station temperature informs the column: the cold scenario's column within 2 K")
    func temperatureReading() throws {
        let recording = try Scenario.named(.cold, seed: 3).simulate()
        var filter = try AltitudeFilter()
        var last: AltitudeEstimate?
        for r in recording.readings {
            last = try filter.process(
                AltitudeReading(
                    time: r.time, pressure: r.pressure, gpsAltitude: r.gpsAltitude,
                    temperature: r.temperatureCelsius.map { $0 + 273.15 }))
        }
        let e = try #require(last), truth = try #require(recording.truth.last)
        #expect(
            abs(e.columnTemperature - truth.airTemperature) < 2, "\(e.columnTemperature) vs \(truth.airTemperature)")
        #expect(e.columnTemperatureStandardDeviation < 1.5)
    }

    @Test("The process noise follows the state: s_U = T₀/T(h) and s_B = H₀/QNH within 10⁻⁴ after a 1,600 m climb")
    func noiseAtCurrentState() throws {
        let recording = try Scenario.named(.hike, seed: 2, duration: 9_000).simulate()
        var filter = try AltitudeFilter()
        for r in recording.readings {
            _ = try filter.process(AltitudeReading(time: r.time, pressure: r.pressure, gpsAltitude: r.gpsAltitude))
        }
        let engine = try #require(filter.engine)
        let e = try #require(filter.currentEstimate)
        let su = StandardAtmosphere.seaLevelTemperature / e.columnTemperature
        let sb = LogPressureCoordinates.scaleHeight / e.seaLevelPressure
        // The scales are set before each prediction, within 10⁻⁴; the last reading's update then moves the state a
        // little further (1.6e-4 measured at the end of a descent at 0.25 m/s), so 3e-4.
        #expect(abs(engine.model.altitudeScaleSquared / (su * su) - 1) < 3e-4)
        #expect(abs(engine.model.weatherScaleSquared / (sb * sb) - 1) < 3e-4)
        // Near 2,000 m at the end, the scale at the start (800 m) in the same column is (1 + L (h − 800)/T(h))²
        // = 5.6 % smaller in variance: the column's temperature is T(h) = k T₀ − L h, so s_U(800) = T₀/(T(h) +
        // L (h − 800)). Scaling at the state matters here; 4 % leaves room for the end's altitude error.
        let start =
            StandardAtmosphere.seaLevelTemperature
            / (e.columnTemperature + StandardAtmosphere.lapseRate * (e.altitude - 800))
        #expect(engine.model.altitudeScaleSquared / (start * start) > 1.04, "at \(e.altitude) m")
    }

    /// GIVEN a hike up 1,500 m and back in a column 20 K colder than standard with its own lapse, WHEN the filter
    /// learns the column, THEN its front detectors see at most the share of the climb's drift that the filter books
    /// as weather (the standard altimeter setting moves by 12 hPa over such a climb, and watching it reported fronts
    /// of up to 16 hPa whose noise hid the column), and the column ends within 3 K.
    @Test(
        "A climb through a cold column is no large weather front, and the column is learned",
        arguments: [1, 2] as [UInt64])
    func climbIsNoFront(seed: UInt64) throws {
        let recording = try Scenario.stress(.hikeCold, seed: seed).simulate()
        var filter = try AltitudeFilter()
        var last: AltitudeEstimate?
        for r in recording.readings {
            last = try filter.process(AltitudeReading(time: r.time, pressure: r.pressure, gpsAltitude: r.gpsAltitude))
        }
        let largest = filter.fronts.map { abs($0.sizeHectopascals) }.max() ?? 0
        #expect(largest < 6, "\(filter.fronts)")
        let e = try #require(last), truth = try #require(recording.truth.last)
        #expect(
            abs(e.columnTemperature - truth.airTemperature) < 3, "\(e.columnTemperature) vs \(truth.airTemperature)")
    }

    /// GIVEN the first five minutes at a 2,600 m launch under a column 20 K hot, WHEN the filter fuses them starting
    /// with a fix before the first pressure, or with the pressure first, THEN the order does not decide the column,
    /// the still station does not shrink the column's sigma (it cannot tell the column from the weather), and the
    /// true column lies within that sigma's reach. Started from the fix without starting over at the pressure, the
    /// column's sigma fell from 5.1 K to 4.1 K within 5 s, with the column 3.4 sigmas from the truth (seed 1).
    @Test(
        "A still start's column: the same whichever sensor comes first, and not learned at a still station",
        arguments: [1, 2, 3] as [UInt64])
    func stillStartColumn(seed: UInt64) throws {
        let recording = try Scenario.stress(.paragliderHot, seed: seed).simulate()
        let still = recording.readings.filter { $0.time < 300 }
        let firstPressure = try #require(still.firstIndex { $0.pressure != nil })
        try #require(still[..<firstPressure].contains { $0.gpsAltitude != nil }, "the track starts with a fix")
        func fuse(_ readings: ArraySlice<SimulatedReading>) throws -> (first: AltitudeEstimate, last: AltitudeEstimate)
        {
            var filter = try AltitudeFilter()
            var seenPressure = false, first: AltitudeEstimate?, last: AltitudeEstimate?
            for r in readings {
                let e = try filter.process(
                    AltitudeReading(time: r.time, pressure: r.pressure, gpsAltitude: r.gpsAltitude))
                seenPressure = seenPressure || r.pressure != nil
                if first == nil, seenPressure, r.gpsAltitude != nil { first = e }
                last = e
            }
            return (try #require(first), try #require(last))
        }
        let fixFirst = try fuse(still[...]), pressureFirst = try fuse(still[firstPressure...])
        #expect(abs(fixFirst.last.columnTemperature - pressureFirst.last.columnTemperature) < 0.2)
        #expect(
            abs(
                fixFirst.last.columnTemperatureStandardDeviation / pressureFirst.last.columnTemperatureStandardDeviation
                    - 1) < 0.02)
        // 300 s at one place teach nothing about the column. The first fixes still take it from 5.3 K to 4.9 K (seeds
        // 1 and 2) and 4.7 K (seed 3; 4.8 K with a still device's walk at the moving one's 10 m²/s): U's own prior,
        // centred on the pressure's standard altitude, is a second prior on the weather. Started from the fix
        // without starting over, it fell by 20 % within 5 s; 15 % tells the two apart.
        #expect(
            fixFirst.last.columnTemperatureStandardDeviation > 0.85 * fixFirst.first.columnTemperatureStandardDeviation,
            "\(fixFirst.first.columnTemperatureStandardDeviation) K to \(fixFirst.last.columnTemperatureStandardDeviation) K"
        )
        let truth = try #require(recording.truth.first).airTemperature
        let z = (fixFirst.last.columnTemperature - truth) / fixFirst.last.columnTemperatureStandardDeviation
        #expect(abs(z) < 2.5, "column \(fixFirst.last.columnTemperature) K, truth \(truth) K: \(z) sigmas")
    }
}
