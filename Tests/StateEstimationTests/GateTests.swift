import Foundation
import StateEstimation
import Testing

@Suite("Gates")
struct GateTests {
    @Test("Gates round-trip through JSON, including the infinite threshold of Gate.off")
    func codable() throws {
        for gate in [
            Gate.off, try .mahalanobis(5, action: .inflate), try .chiSquare(probability: 0.99, degreesOfFreedom: 3),
        ] {
            let decoded = try JSONDecoder().decode(Gate.self, from: JSONEncoder().encode(gate))
            #expect(decoded == gate)
        }
        #expect(throws: DecodingError.self) {
            _ = try JSONDecoder().decode(Gate.self, from: Data(#"{"threshold": -1, "action": "reject"}"#.utf8))
        }
    }
}
