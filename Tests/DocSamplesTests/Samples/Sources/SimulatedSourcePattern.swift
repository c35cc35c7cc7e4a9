import Altimetry
import Simulation

func lastBuildingEstimate() async throws -> AltitudeEstimate? {
    let source = SimulatedSource(scenario: Scenario.named(.building, seed: 3, duration: 120))
    var last: AltitudeEstimate?
    for try await estimate in source.fused(with: .adaptive) {
        last = estimate
    }
    return last
}
