import Foundation
import Testing

@testable import Simulation

@Suite("Scenario")
struct ScenarioTests {
    @Test("Every catalogue scenario is valid")
    func catalogueValid() throws {
        for name in ScenarioName.allCases { try Scenario.named(name).validate() }
    }

    @Test("Invalid parameters are typed errors naming the parameter")
    func invalid() {
        var scenario = Scenario.named(.static, duration: -1)
        #expect(
            throws: ScenarioError.invalidParameter(
                name: "duration", value: -1,
                expectation: "a positive, finite number of seconds")
        ) {
            try scenario.simulate()
        }
        scenario = Scenario.named(.static)
        scenario.gps.clock.jitter = 1
        #expect { try scenario.validate() } throws: { error in
            guard case ScenarioError.invalidParameter(let name, _, _) = error else { return false }
            return name == "gps jitter"
        }
        scenario = Scenario.named(.static)
        scenario.barometer.clock.rate = 0
        #expect { try scenario.validate() } throws: { error in
            guard case ScenarioError.invalidParameter(let name, _, _) = error else { return false }
            return name == "barometer rate"
        }
    }

    @Test("Profiles outside the troposphere and columns below 0 K are refused")
    func physicalLimits() {
        var scenario = Scenario.named(.static)
        scenario.profile = AltitudeProfile(startAltitude: 10_000, segments: [.move(meters: 2_000, verticalSpeed: 1)])
        #expect(throws: ScenarioError.altitudeOutOfRange(12_000)) { try scenario.validate() }
        scenario = Scenario.named(.static)
        scenario.air = AirColumn(temperatureOffset: -300)
        #expect(throws: ScenarioError.temperatureNotPositive(altitude: 250, temperature: 288.15 - 300 - 0.0065 * 250)) {
            try scenario.validate()
        }
    }

    @Test("A scenario survives a JSON round trip and simulates identically after it")
    func codable() throws {
        let scenario = Scenario.named(.canyon, seed: 12, duration: 900)
        let decoded = try JSONDecoder().decode(Scenario.self, from: JSONEncoder().encode(scenario))
        #expect(decoded == scenario)
        #expect(try decoded.simulate() == scenario.simulate())
    }
}
