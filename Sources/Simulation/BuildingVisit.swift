import Altimetry
import Foundation
import Randomness

/// The seed's building visit: a person moving between floors, sampled once per second by a barometer
/// that also sees the weather.
///
/// The default plan is the seed's: 2 minutes in the lobby, 3 floors up the stairs at 0.25 m/s, 20 minutes
/// of work, an elevator 4 floors down to the basement at 2 m/s, 5 minutes standing; 1,662 s in all.
/// Floors are 3 m apart. The barometer has 0.012 hPa of white noise (about 0.1 m) and the weather lowers
/// the sea-level pressure at a steady 1 hPa per hour. The relative altitude is what a phone reports: the
/// hypsometric height from the first-instant standard pressure to the reading, at 15 °C.
public struct BuildingVisit: Sendable, Equatable {
    /// One stretch of the plan: a duration and a constant vertical speed.
    public struct Leg: Sendable, Equatable, Codable {
        /// Duration in whole seconds.
        public var seconds: Int
        /// Vertical speed in m/s, positive upwards.
        public var verticalSpeed: Double

        /// A leg of `seconds` seconds at `verticalSpeed` m/s (positive upwards).
        ///
        /// - Parameters:
        ///   - seconds: the leg's length, in whole seconds.
        ///   - verticalSpeed: the vertical speed during the leg, in m/s (positive upwards, zero to stand).
        public init(seconds: Int, verticalSpeed: Double) {
            self.seconds = seconds
            self.verticalSpeed = verticalSpeed
        }
    }

    /// A true change of floor: when the move starts and how many floors it spans (negative downwards).
    public struct FloorChange: Sendable, Equatable, Codable {
        /// A change starting at `time` (seconds) of `floors` floors (negative downwards).
        ///
        /// - Parameters:
        ///   - time: the start of the change, in whole seconds since the start of the visit.
        ///   - floors: the floors changed (negative downwards).
        public init(time: Int, floors: Int) {
            self.time = time
            self.floors = floors
        }

        /// Start of the move, in seconds since the visit began.
        public var time: Int
        /// Floors moved, rounded to whole floors.
        public var floors: Int
    }

    /// The seed's plan: stand, climb 3 floors by stairs, work, elevator down 4, stand.
    public static let seedPlan: [Leg] = [
        Leg(seconds: 120, verticalSpeed: 0), Leg(seconds: 36, verticalSpeed: 0.25),
        Leg(seconds: 1_200, verticalSpeed: 0), Leg(seconds: 6, verticalSpeed: -2.0),
        Leg(seconds: 300, verticalSpeed: 0),
    ]

    /// True height above the lobby at each second, in metres.
    public var trueHeight: [Meters] = []
    /// The barometer's reading at each second, in hPa.
    public var pressure: [Hectopascals] = []
    /// The barometer's relative altitude since the start at each second, in metres (includes weather drift).
    public var relativeAltitude: [Meters] = []
    /// The true floor changes.
    public var floorChanges: [FloorChange] = []

    /// Duration of the visit, in seconds (one sample per second).
    public var duration: Int { trueHeight.count }

    /// The apparent height the weather and noise added by the end, relative − true, in metres.
    public var finalDrift: Meters { (relativeAltitude.last ?? 0) - (trueHeight.last ?? 0) }

    /// Simulates a visit.
    ///
    /// - Parameters:
    ///   - seed: fixes the barometer noise.
    ///   - plan: the legs, in order.
    ///   - weatherTrend: change of sea-level pressure, in hPa per hour (the seed's −1 lowers it, an apparent climb).
    ///   - barometerNoise: standard deviation of the barometer's white noise, in hPa.
    ///   - floorHeight: metres between floors, used to express the true floor changes.
    public static func simulate(
        seed: UInt64, plan: [Leg] = seedPlan, weatherTrend: Double = -1,
        barometerNoise: Hectopascals = 0.012, floorHeight: Meters = 3
    ) -> BuildingVisit {
        var random = SeededGenerator(seed: seed)
        var visit = BuildingVisit()
        let p0 = StandardAtmosphere.seaLevelPressure
        let n = StandardAtmosphere.pressureExponent
        let scaleHeight =
            StandardAtmosphere.gasConstant * StandardAtmosphere.seaLevelTemperature
            / (StandardAtmosphere.molarMass * StandardAtmosphere.gravity)
        var height = 0.0
        var t = 0
        for leg in plan {
            if leg.verticalSpeed != 0 {
                let floors = Int((Double(leg.seconds) * leg.verticalSpeed / floorHeight).rounded())
                visit.floorChanges.append(FloorChange(time: t, floors: floors))
            }
            for _ in 0..<max(0, leg.seconds) {
                height += leg.verticalSpeed
                let weather = weatherTrend * Double(t) / 3_600
                // Barometric formula written out so the simulation cannot throw; heights stay near the ground.
                let standard =
                    p0 * pow(1 - StandardAtmosphere.lapseRate * height / StandardAtmosphere.seaLevelTemperature, n)
                let reading = standard + weather + barometerNoise * random.gaussian()
                visit.trueHeight.append(height)
                visit.pressure.append(reading)
                visit.relativeAltitude.append(scaleHeight * log(p0 / reading))
                t += 1
            }
        }
        return visit
    }
}
