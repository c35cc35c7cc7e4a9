import Altimetry

/// A simulated scenario: the rows the sensors produced, in time order, and the truth behind each row.
///
/// `readings[i]` and `truth[i]` describe the same instant; the two arrays always have the same count.
/// Times are non-decreasing across rows and strictly increasing per sensor.
public struct SimulatedRecording: Sendable, Equatable, Codable {
    /// The scenario that produced this recording (with its seed).
    public var scenario: Scenario
    /// What the sensors reported, in time order.
    public var readings: [SimulatedReading]
    /// The truth, row by row.
    public var truth: [GroundTruth]

    /// A recording of `scenario`: its readings and one truth per reading.
    ///
    /// - Parameters:
    ///   - scenario: the scenario simulated.
    ///   - readings: its rows, in time order.
    ///   - truth: the truth behind each row, one per reading.
    public init(scenario: Scenario, readings: [SimulatedReading], truth: [GroundTruth]) {
        precondition(readings.count == truth.count, "A recording has one truth per reading")
        self.scenario = scenario
        self.readings = readings
        self.truth = truth
    }

    /// Number of barometer readings.
    public var barometerCount: Int { readings.reduce(0) { $0 + ($1.pressure == nil ? 0 : 1) } }

    /// Number of GPS fixes.
    public var gpsCount: Int { readings.reduce(0) { $0 + ($1.gpsAltitude == nil ? 0 : 1) } }
}
