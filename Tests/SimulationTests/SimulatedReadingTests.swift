import Foundation
import Testing

@testable import Simulation

@Suite("SimulatedReading")
struct SimulatedReadingTests {
    @Test("Encodes with the recording format's column names, absent values as absent keys")
    func columnNames() throws {
        let reading = SimulatedReading(
            time: 1.5, pressure: 1_000.25, gpsAltitude: 102, gpsVerticalAccuracy: 4,
            temperatureCelsius: -3, trueAltitude: 100)
        let data = try JSONEncoder().encode(reading)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Double])
        #expect(
            object == [
                "t": 1.5, "pressure_hpa": 1_000.25, "gps_alt_m": 102, "gps_vacc_m": 4,
                "temperature_c": -3, "true_alt_m": 100,
            ])
        let barometerOnly = SimulatedReading(time: 2, pressure: 999, trueAltitude: 100)
        let sparse = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(barometerOnly)) as? [String: Double])
        #expect(Set(sparse.keys) == ["t", "pressure_hpa", "true_alt_m"])
        #expect(try JSONDecoder().decode(SimulatedReading.self, from: data) == reading)
    }
}
