import Randomness
import Testing

@testable import Simulation

@Suite("Weather: swells and gusts")
struct WeatherSwellsTests {
    @Test(
        "Swells: K sinusoids of amplitude rms √(2/K), periods in range; their mean square over 400 draws is rms² within 15 %"
    )
    func swells() {
        let spec = WeatherSwells(rootMeanSquare: 0.1, shortestPeriod: 1_200, longestPeriod: 10_800, count: 6)
        var random = SeededGenerator(seed: 7)
        var meanSquare = 0.0
        let draws = 400
        for _ in 0..<draws {
            let components = spec.draw(using: &random)
            #expect(components.count == 6)
            #expect(
                components.allSatisfy {
                    $0.period >= 1_200 && $0.period <= 10_800
                        && abs($0.amplitude - 0.1 * (2.0 / 6).squareRoot()) < 1e-12
                })
            // The value at a random time: phases are uniform, so its mean square over draws is rms².
            let t = 86_400 * random.uniform()
            let s = WeatherSwells.offset(at: t, components: components)
            meanSquare += s * s / Double(draws)
        }
        // s² at one time has mean rms² = 0.01 and a spread of about 0.01 (a sum of 6 sines); the mean of 400 draws has
        // a standard error of about 5 %, so 15 % is three of them.
        #expect(abs(meanSquare - 0.01) < 0.0015, "mean square \(meanSquare)")
    }

    @Test(
        "Outdoor weather is smooth: over 20 seeds its 1-minute changes are under 0.06 hPa, where a 1 hPa²/h walk's are 0.13 hPa"
    )
    func smooth() throws {
        var largest = 0.0
        for seed in 1...20 as ClosedRange<UInt64> {
            var scenario = Scenario.named(.static, seed: seed)
            scenario.barometer.noiseStandardDeviation = 0
            let truth = try scenario.simulate().truth
            let b = truth.map(\.weatherOffset)
            // Rows come about twice per second (two 1 Hz sensors); compare values 120 rows (about a minute) apart.
            for i in stride(from: 0, to: b.count - 120, by: 60) { largest = max(largest, abs(b[i + 120] - b[i])) }
        }
        // A minute of the outdoor weather: at most 3.3 hPa/h of trend (3.3 σ) = 0.055 hPa, swells < 0.01 hPa, gusts
        // of 0.01 hPa at most 0.06 between two independent values. A Wiener walk of 1/3600 hPa²/s moves 0.13 hPa
        // (one sigma) per minute.
        #expect(largest < 0.12, "largest 1-min change \(largest) hPa")
    }

    @Test("Gusts: the barometer-row values have the stationary spread σ within 5 % over 2·10⁵ rows")
    func gusts() throws {
        var scenario = Scenario(
            name: "gusts", seed: 3, duration: 100_000, profile: AltitudeProfile(startAltitude: 0),
            weather: WeatherModel(gusts: WeatherGusts(standardDeviation: 0.02, correlationTime: 20)))
        scenario.barometer.noiseStandardDeviation = 0
        let b = try scenario.simulate().truth.map(\.weatherOffset)
        let mean = b.reduce(0, +) / Double(b.count)
        let sd = (b.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(b.count)).squareRoot()
        // About 100,000 s / 20 s = 5,000 independent stretches: the sd's standard error is about 1 %.
        #expect(abs(sd - 0.02) < 0.001, "sd \(sd)")
    }

    @Test("Invalid swells and gusts are refused by name")
    func validation() {
        var scenario = Scenario.named(.static)
        scenario.weather.gusts = WeatherGusts(standardDeviation: 0.01, correlationTime: 0)
        #expect(throws: ScenarioError.self) { try scenario.validate() }
        scenario.weather.gusts = nil
        scenario.weather.swells = WeatherSwells(rootMeanSquare: 0.1, shortestPeriod: 100, longestPeriod: 50, count: 3)
        #expect(throws: ScenarioError.self) { try scenario.validate() }
        scenario.weather.swells = nil
        scenario.weather.randomTrendStandardDeviation = -1
        #expect(throws: ScenarioError.self) { try scenario.validate() }
    }
}
