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
        #expect((0.55...0.85).contains(score.coverage), "\(name): coverage \(score.coverage)")
        #expect((0.5...1.7).contains(score.meanNEES), "\(name): NEES \(score.meanNEES)")
        let rms = (columnSquares / max(columnCount, 1)).squareRoot()
        #expect(rms < 3, "\(name): column RMS \(rms) K after 1,000 m")
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
        // At 2,400 m the scale at the start (800 m) would be 6 % off in variance.
        let start = AltitudeModel(parameters: AltitudeModelParameters(), startAltitude: 800).altitudeScaleSquared
        #expect(engine.model.altitudeScaleSquared / start > 1.04, "at \(e.altitude) m")
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
}
