import Altimetry
import Simulation
import Testing

@Suite("FrontDetector")
struct FrontDetectorTests {
    static func fronts(_ name: ScenarioName, seed: UInt64) throws -> [WeatherFront] {
        var filter = try AltitudeFilter()
        for r in try Scenario.named(name, seed: seed).simulate().readings {
            _ = try filter.process(AltitudeReading(time: r.time, pressure: r.pressure, gpsAltitude: r.gpsAltitude))
        }
        return filter.fronts
    }

    /// GIVEN a 3 hPa drop between 2,400 s and 4,800 s amid ordinary random-walk weather, THEN a falling front is
    /// reported over that stretch in most runs. A 3 hPa, 40-minute front is under 3 sigmas of ordinary weather
    /// change plus the QNH estimates' own uncertainty, so detection is a rate, measured here over 12 seeds.
    @Test("The 3 hPa front is found in most runs, with its time and roughly its size")
    func front() throws {
        var sizes: [Double] = []
        for seed in 1...12 as ClosedRange<UInt64> {
            let fronts = try Self.fronts(.front, seed: seed)
            if let f = fronts.first(where: { $0.sizeHectopascals < 0 && $0.startTime < 4_800 && $0.endTime > 2_400 }) {
                #expect(f.startTime >= 600 && f.startTime <= 4_200, "seed \(seed): \(f)")
                sizes.append(f.sizeHectopascals)
            }
        }
        // Measured: 11 of 12 found, median size -3.3 hPa (range -5.7 to -2.8).
        #expect(sizes.count >= 9, "found \(sizes.count) of 12")
        let median = sizes.sorted()[sizes.count / 2]
        #expect((-4.5 ... -2.0).contains(median), "median size \(median) hPa of \(sizes)")
    }

    @Test("Ordinary random-walk weather raises no front in most hours", arguments: [ScenarioName.static, .hike])
    func noFalseFronts(name: ScenarioName) throws {
        var hours = 0.0, fronts = 0
        for seed in 1...6 as ClosedRange<UInt64> {
            fronts += try Self.fronts(name, seed: seed).count
            hours += name.defaultDuration / 3_600
        }
        // 2.5 sigma over 40-minute windows: false alarms are rare but not impossible; allow one per 6 h.
        #expect(Double(fronts) <= hours / 6, "\(fronts) fronts in \(hours) h")
    }

    @Test("Fronts never overlap and are reported in time order")
    func ordered() throws {
        var detector = FrontDetector(weatherNoiseDensity: 1.0 / 3_600)
        // A staircase of fast falls: 5 hPa in 20 min, 20 min flat, repeated.
        var qnh = 1_013.0
        for t in stride(from: 0.0, through: 4 * 3_600, by: 10) {
            if Int(t / 1_200) % 2 == 1 { qnh -= 5.0 / 120 }
            detector.observe(time: t, seaLevelPressure: qnh, standardDeviation: 0.3)
        }
        #expect(!detector.fronts.isEmpty)
        for (a, b) in zip(detector.fronts, detector.fronts.dropFirst()) { #expect(a.endTime <= b.startTime) }
    }
}
