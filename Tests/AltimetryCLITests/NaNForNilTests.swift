import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

@Suite("NaNForNil")
struct NaNForNilTests {
    @Test("A reading reads back as stored, none as nil, and equality is the optionals'")
    func roundTrip() {
        var row = InputRow(line: 3, time: 1, pressure: 1_000.5)
        #expect(row.pressure == 1_000.5 && row.gpsAltitude == nil && row.latitude == nil)
        row.pressure = nil
        row.gpsAltitude = -12.25
        #expect(row.pressure == nil && row.gpsAltitude == -12.25)
        #expect(row == InputRow(line: 3, time: 1, gpsAltitude: -12.25))
        #expect(row != InputRow(line: 3, time: 1, gpsAltitude: -12.5))
    }

    /// The point of the encoding: seven optional readings at 8 bytes each, not 16.
    @Test("An InputRow takes 96 bytes in an array")
    func size() {
        #expect(MemoryLayout<InputRow>.stride == 96)
    }
}
