import Altimetry

/// A `ReadingSource` over the simulator: a scenario's readings, delivered at once or paced in (accelerated)
/// real time.
///
/// The scenario is simulated when a stream starts, in the stream's task, so a scenario that fails to validate
/// (`ScenarioError`) finishes the stream with that error. `isAvailable: false` stands for a device without the
/// sensors (the seed's iOS simulator, which has no barometer): the stream finishes at once without error.
/// Temperatures are passed to the filter in kelvin; GPS accuracies as the recording reports them (one sigma
/// unless the scenario's `ReportedVerticalAccuracy` says otherwise; convert with `accuracyConvention`).
///
/// A class, like the seed's service, to show the lifetime guarantee: each stream retains the source until it
/// ends, then releases it.
public final class SimulatedSource: ReadingSource {
    /// The scenario simulated by each stream.
    public let scenario: Scenario
    /// How fast readings are delivered.
    public let pacing: SourcePacing
    /// What the recording's `gps_vacc_m` means.
    public let accuracyConvention: VerticalAccuracyConvention
    /// Whether the simulated device has its sensors.
    public let isAvailable: Bool
    public let activity = SourceActivity()

    /// A source replaying `scenario`'s simulation at `pacing`, its accuracies in `accuracyConvention`.
    ///
    /// - Parameters:
    ///   - scenario: the scenario simulated by each stream.
    ///   - pacing: how fast readings are delivered; all at once by default.
    ///   - accuracyConvention: what the recording's reported GPS accuracies mean.
    ///   - isAvailable: false for a device without the sensors: each stream then finishes at once without error.
    public init(
        scenario: Scenario, pacing: SourcePacing = .immediate,
        accuracyConvention: VerticalAccuracyConvention = .oneSigma, isAvailable: Bool = true
    ) {
        self.scenario = scenario
        self.pacing = pacing
        self.accuracyConvention = accuracyConvention
        self.isAvailable = isAvailable
    }

    /// The reading a simulated row gives the filter: hPa, metres, one sigma, kelvin (0 °C = 273.15 K).
    public func reading(_ row: SimulatedReading) -> AltitudeReading {
        AltitudeReading(
            time: row.time, pressure: row.pressure, gpsAltitude: row.gpsAltitude,
            gpsVerticalAccuracy: row.gpsVerticalAccuracy.map { accuracyConvention.standardDeviation(ofReported: $0) },
            temperature: row.temperatureCelsius.map { $0 + 273.15 })
    }

    public func readings() -> AsyncThrowingStream<AltitudeReading, any Error> {
        ReadingStream.make(isAvailable: isAvailable, activity: activity) { deliver in
            // `self` is captured here, and so lives until this task returns.
            let recording = try self.scenario.simulate()
            guard let first = recording.readings.first?.time else { return }
            let clock = ContinuousClock()
            let start = clock.now
            for row in recording.readings {
                if let delay = self.pacing.delay(of: row.time, after: first) {
                    try await clock.sleep(until: start.advanced(by: .seconds(delay)))
                } else {
                    await Task.yield()
                }
                guard deliver(self.reading(row)) else { return }
            }
        }
    }
}
