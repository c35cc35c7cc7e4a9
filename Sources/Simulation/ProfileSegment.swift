import Altimetry
import StateEstimation

/// One piece of a true altitude profile: what the person does for a while.
///
/// Segments are a vocabulary for building an `AltitudeProfile`; each one becomes a few straight pieces of
/// altitude against time. Vertical speeds are magnitudes in m/s; the sign of the motion comes from the
/// height change (`meters`, `floors`), positive upwards. Speeds and durations must be positive: segments are
/// written in code, so a bad one is a programmer error caught by a precondition when the profile is built.
public enum ProfileSegment: Sendable, Equatable, Codable {
    /// Standing still for a number of seconds.
    case stand(seconds: Seconds)
    /// A steady climb (positive `meters`) or descent (negative) at a vertical speed in m/s.
    case move(meters: Meters, verticalSpeed: Double)
    /// Stairs: `floors` floors (negative downwards) of `floorHeight` metres at a vertical speed in m/s.
    ///
    /// The defaults are the seed's: 3 m floors (Apple's assumption for `floorsAscended`) climbed at 0.25 m/s.
    case stairs(floors: Int, floorHeight: Meters = 3, verticalSpeed: Double = 0.25)
    /// An elevator ride: `floors` floors (negative downwards) of `floorHeight` metres at a vertical speed in m/s.
    ///
    /// The defaults are the seed's: 3 m floors at 2 m/s. The car moves at constant speed (no acceleration phase).
    case elevator(floors: Int, floorHeight: Meters = 3, verticalSpeed: Double = 2)
    /// A building visit given as legs of whole seconds at constant vertical speed; `BuildingVisit.seedPlan`
    /// is the seed's (1,662 s: lobby, 3 floors up the stairs, work, elevator 4 floors down, stand).
    ///
    /// Each leg's motion starts at the leg's start time; the seed's discrete loop books each second's
    /// motion at the end of that second, so the two differ by at most one second of motion.
    case buildingVisit(plan: [BuildingVisit.Leg] = BuildingVisit.seedPlan)
    /// A hike up and back down with rests (see `HikePlan`).
    case hike(HikePlan)
}
