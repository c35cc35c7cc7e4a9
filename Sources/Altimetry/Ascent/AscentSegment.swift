/// One climb or descent between two turning points of the fused altitude.
public struct AscentSegment: Sendable, Equatable, Codable {
    /// Start and end time, in seconds.
    public var startTime: Double
    /// End time, in seconds.
    public var endTime: Double
    /// Altitude at the start and at the end (the averaged fused altitude), in metres.
    public var startAltitude: Meters
    /// Altitude at the end (the averaged fused altitude), in metres.
    public var endAltitude: Meters
    /// One sigma of the gain, in metres (altitude and air column together).
    public var gainStandardDeviation: Meters

    /// The height gained, end minus start, in metres (negative for a descent).
    public var gain: Meters { endAltitude - startAltitude }
    /// The duration, in seconds.
    public var duration: Double { endTime - startTime }
    /// The mean vertical speed, gain over duration, in m/s (0 for a zero duration).
    public var meanVerticalSpeed: Double { duration > 0 ? gain / duration : 0 }
    /// Whether this is a climb.
    public var isClimb: Bool { gain > 0 }
}
