import Altimetry
import Foundation
import Randomness
import Testing

@testable import Simulation

@Suite("Scenario simulation")
struct ScenarioSimulationTests {
    /// A long still recording for error statistics: calm weather, standard air, at 250 m.
    static func stillScenario(duration: Double, barometerRate: Double, gpsRate: Double, seed: UInt64) -> Scenario {
        Scenario(
            name: "still", seed: seed, duration: duration, profile: AltitudeProfile(startAltitude: 250),
            barometer: BarometerModel(clock: SampleClock(rate: barometerRate, jitter: 0.2)),
            gps: GPSModel(clock: SampleClock(rate: gpsRate, jitter: 0.1)))
    }

    @Test("The same seed gives identical rows; another seed different rows", arguments: ScenarioName.allCases)
    func reproducible(name: ScenarioName) throws {
        let a = try Scenario.named(name, seed: 7).simulate()
        let b = try Scenario.named(name, seed: 7).simulate()
        let c = try Scenario.named(name, seed: 8).simulate()
        #expect(a == b, "\(name)")
        #expect(a.readings != c.readings, "\(name)")
    }

    @Test("The first row of seed-calibration, seed 1, matches an independent reconstruction of its random streams")
    func pinned() throws {
        let recording = try Scenario.named(.seedCalibration, seed: 1).simulate()
        let first = try #require(recording.readings.first)
        #expect(first.time == 0 && first.trueAltitude == 250)
        let pressure = try #require(first.pressure), gps = try #require(first.gpsAltitude)
        // Reconstruction from the documented stream layout: SplitMix64(seed) hands out one seed per source, in
        // order barometer clock, GPS clock, outliers, weather, GPS correlated error, GPS white noise,
        // barometer noise, ... At t = 0 without jitter: pressure = p_ISA(250 m) + 0.012 N (7th stream);
        // GPS = 250 + 10 N (5th stream, stationary start; the zero step to t = 0 keeps it) + 1 N (6th stream).
        var seeds = SplitMix64(state: 1)
        let streamSeeds = (0..<7).map { _ in seeds.next() }
        var barometerNoise = SeededGenerator(seed: streamSeeds[6])
        var correlated = SeededGenerator(seed: streamSeeds[4]), white = SeededGenerator(seed: streamSeeds[5])
        let standard = try StandardAtmosphere.pressure(atAltitude: 250)
        #expect(abs(pressure - (standard + 0.012 * barometerNoise.gaussian())) < 1e-9)
        #expect(abs(gps - (250 + 10 * correlated.gaussian() + white.gaussian())) < 1e-9)
        // Golden values from an independent Python implementation of SplitMix64, xoshiro256** and the
        // Box-Muller draw (the script below). libm's log, cos and pow may differ in the last bit between
        // platforms, hence a relative tolerance of 1e-12 rather than bit equality.
        #expect(abs(pressure / 983.5756450427973 - 1) < 1e-12, "pressure \(pressure)")
        #expect(abs(gps / 256.1480539062317 - 1) < 1e-12, "gps \(gps)")
    }

    // The independent reconstruction, run with python3:
    // import math
    // M=(1<<64)-1
    // class SM:
    //     def __init__(s,x): s.s=x
    //     def next(s):
    //         s.s=(s.s+0x9E3779B97F4A7C15)&M; z=s.s
    //         z=((z^(z>>30))*0xBF58476D1CE4E5B9)&M; z=((z^(z>>27))*0x94D049BB133111EB)&M
    //         return z^(z>>31)
    // def rotl(x,k): return ((x<<k)|(x>>(64-k)))&M
    // class X:
    //     def __init__(s,seed):
    //         sm=SM(seed); s.st=[sm.next() for _ in range(4)]
    //     def next(s):
    //         st=s.st; r=(rotl((st[1]*5)&M,7)*9)&M; t=(st[1]<<17)&M
    //         st[2]^=st[0]; st[3]^=st[1]; st[1]^=st[2]; st[0]^=st[3]; st[2]^=t; st[3]=rotl(st[3],45); return r
    //     def u(s): return (s.next()>>11)*2.0**-53
    //     def g(s):
    //         u1=1-s.u(); u2=s.u(); return math.sqrt(-2*math.log(u1))*math.cos(2*math.pi*u2)
    // sm=SM(1); seeds=[sm.next() for _ in range(10)]
    // n=9.80665*0.0289644/(8.314462618*0.0065)
    // p=1013.25*(1-0.0065*250/288.15)**n
    // print(repr(p+0.012*X(seeds[6]).g()))
    // e=X(seeds[4]); e0=10*e.g()
    // print(repr(250+e0+1*X(seeds[5]).g()))

    @Test(
        "Rows are time-ordered, inside [0, duration), strictly increasing per sensor", arguments: ScenarioName.allCases)
    func ordering(name: ScenarioName) throws {
        let recording = try Scenario.named(name, seed: 3).simulate()
        let times = recording.readings.map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "\(name): one row per instant")
        #expect(times.allSatisfy { $0 >= 0 && $0 < recording.scenario.duration })
        #expect(recording.readings.allSatisfy { $0.pressure != nil || $0.gpsAltitude != nil })
        #expect(recording.readings.count == recording.truth.count)
        #expect(zip(recording.readings, recording.truth).allSatisfy { $0.trueAltitude == $1.altitude })
    }

    @Test("The two sensors' times are independent: no shared instants, uncorrelated delays")
    func independentClocks() throws {
        let recording = try Scenario.named(.hike, seed: 4).simulate()
        let barometer = recording.readings.filter { $0.pressure != nil }.map(\.time)
        let gps = recording.readings.filter { $0.gpsAltitude != nil }.map(\.time)
        #expect(!recording.readings.contains { $0.pressure != nil && $0.gpsAltitude != nil })
        // Delays from the 1 Hz grid, paired by index: independent draws have correlation ~ N(0, 1/n);
        // n = 21,600 gives a standard error of 0.0068, so 0.05 is over 7 of them.
        let n = min(barometer.count, gps.count)
        let x = (0..<n).map { barometer[$0] - Double($0) }, y = (0..<n).map { gps[$0] - Double($0) }
        #expect(correlation(x, y) < 0.05)
        #expect(correlation(x, y) > -0.05)
    }

    @Test("Changing one sensor leaves the other's readings bit-identical (one random stream per source, bridged truth)")
    func independentStreams() throws {
        let scenario = Scenario.named(.front, seed: 5)
        let reference = try scenario.simulate()
        var barometerChanged = scenario
        barometerChanged.barometer.noiseStandardDeviation = 0.5
        barometerChanged.barometer.clock = SampleClock(rate: 4, jitter: 0.5)
        var gpsChanged = scenario
        gpsChanged.gps.clock = SampleClock(rate: 5, jitter: 0.3, phase: 0.2)
        gpsChanged.gps.whiteNoiseStandardDeviation = 3
        let fixes = { (r: SimulatedRecording) in r.readings.filter { $0.gpsAltitude != nil } }
        let pressures = { (r: SimulatedRecording) in r.readings.filter { $0.pressure != nil } }
        #expect(fixes(try barometerChanged.simulate()) == fixes(reference))
        #expect(pressures(try gpsChanged.simulate()) == pressures(reference))
        #expect(fixes(try gpsChanged.simulate()) != fixes(reference))
    }

    @Test(
        "The truth explains every reading: GPS = truth + error, error = correlated + white + outlier, pressure from the column"
    )
    func truthConsistency() throws {
        let recording = try Scenario.named(.canyon, seed: 6).simulate()
        let scenario = recording.scenario
        for (reading, truth) in zip(recording.readings, recording.truth) {
            let expectedPressure = scenario.air.pressure(
                atAltitude: truth.altitude, seaLevelPressure: truth.seaLevelPressure)
            #expect(truth.pressure == expectedPressure)
            #expect(truth.seaLevelPressure == 1_013.25 + truth.weatherOffset)
            if let gps = reading.gpsAltitude {
                let error = try #require(truth.gpsError)
                #expect(abs(gps - truth.altitude - error) < 1e-9)
                // The white part is what remains; at σ_w = 1 m it stays within 6 m (6 sigma).
                #expect(abs(error - truth.gpsCorrelatedError - (truth.outlierOffset ?? 0)) < 6)
            } else {
                #expect(truth.gpsError == nil && !truth.isOutlier)
            }
        }
    }

    @Test("Barometer noise: std of reading − true pressure within 2 % of 0.012 hPa over 10^5 readings")
    func barometerNoise() throws {
        let recording = try Self.stillScenario(duration: 100_000, barometerRate: 1, gpsRate: 0.01, seed: 31).simulate()
        let residuals = zip(recording.readings, recording.truth).compactMap { r, t in r.pressure.map { $0 - t.pressure }
        }
        #expect(residuals.count > 99_000)
        let (mean, std) = moments(residuals)
        // White noise: the relative standard error of the std is 1/√(2n) = 0.22 %, of the mean σ/√n.
        #expect(abs(std / 0.012 - 1) < 0.02, "std \(std)")
        #expect(abs(mean) < 5 * 0.012 / Double(residuals.count).squareRoot(), "mean \(mean)")
    }

    @Test("GPS error over a long still run: correlated part std 10 m and lag correlation exp(-dt/60 s); white part 1 m")
    func gpsErrorStatistics() throws {
        let scenario = Self.stillScenario(duration: 400_000, barometerRate: 0.01, gpsRate: 1, seed: 32)
        let recording = try scenario.simulate()
        var times: [Double] = [], correlated: [Double] = [], white: [Double] = []
        for (reading, truth) in zip(recording.readings, recording.truth) where reading.gpsAltitude != nil {
            times.append(reading.time)
            correlated.append(truth.gpsCorrelatedError)
            white.append(try #require(truth.gpsError) - truth.gpsCorrelatedError)
        }
        let sigma = 10.0, tau = 60.0
        // Correlated part: an AR(1) path of n ≈ 4e5 fixes at φ ≈ 0.983 gives the sample std a relative
        // standard error √((1 + φ²) / (2 n (1 − φ²))) ≈ 0.9 %; 5 % is over 5 of them.
        #expect(abs(moments(correlated).std / sigma - 1) < 0.05, "std \(moments(correlated).std)")
        // Lag-1 with the actual irregular steps: regress e_{j+1} on φ_j e_j (slope 1, standard error
        // √((1 − φ²)/(n φ²)) ≈ 0.03 %), and the standardised innovations have variance 1 (standard error 0.22 %).
        var cross = 0.0, squares = 0.0, innovations = 0.0, lagProducts = 0.0, lagSquares = 0.0, meanPhi = 0.0
        for j in 0..<(times.count - 1) {
            let phi = exp(-(times[j + 1] - times[j]) / tau)
            cross += phi * correlated[j] * correlated[j + 1]
            squares += phi * correlated[j] * phi * correlated[j]
            let w = (correlated[j + 1] - phi * correlated[j]) / (sigma * (1 - phi * phi).squareRoot())
            innovations += w * w
            lagProducts += correlated[j] * correlated[j + 1]
            lagSquares += correlated[j] * correlated[j]
            meanPhi += phi
        }
        let pairs = Double(times.count - 1)
        #expect(abs(cross / squares - 1) < 0.005, "slope \(cross / squares)")
        #expect(abs(innovations / pairs - 1) < 0.02, "innovation variance \(innovations / pairs)")
        // The plain lag-1 autocorrelation of the fixes against the mean φ of the steps (standard error ~0.03 %).
        #expect(abs((lagProducts / lagSquares) / (meanPhi / pairs) - 1) < 0.03)
        // White part: independent N(0, 1 m²); relative standard error of its std 0.11 %.
        #expect(abs(moments(white).std - 1) < 0.02, "white std \(moments(white).std)")
        #expect(abs(correlation(Array(white.dropFirst()), Array(white.dropLast()))) < 5 / pairs.squareRoot())
    }

    @Test("Weather random walk: increments over each row's step have variance q dt (within 3 %)")
    func weatherRandomWalk() throws {
        var scenario = Self.stillScenario(duration: 100_000, barometerRate: 1, gpsRate: 0.2, seed: 33)
        scenario.weather = WeatherModel(initialOffset: 2, trendPerHour: 0.5, randomWalkVariance: 1.0 / 3_600)
        let recording = try scenario.simulate()
        var previous = (time: 0.0, walk: 0.0)
        var normalised: [Double] = []
        for (reading, truth) in zip(recording.readings, recording.truth) {
            let walk = truth.weatherOffset - scenario.weather.deterministicOffset(at: reading.time)
            let dt = reading.time - previous.time
            if dt > 0 {
                normalised.append((walk - previous.walk) / (scenario.weather.randomWalkVariance * dt).squareRoot())
            }
            previous = (reading.time, walk)
        }
        // ~1.2e5 independent N(0, 1) increments: the relative standard error of their variance is √(2/n) = 0.4 %.
        let (mean, std) = moments(normalised)
        #expect(abs(std * std - 1) < 0.03, "variance \(std * std)")
        #expect(abs(mean) < 5 / Double(normalised.count).squareRoot())
    }

    @Test("Reported vertical accuracy reaches every fix and no barometer-only row")
    func reportedAccuracy() throws {
        var scenario = Scenario.named(.static, seed: 9, duration: 300)
        scenario.gps.reportedAccuracy = .modelStandardDeviation(coverageFactor: 1)
        let recording = try scenario.simulate()
        let expected = scenario.gps.errorStandardDeviation
        for reading in recording.readings {
            #expect(reading.gpsVerticalAccuracy == (reading.gpsAltitude == nil ? nil : expected))
        }
    }

    @Test("Asking for more outliers than eligible fixes is a typed error")
    func tooManyOutliers() {
        var scenario = Scenario.named(.static, seed: 1, duration: 100)
        scenario.gps.outliers = MultipathOutliers(count: 50)
        #expect(throws: ScenarioError.tooManyOutliers(requested: 50, eligibleFixes: 40)) { try scenario.simulate() }
    }
}

/// Sample mean and (population) standard deviation.
func moments(_ values: [Double]) -> (mean: Double, std: Double) {
    let n = Double(values.count)
    let mean = values.reduce(0, +) / n
    let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / n
    return (mean, variance.squareRoot())
}

/// Pearson correlation of two equally long series.
func correlation(_ x: [Double], _ y: [Double]) -> Double {
    let (mx, sx) = moments(x), (my, sy) = moments(y)
    var sum = 0.0
    for (a, b) in zip(x, y) { sum += (a - mx) * (b - my) }
    return sum / Double(x.count) / (sx * sy)
}
