/// What the altitude filter's fault monitoring did or held at one reading: the output's status column.
///
/// Empty (`description` "ok") on every ordinary reading.
public struct AltitudeFilterStatus: OptionSet, Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The filter reset its altitude to the GPS (`FilterEpisode.Kind.reset`): to a run of refused fixes that agreed
    /// with each other (no lock-out), to one-sided accepted fixes, or to a wild fix at the start.
    public static let reset = AltitudeFilterStatus(rawValue: 1 << 0)
    /// The barometer stepped at this reading; its offset was re-anchored and the reading not fused.
    public static let barometerStep = AltitudeFilterStatus(rawValue: 1 << 1)
    /// The barometer is stuck; its reading was not fused.
    public static let barometerStuck = AltitudeFilterStatus(rawValue: 1 << 2)
    /// A GPS jump is being held off; the fix was refused.
    public static let gpsJump = AltitudeFilterStatus(rawValue: 1 << 3)
    /// The barometer's reading failed its test (a spike, or a step not yet held for the step time), or lay below the
    /// re-anchored offset; it was not fused.
    public static let barometerSpike = AltitudeFilterStatus(rawValue: 1 << 4)

    /// "ok", or the flags joined by "+": `reset`, `baro-step`, `baro-stuck`, `baro-spike`, `gps-jump`.
    public var description: String {
        let names: [(AltitudeFilterStatus, String)] = [
            (.reset, "reset"), (.barometerStep, "baro-step"),
            (.barometerStuck, "baro-stuck"), (.barometerSpike, "baro-spike"), (.gpsJump, "gps-jump"),
        ]
        let set = names.filter { contains($0.0) }.map(\.1)
        return set.isEmpty ? "ok" : set.joined(separator: "+")
    }
}
