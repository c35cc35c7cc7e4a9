import Testing

@testable import Simulation

@Suite("WeatherModel")
struct WeatherModelTests {
    @Test("The deterministic offset adds the initial offset, the trend and the fronts")
    func deterministic() {
        let weather = WeatherModel(
            initialOffset: 2, trendPerHour: -1, randomWalkVariance: 1,
            fronts: [
                PressureFront(start: 0, duration: 100, change: -3),
                PressureFront(start: 7_000, duration: 10, change: 1),
            ])
        #expect(weather.deterministicOffset(at: 0) == 2)
        #expect(abs(weather.deterministicOffset(at: 3_600) - (2 - 1 - 3)) < 1e-12)
        #expect(abs(weather.deterministicOffset(at: 7_200) - (2 - 2 - 3 + 1)) < 1e-12)
        #expect(WeatherModel.calm.deterministicOffset(at: 12_345) == 0)
    }
}
