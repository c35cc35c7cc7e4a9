import Altimetry
import Foundation
import StateEstimation

extension Scenario {
    /// A scenario from the catalogue.
    ///
    /// Common to all unless stated: barometer at 1 Hz with delays up to 20 % of an interval and σ_p =
    /// 0.012 hPa; GPS at 1 Hz with delays up to 10 %, σ_e = 10 m, τ = 60 s, σ_w = 1 m, no reported accuracy;
    /// standard air (ISA temperature, 0.0065 K/m). The outdoor weather is `WeatherModel.outdoor`: a trend drawn
    /// per seed (σ 1 hPa/h), slow swells and small gusts, smooth over minutes as a real barograph is. Each outdoor scenario starts from a non-standard QNH, as
    /// real days do, within the fusion model's prior of ±10 hPa.
    ///
    /// - `building`: the seed's visit (`BuildingVisit.seedPlan` from a lobby at 0 m: 2 min standing, 3
    ///   floors up the stairs at 0.25 m/s, 20 min of work, elevator 4 floors down at 2 m/s, 5 min standing;
    ///   1,662 s), weather trend −1 hPa/h from the standard 1013.25 hPa, no random walk.
    /// - `static`: 3,600 s standing at 250 m; b₀ = +4 hPa, random walk the outdoor weather.
    /// - `hike`: 21,600 s (6 h) from 800 m to 2,400 m and back: up at 0.15 m/s, down at 0.25 m/s, a 10-min
    ///   rest every 400 m each way and 15 min at the summit (the plan takes 21,567 s, then the hiker stands);
    ///   b₀ = −6 hPa, the outdoor weather.
    /// - `front`: 7,200 s (2 h) walk from 400 m up 300 m at 0.08 m/s and back at 0.125 m/s, 5-min rests
    ///   every 150 m, 7.5 min at the top; b₀ = +5 hPa, the outdoor weather without its per-seed trend (the front is
    ///   the day's tendency), and a front lowering the
    ///   sea-level pressure by 3 hPa from t = 2,400 s to 4,800 s (40 min, raised-cosine ramp).
    /// - `canyon`: 21,600 s (6 h), a rim-to-river day: from the rim at 2,100 m down 1,400 m at 0.25 m/s with a
    ///   10-min rest every 350 m, 30 min at the river, back up at 0.15 m/s with the same rests (20,333 s), then
    ///   standing at the rim; b₀ = −3 hPa, the outdoor weather; no GPS fixes from t = 7,400 s to 8,600 s (20 min
    ///   at the bottom, where the walls hide the sky), and 30 fixes after the first minute raised by +40 to +80 m
    ///   (uniform).
    /// - `cold`: 7,200 s walk around 3,000 m (from 2,850 m up 300 m at 0.075 m/s, 20 min at 3,150 m, down
    ///   at 0.15 m/s) in air 20 K colder than standard at every height (248.65 K at 3,000 m instead of
    ///   268.65 K); b₀ = +8 hPa, the outdoor weather; every barometer row carries a temperature reading
    ///   (no bias, 0.2 K noise). A filter assuming standard air reads heights about 7 % too high relative
    ///   to sea level.
    /// - `flatWalk`: 3,600 s walking on the flat at 500 m; b₀ = +2 hPa, the outdoor weather. True ascent 0.
    /// - `rolling`: 7,200 s of rolling terrain from 300 m: 50 rounded hills of 4 m, each 60 s up and 60 s down
    ///   along a half cosine (in 10-s straight pieces), then 24 s on the flat; b₀ = −2 hPa, the outdoor weather.
    ///   True ascent 200 m.
    /// - `seedCalibration`: the seed's static setting, 600 s standing at 250 m, no weather, barometer and
    ///   GPS both at exactly 1 Hz (no jitter, so rows carry both sensors), GPS σ_e = 10 m, τ = 60 s,
    ///   σ_w = 1 m. The GLS bound for the mean GPS error is 4.09 m here (4.085 m without the white noise).
    ///
    /// - Parameters:
    ///   - name: which scenario.
    ///   - seed: fixes every random draw (1 by default).
    ///   - duration: overrides the default length, in seconds (`ScenarioName.defaultDuration`); the profile
    ///     is cut short, or held at its last altitude.
    public static func named(_ name: ScenarioName, seed: UInt64 = 1, duration: Seconds? = nil) -> Scenario {
        let length = duration ?? name.defaultDuration
        switch name {
        case .building:
            return Scenario(
                name: name.rawValue, seed: seed, duration: length,
                profile: AltitudeProfile(startAltitude: 0, segments: [.buildingVisit()]),
                weather: WeatherModel(trendPerHour: -1))
        case .static:
            return Scenario(
                name: name.rawValue, seed: seed, duration: length,
                profile: AltitudeProfile(startAltitude: 250),
                weather: WeatherModel.outdoor(initialOffset: 4))
        case .hike:
            let plan = HikePlan(
                climb: 1_600, ascentSpeed: 0.15, descentSpeed: 0.25, restInterval: 400,
                restDuration: 600, summitRest: 900)
            return Scenario(
                name: name.rawValue, seed: seed, duration: length,
                profile: AltitudeProfile(startAltitude: 800, segments: [.hike(plan)]),
                weather: WeatherModel.outdoor(initialOffset: -6))
        case .front:
            let plan = HikePlan(
                climb: 300, ascentSpeed: 0.08, descentSpeed: 0.125, restInterval: 150,
                restDuration: 300, summitRest: 450)
            let front = PressureFront(start: 2_400, duration: 2_400, change: -3)
            // The front is the day's tendency: no per-seed trend on top of it.
            var weather = WeatherModel.outdoor(initialOffset: 5, fronts: [front])
            weather.randomTrendStandardDeviation = 0
            return Scenario(
                name: name.rawValue, seed: seed, duration: length,
                profile: AltitudeProfile(startAltitude: 400, segments: [.hike(plan)]), weather: weather)
        case .canyon:
            // Rim to river and back: down 1,400 m with rests, half an hour at the river, up again.
            var segments: [ProfileSegment] = []
            for leg in 0..<4 {
                segments.append(.move(meters: -350, verticalSpeed: 0.25))
                if leg < 3 { segments.append(.stand(seconds: 600)) }
            }
            segments.append(.stand(seconds: 1_800))
            for leg in 0..<4 {
                segments.append(.move(meters: 350, verticalSpeed: 0.15))
                if leg < 3 { segments.append(.stand(seconds: 600)) }
            }
            var gps = GPSModel()
            gps.outages = [GPSOutage(start: 7_400, duration: 1_200)]
            gps.outliers = MultipathOutliers(count: 30, minimumOffset: 40, maximumOffset: 80, notBefore: 60)
            return Scenario(
                name: name.rawValue, seed: seed, duration: length,
                profile: AltitudeProfile(startAltitude: 2_100, segments: segments),
                weather: WeatherModel.outdoor(initialOffset: -3), gps: gps)
        case .cold:
            let plan = HikePlan(
                climb: 300, ascentSpeed: 0.075, descentSpeed: 0.15, restInterval: 300,
                restDuration: 0, summitRest: 1_200)
            return Scenario(
                name: name.rawValue, seed: seed, duration: length,
                profile: AltitudeProfile(startAltitude: 2_850, segments: [.hike(plan)]),
                weather: WeatherModel.outdoor(initialOffset: 8),
                air: AirColumn(temperatureOffset: -20),
                barometer: BarometerModel(temperatureSensor: TemperatureSensor()))
        case .flatWalk:
            return Scenario(
                name: name.rawValue, seed: seed, duration: length, profile: AltitudeProfile(startAltitude: 500),
                weather: WeatherModel.outdoor(initialOffset: 2))
        case .rolling:
            var segments: [ProfileSegment] = []
            for _ in 0..<50 {
                for direction in [1.0, -1.0] {
                    // A half cosine of 4 m over 60 s, h = 2 (1 − cos(π t / 60)), in six straight pieces of 10 s.
                    for piece in 0..<6 {
                        let rise = 2 * (cos(Double.pi * Double(piece) / 6) - cos(Double.pi * Double(piece + 1) / 6))
                        segments.append(.move(meters: direction * rise, verticalSpeed: rise / 10))
                    }
                }
                segments.append(.stand(seconds: 24))
            }
            return Scenario(
                name: name.rawValue, seed: seed, duration: length,
                profile: AltitudeProfile(startAltitude: 300, segments: segments),
                weather: WeatherModel.outdoor(initialOffset: -2))
        case .seedCalibration:
            return Scenario(
                name: name.rawValue, seed: seed, duration: length,
                profile: AltitudeProfile(startAltitude: 250),
                barometer: BarometerModel(clock: SampleClock(rate: 1)),
                gps: GPSModel(clock: SampleClock(rate: 1)))
        }
    }
}
