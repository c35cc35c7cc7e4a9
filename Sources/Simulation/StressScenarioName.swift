import Altimetry
import Randomness
import StateEstimation

/// The scenarios that test the filter where its assumptions fail: air columns 20 K hot or cold (with their own
/// lapse rates), climbs and descents of 1,000 to 4,000 m at 0.3 to 55 m/s, a cold start, a GPS dropout during a
/// large descent, and sensor faults. `altimetry bench --stress` runs them (`StressBenchmark`).
///
/// None carries a temperature reading: the column must be learned from GPS. Weather: the outdoor scenarios'
/// smooth weather (`WeatherModel.outdoor`: a trend per seed, slow swells, small gusts) from a non-standard QNH.
public enum StressScenarioName: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    /// A hike under a column 20 K hot or cold.
    case hikeHot = "hike-hot", hikeCold = "hike-cold"
    /// A drive under a column 20 K hot or cold.
    case driveHot = "drive-hot", driveCold = "drive-cold"
    /// A paraglider flight under a column 20 K hot or cold.
    case paragliderHot = "paraglider-hot", paragliderCold = "paraglider-cold"
    /// A skydive under a column 20 K hot or cold.
    case skydiveHot = "skydive-hot", skydiveCold = "skydive-cold"
    /// A receiver's cold start: its first fixes off by tens of metres, then converging.
    case coldStart = "cold-start"
    /// A logger's cold start: a pressure and a fix every 30 s, the first fix hundreds of metres off.
    case loggerColdStart = "cold-logger"
    /// A logger's fading cold start: a pressure and a fix every 30 s, the fixes hundreds of metres off at first
    /// and converging over minutes.
    case loggerFadingStart = "fading-logger"
    /// A GPS dropout during a large descent.
    case dropout
    /// A barometer that steps, spikes or sticks.
    case barometerStep = "baro-step", barometerSpike = "baro-spike", barometerStuck = "baro-stuck"
    /// A GPS receiver whose altitude jumps.
    case gpsJump = "gps-jump"

    /// A column 20 K warmer than standard with a steeper lapse (7.5 K/km), or 20 K colder with a shallower one
    /// (5.5 K/km): neither is the filter's standard lapse plus an offset.
    public static let hotColumn = AirColumn(temperatureOffset: 20, lapseRate: 0.0075)
    /// The cold column: 20 K colder than standard, lapse rate 5.5 K/km.
    public static let coldColumn = AirColumn(temperatureOffset: -20, lapseRate: 0.0055)

    /// The time the scenario's event begins, in seconds: the landing (skydive), the first good fixes (cold start),
    /// the end of the dropout, the fault's start; nil where the whole track is the test.
    public var eventTime: Seconds? {
        switch self {
        case .skydiveHot, .skydiveCold: return 600 + 4_000.0 / 6 + 60 + 3_000.0 / 55 + 1_000.0 / 5
        case .coldStart: return 60 + 5 * 20
        case .loggerColdStart: return 630
        case .loggerFadingStart: return 600 + 4 * StressScenarioName.fadingStartTime
        case .dropout: return 1_870 + 600
        case .barometerStep, .barometerSpike, .gpsJump: return 1_800
        case .barometerStuck: return 600
        default: return nil
        }
    }

    /// The time constant of the `fading-logger` start's fade, in seconds: four of them after the first fix, at the
    /// scenario's event, the fixes are within 2 % of their first offset (at most 5.5 m).
    public static let fadingStartTime: Seconds = 150

    /// The episode the filter must report, if any.
    public var expectedEpisode: FilterEpisode.Kind? {
        switch self {
        case .barometerStep: return .barometerStep
        case .barometerSpike: return .barometerSpike
        case .barometerStuck: return .barometerStuck
        case .gpsJump: return .gpsJump
        default: return nil
        }
    }
}

extension Scenario {
    /// A stress scenario (see `StressScenarioName`):
    ///
    /// - `hike-*`: 10 min at 500 m, up 1,500 m at 0.3 m/s, 15 min at the top, down at 0.5 m/s, 10 min (10,100 s).
    /// - `drive-*`: 10 min at 300 m, up 2,000 m at 3 m/s, 20 min, down at 3 m/s, 20 min (4,400 s).
    /// - `paraglider-*`: 15 min at a 2,600 m launch, down 1,900 m at 1.2 m/s, 20 min on the ground (3,700 s).
    /// - `skydive-*`: 10 min at 500 m, a plane up 4,000 m at 6 m/s, 1 min, free fall 3,000 m at 55 m/s, canopy 1,000 m
    ///   at 5 m/s, 20 min on the ground (2,800 s; the 4 km descent ends at 1,582 s).
    /// - `cold-start`: 1 h still at 250 m; the first 60 s of fixes are 50 to 300 m off (either sign, uniform from
    ///   the seed), fading over 20 s.
    /// - `cold-logger`: 3 h still at 40 m, a pressure and a fix every 30 s (the 9.8-day Bergen logger's
    ///   cadence), the fixes from 600 s; the first fix is 50 to 300 m off (either sign, uniform from the seed), the
    ///   next ones good.
    /// - `fading-logger`: as `cold-logger`, but every fix is off by the first one's offset (50 to 300 m, either sign)
    ///   times exp(−(t − 600 s)/150 s): a receiver converging over ten minutes, as the 9.8-day Bergen logger's first
    ///   fixes do.
    /// - `dropout`: hot column; 10 min at 500 m, up 1,000 m at 1 m/s, 5 min, down 1,000 m in 540 s, 20 min; no fixes
    ///   from 1,870 s for 600 s, the whole descent (3,700 s).
    /// - `baro-step`, `baro-spike`, `gps-jump`: 5,400 s, from 1,000 m up 300 m at 0.1 m/s and back at 0.15 m/s with 10
    ///   min at the top (starting after 10 min); at 1,800 s the barometer steps by +30 hPa for good, reads +20 hPa for
    ///   10 s, or the GPS jumps by +300 m for good.
    /// - `baro-stuck`: 10 min at 1,000 m, up 300 m in 1 h, 30 min; the barometer repeats one value from 600 s for 1 h
    ///   (6,000 s).
    ///
    /// - Parameters:
    ///   - name: the stress scenario.
    ///   - seed: the seed of every random draw; 1 by default.
    public static func stress(_ name: StressScenarioName, seed: UInt64 = 1) -> Scenario {
        func make(
            _ duration: Seconds, _ start: Meters, _ segments: [ProfileSegment], air: AirColumn = .standard,
            offset: Hectopascals, gps: GPSModel = GPSModel(), barometer: BarometerModel = BarometerModel()
        ) -> Scenario {
            Scenario(
                name: name.rawValue, seed: seed, duration: duration,
                profile: AltitudeProfile(startAltitude: start, segments: segments),
                weather: .outdoor(initialOffset: offset), air: air, barometer: barometer, gps: gps)
        }
        let hot = StressScenarioName.hotColumn, cold = StressScenarioName.coldColumn
        let hike: [ProfileSegment] = [
            .stand(seconds: 600), .move(meters: 1_500, verticalSpeed: 0.3), .stand(seconds: 900),
            .move(meters: -1_500, verticalSpeed: 0.5), .stand(seconds: 600),
        ]
        let drive: [ProfileSegment] = [
            .stand(seconds: 600), .move(meters: 2_000, verticalSpeed: 3), .stand(seconds: 1_200),
            .move(meters: -2_000, verticalSpeed: 3), .stand(seconds: 1_200),
        ]
        let glide: [ProfileSegment] = [
            .stand(seconds: 900), .move(meters: -1_900, verticalSpeed: 1.2), .stand(seconds: 1_200),
        ]
        let dive: [ProfileSegment] = [
            .stand(seconds: 600), .move(meters: 4_000, verticalSpeed: 6), .stand(seconds: 60),
            .move(meters: -3_000, verticalSpeed: 55), .move(meters: -1_000, verticalSpeed: 5),
            .stand(seconds: 1_200),
        ]
        let walk: [ProfileSegment] = [
            .stand(seconds: 600), .move(meters: 300, verticalSpeed: 0.1), .stand(seconds: 600),
            .move(meters: -300, verticalSpeed: 0.15),
        ]
        switch name {
        case .hikeHot: return make(10_100, 500, hike, air: hot, offset: -4)
        case .hikeCold: return make(10_100, 500, hike, air: cold, offset: 6)
        case .driveHot: return make(4_400, 300, drive, air: hot, offset: -4)
        case .driveCold: return make(4_400, 300, drive, air: cold, offset: 6)
        case .paragliderHot: return make(3_700, 2_600, glide, air: hot, offset: -4)
        case .paragliderCold: return make(3_700, 2_600, glide, air: cold, offset: 6)
        case .skydiveHot: return make(2_800, 500, dive, air: hot, offset: -4)
        case .skydiveCold: return make(2_800, 500, dive, air: cold, offset: 6)
        case .coldStart:
            var random = SeededGenerator(seed: seed ^ 0x5eed_c01d)
            let size = 50 + 250 * random.uniform()
            var gps = GPSModel()
            gps.faults = [.coldStart(offset: random.uniform() < 0.5 ? -size : size, duration: 60, fade: 20)]
            return make(3_600, 250, [], offset: 4, gps: gps)
        case .loggerColdStart, .loggerFadingStart:
            var random = SeededGenerator(seed: seed ^ 0x1066_c01d)
            let size = 50 + 250 * random.uniform()
            var gps = GPSModel(clock: SampleClock(rate: 1.0 / 30, phase: 600))
            let offset = random.uniform() < 0.5 ? -size : size
            gps.faults = [
                name == .loggerColdStart
                    ? .coldStart(offset: offset, duration: 601, fade: 1)
                    : .coldStart(offset: offset, duration: 600, fade: StressScenarioName.fadingStartTime)
            ]
            var barometer = BarometerModel()
            barometer.clock = SampleClock(rate: 1.0 / 30)
            return make(3 * 3_600, 40, [], offset: 4, gps: gps, barometer: barometer)
        case .dropout:
            var gps = GPSModel()
            gps.outages = [GPSOutage(start: 1_870, duration: 600)]
            let segments: [ProfileSegment] = [
                .stand(seconds: 600), .move(meters: 1_000, verticalSpeed: 1), .stand(seconds: 300),
                .move(meters: -1_000, verticalSpeed: 1_000.0 / 540), .stand(seconds: 1_200),
            ]
            return make(3_700, 500, segments, air: hot, offset: -4, gps: gps)
        case .barometerStep, .barometerSpike:
            var barometer = BarometerModel()
            barometer.faults = [
                name == .barometerStep
                    ? .step(start: 1_800, change: 30) : .spike(start: 1_800, duration: 10, change: 20)
            ]
            return make(5_400, 1_000, walk, offset: 3, barometer: barometer)
        case .gpsJump:
            var gps = GPSModel()
            gps.faults = [.jump(start: 1_800, duration: .infinity, change: 300)]
            return make(5_400, 1_000, walk, offset: 3, gps: gps)
        case .barometerStuck:
            var barometer = BarometerModel()
            barometer.faults = [.stuck(start: 600, duration: 3_600)]
            return make(
                6_000, 1_000,
                [.stand(seconds: 600), .move(meters: 300, verticalSpeed: 300.0 / 3_600), .stand(seconds: 1_800)],
                offset: 3, barometer: barometer)
        }
    }
}
