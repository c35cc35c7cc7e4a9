import Testing

@testable import Simulation

@Suite("GPSOutage")
struct GPSOutageTests {
    @Test("An outage covers [start, end)")
    func interval() {
        let outage = GPSOutage(start: 3_000, duration: 1_200)
        #expect(outage.end == 4_200)
        #expect(!outage.contains(2_999.999))
        #expect(outage.contains(3_000) && outage.contains(4_199.999))
        #expect(!outage.contains(4_200))
    }
}
