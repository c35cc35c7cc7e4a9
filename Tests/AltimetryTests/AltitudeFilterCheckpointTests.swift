import Foundation
import Simulation
import Testing

@testable import Altimetry

/// A saved state is checked before use: every part of it, down to the receiver learner's arrays.
@Suite("AltitudeFilter checkpoint validation")
struct AltitudeFilterCheckpointTests {
    /// A learner's state after twenty minutes of the simulated hike, as JSON.
    static func savedLearnerState() throws -> [String: Any] {
        var filter = try AltitudeFilter(parameters: .adaptive)
        for r in try Scenario.named(.hike, seed: 3, duration: 1_200).simulate().readings {
            _ = try filter.process(AltitudeReading(time: r.time, pressure: r.pressure, gpsAltitude: r.gpsAltitude))
        }
        let data = try JSONEncoder().encode(filter.checkpoint)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func restore(_ object: [String: Any]) throws -> AltitudeFilter {
        let data = try JSONSerialization.data(withJSONObject: object)
        return try AltitudeFilter(restoring: JSONDecoder().decode(AltitudeFilterCheckpoint.self, from: data))
    }

    @Test(
        "A learner whose arrays are short or long, or whose grid is another, is refused naming the field",
        arguments: ["mean-short", "covariance-long", "covariance-short", "grid", "hypotheses-short", "current"])
    func corruptLearnerRefused(corruption: String) throws {
        var object = try Self.savedLearnerState()
        _ = try Self.restore(object)  // the uncorrupted state restores
        var learner = try #require(object["learner"] as? [String: Any])
        var hypotheses = try #require(learner["hypotheses"] as? [[String: Any]])
        switch corruption {
        case "mean-short": hypotheses[3]["mean"] = [0.0, 1, 2]
        case "covariance-long": hypotheses[3]["covariance"] = [Double](repeating: 1, count: 17)
        case "covariance-short": hypotheses[3]["covariance"] = [Double](repeating: 0, count: 15)
        case "grid": hypotheses[3]["spread"] = 7.0
        case "hypotheses-short": hypotheses.removeLast()
        default: learner["current"] = 999
        }
        learner["hypotheses"] = hypotheses
        object["learner"] = learner
        #expect {
            _ = try Self.restore(object)
        } throws: { error in
            guard case AltitudeModelError.invalidParameter(let name, _, _) = error else { return false }
            return name.contains("learner")
        }
    }
}
