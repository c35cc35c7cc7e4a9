import Altimetry
import Foundation
import Testing

@testable import Simulation

@Suite("Scenario catalogue")
struct ScenarioCatalogueTests {
    static func rows(_ recording: SimulatedRecording) -> [(reading: SimulatedReading, truth: GroundTruth)] {
        Array(zip(recording.readings, recording.truth))
    }

    @Test(
        "Every named scenario lasts its default duration, which --duration overrides", arguments: ScenarioName.allCases)
    func durations(name: ScenarioName) throws {
        let scenario = Scenario.named(name, seed: 2)
        #expect(scenario.duration == name.defaultDuration)
        #expect(scenario.name == name.rawValue)
        let recording = try scenario.simulate()
        let last = try #require(recording.readings.last)
        // 1 Hz sensors with delays below one interval: the last row falls in the final second.
        #expect(last.time >= name.defaultDuration - 1 && last.time < name.defaultDuration)
        let short = try Scenario.named(name, seed: 2, duration: 120).simulate()
        #expect(short.readings.allSatisfy { $0.time < 120 })
        #expect(short.barometerCount == 120)
    }

    @Test("The benchmark's scenarios, by the names the command line uses")
    func names() {
        #expect(ScenarioName.benchmark.map(\.rawValue) == ["building", "static", "hike", "front", "canyon", "cold"])
        #expect(ScenarioName(rawValue: "seed-calibration") == .seedCalibration)
    }

    @Test("building: the seed's visit, ending in the basement at -3 m, with the weather falling 1 hPa per hour")
    func building() throws {
        let recording = try Scenario.named(.building, seed: 9).simulate()
        #expect(recording.barometerCount == 1_662 && recording.gpsCount == 1_662)
        for (reading, truth) in Self.rows(recording) {
            // No random walk: b(t) = −t / 3600 hPa exactly.
            #expect(abs(truth.weatherOffset + reading.time / 3_600) < 1e-12)
        }
        let last = try #require(recording.truth.last)
        #expect(last.altitude == -3)
        #expect(recording.truth.map(\.altitude).max() == 9)
        // The seed's drift: after 1,662 s the weather has lowered the pressure by 0.46 hPa, 3.85 m of apparent climb.
        #expect(abs(last.weatherOffset * 8.33 + 3.85) < 0.01)
    }

    @Test("static: one hour at 250 m, the outdoor weather")
    func still() throws {
        let recording = try Scenario.named(.static, seed: 3).simulate()
        #expect(recording.truth.allSatisfy { $0.altitude == 250 })
        #expect(recording.scenario.weather == .outdoor(initialOffset: 4))
        #expect(recording.scenario.duration == 3_600)
    }

    @Test("hike: 6 h, from 800 m to 2,400 m and back, with rests of 10 minutes and more")
    func hike() throws {
        let recording = try Scenario.named(.hike, seed: 4).simulate()
        let altitudes = recording.truth.map(\.altitude)
        #expect(recording.scenario.duration == 21_600)
        #expect(recording.scenario.profile.altitude(at: 0) == 800)
        // The first row comes within 0.2 s of the start (barometer jitter), when the hiker has climbed < 0.03 m.
        #expect(abs((altitudes.first ?? 0) - 800) < 0.03)
        #expect(abs((altitudes.max() ?? 0) - 2_400) < 1e-6)
        #expect(abs((altitudes.last ?? 0) - 800) < 1e-6)
        // Rests: stretches where the profile stands still for at least 600 s, on the way and at the summit.
        let knots = recording.scenario.profile.knots
        let rests = zip(knots, knots.dropFirst()).filter { $0.altitude == $1.altitude && $1.time - $0.time >= 600 }
        #expect(rests.count == 7)
    }

    @Test("front: a 3 hPa drop over 40 minutes, from t = 40 min to 80 min, during a 2 h walk")
    func front() throws {
        var scenario = Scenario.named(.front, seed: 5)
        #expect(scenario.weather.fronts == [PressureFront(start: 2_400, duration: 2_400, change: -3)])
        // WHEN the weather's random parts are switched off, THEN the truth's b is +5 hPa before, +2 after, 3.5 at
        // mid-front.
        scenario.weather.randomTrendStandardDeviation = 0
        scenario.weather.swells = nil
        scenario.weather.gusts = nil
        let recording = try scenario.simulate()
        for (reading, truth) in Self.rows(recording) {
            if reading.time <= 2_400 { #expect(truth.weatherOffset == 5) }
            if reading.time >= 4_800 { #expect(abs(truth.weatherOffset - 2) < 1e-12) }
        }
        let middle = try #require(Self.rows(recording).first { $0.reading.time >= 3_600 })
        #expect(abs(middle.truth.weatherOffset - 3.5) < 0.01)  // within 1 s of mid-front: 0.002 hPa/s at most
        // The walk moves: it climbs 300 m and comes back.
        #expect(abs((recording.truth.map(\.altitude).max() ?? 0) - 700) < 1e-6)
    }

    @Test(
        "canyon: rim to river and back; no GPS row during the 20-minute outage at the bottom; 30 outliers of +40 to +80 m",
        arguments: [1, 2, 3] as [UInt64])
    func canyon(seed: UInt64) throws {
        let recording = try Scenario.named(.canyon, seed: seed).simulate()
        let fixes = Self.rows(recording).filter { $0.reading.gpsAltitude != nil }
        // Down 1,400 m from the rim at 2,100 m and back up: the river at 700 m, the outage spanning the river rest.
        let altitudes = recording.truth.map(\.altitude)
        #expect(abs((altitudes.min() ?? 0) - 700) < 1e-6 && abs((altitudes.max() ?? 0) - 2_100) < 1e-6)
        #expect(abs((altitudes.last ?? 0) - 2_100) < 1e-6)
        #expect(!fixes.contains { $0.reading.time >= 7_400 && $0.reading.time < 8_600 }, "seed \(seed)")
        // The outage is really bounded by fixes: the last before it within 1.1 s, the first after within 1.1 s.
        #expect(fixes.contains { $0.reading.time >= 7_398.9 && $0.reading.time < 7_400 })
        #expect(fixes.contains { $0.reading.time >= 8_600 && $0.reading.time < 8_601.1 })
        // The barometer keeps going during the outage.
        #expect(recording.readings.filter { $0.time >= 7_400 && $0.time < 8_600 }.count >= 1_199)
        let outliers = fixes.filter { $0.truth.isOutlier }
        #expect(outliers.count == 30, "seed \(seed)")
        for outlier in outliers {
            let offset = try #require(outlier.truth.outlierOffset)
            #expect(offset >= 40 && offset <= 80)
            #expect(outlier.reading.time >= 60)
            // The fix really carries it: GPS − true − correlated error − offset is the 1 m white noise.
            let gps = try #require(outlier.reading.gpsAltitude)
            #expect(abs(gps - outlier.truth.altitude - outlier.truth.gpsCorrelatedError - offset) < 6)
        }
        #expect(fixes.filter { !$0.truth.isOutlier }.allSatisfy { $0.truth.outlierOffset == nil })
    }

    @Test("cold: the station pressure is the hypsometric integral through a column 20 K colder than standard")
    func cold() throws {
        let recording = try Scenario.named(.cold, seed: 6).simulate()
        let altitudes = recording.truth.map(\.altitude)
        #expect(recording.scenario.profile.minimumAltitude == 2_850)
        #expect(abs(recording.scenario.profile.maximumAltitude - 3_150) < 1e-9)
        // The rows reach the top, and come back down to within one second of descent (0.15 m) of the start.
        #expect(abs((altitudes.max() ?? 0) - 3_150) < 1e-6 && abs((altitudes.min() ?? 0) - 2_850) < 0.15)
        for (index, (reading, truth)) in Self.rows(recording).enumerated() where index % 97 == 0 {
            // Independent check: integrate dp/p = −g M / (R T(h)) dh with T(h) = 288.15 − 20 − 0.0065 h on 1 m steps.
            let integral = AirColumnTests.integratedPressure(
                altitude: truth.altitude, seaLevelPressure: truth.seaLevelPressure
            ) {
                268.15 - 0.0065 * $0
            }
            #expect(abs(truth.pressure - integral) < 1e-6, "t \(reading.time)")
            // And it is not the standard atmosphere's: about 19.7 hPa lower at 3,000 m for the same QNH.
            let standard = try StandardAtmosphere.pressure(
                atAltitude: truth.altitude, seaLevelPressure: truth.seaLevelPressure)
            #expect(standard - truth.pressure > 18)
        }
        // Every barometer row carries the temperature, every GPS-only row none; 0.2 K noise around the truth.
        let temperatureRows = Self.rows(recording).filter { $0.reading.pressure != nil }
        #expect(temperatureRows.allSatisfy { $0.reading.temperatureCelsius != nil })
        #expect(
            Self.rows(recording).filter { $0.reading.pressure == nil }.allSatisfy {
                $0.reading.temperatureCelsius == nil
            })
        let residuals = try temperatureRows.map {
            try #require($0.reading.temperatureCelsius) - ($0.truth.airTemperature - 273.15)
        }
        // 7,200 readings: relative standard error of the std is 0.8 %; 5 % is over 6 of them.
        #expect(abs(moments(residuals).std / 0.2 - 1) < 0.05)
        let at3000 = try #require(recording.truth.first { abs($0.altitude - 3_000) < 0.5 })
        #expect(abs(at3000.airTemperature - 248.65) < 0.01)
    }

    @Test("seed-calibration: 600 s still, both sensors at exactly 1 Hz on whole seconds, no weather")
    func seedCalibration() throws {
        let recording = try Scenario.named(.seedCalibration, seed: 7).simulate()
        #expect(recording.readings.map(\.time) == (0..<600).map(Double.init))
        #expect(recording.readings.allSatisfy { $0.pressure != nil && $0.gpsAltitude != nil })
        #expect(recording.truth.allSatisfy { $0.weatherOffset == 0 && $0.altitude == 250 })
        #expect(
            recording.scenario.gps.correlatedErrorStandardDeviation == 10
                && recording.scenario.gps.correlationTime == 60)
    }
}

@Suite("Scenario catalogue: ascent scenarios")
struct AscentScenarioCatalogueTests {
    @Test("flat-walk: an hour at 500 m, true ascent 0")
    func flatWalk() throws {
        let recording = try Scenario.named(.flatWalk, seed: 1).simulate()
        #expect(recording.scenario.duration == 3_600)
        #expect(recording.truth.allSatisfy { $0.altitude == 500 })
    }

    @Test("rolling: 50 rounded hills of 4 m in 2 h, true ascent and descent 200 m")
    func rolling() throws {
        let profile = Scenario.named(.rolling, seed: 1).profile
        let knots = profile.knots
        var ascent = 0.0, descent = 0.0, summits = 0
        for (a, b) in zip(knots, knots.dropFirst()) {
            if b.altitude > a.altitude { ascent += b.altitude - a.altitude } else { descent += a.altitude - b.altitude }
        }
        for (a, (b, c)) in zip(knots, zip(knots.dropFirst(), knots.dropFirst(2)))
        where b.altitude > a.altitude && b.altitude > c.altitude {
            summits += 1
            #expect(abs(b.altitude - 304) < 1e-9)
        }
        #expect(summits == 50)
        #expect(abs(ascent - 200) < 1e-9 && abs(descent - 200) < 1e-9)
        #expect(abs((knots.last?.time ?? 0) - 7_200) < 1e-9)
        // Rounded: the steepest piece climbs at π/60 · 2 m/s ≈ 0.10 m/s, the first and last pieces at under 0.03 m/s.
        let speeds = zip(knots, knots.dropFirst()).map { abs($1.altitude - $0.altitude) / ($1.time - $0.time) }
        #expect((speeds.max() ?? 0) < 0.105 && (speeds.first ?? 1) < 0.03)
    }
}
