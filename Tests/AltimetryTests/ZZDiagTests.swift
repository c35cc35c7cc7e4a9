import Testing
import Foundation
@testable import Altimetry
@testable import Simulation

@Test func diagFaults() throws {
    let c = ConsistencyStudy.Case(spread: 10, correlationTime: 30, weatherRate: 1.0 / 3600, profile: .still, effect: .faults)
    let rec = try ConsistencyStudy.scenario(c, seed: 1).simulate()
    var filter = try AltitudeFilter(parameters: ConsistencyStudy.parameters(for: c))
    var line = ""
    for r in rec.readings {
        let e = try filter.process(AltitudeReading(time: r.time, pressure: r.pressure, gpsAltitude: r.gpsAltitude))
        let t = r.time
        if (t > 2380 && t < 2800 && Int(t) % 20 == 0) || (t > 4780 && t < 5300 && Int(t) % 20 == 0) || Int(t) % 600 == 0 {
            line += String(format: " t%.0f err%.1f s%.1f st%@|", t, e.altitude - r.trueAltitude, e.altitudeStandardDeviation, "\(e.status)")
        }
    }
    print("DIAG", line, filter.episodes)
}
