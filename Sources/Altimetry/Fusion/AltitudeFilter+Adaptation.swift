extension AltitudeFilter {
    /// The bank of GPS error models when the filter adapts (`adaptsGPSErrorModel`), nil otherwise: its hypotheses
    /// and weights say what the filter has learned about the receiver.
    public var gpsErrorModelBank: GPSErrorModelBank? { gpsModelBank }

    /// Processes a reading through the GPS error model bank (`adaptsGPSErrorModel`), keeping the filter's fix
    /// counts those of the bank's leading member.
    mutating func processAdaptively(_ reading: AltitudeReading) throws(AltitudeModelError) -> AltitudeEstimate {
        // Through optional chaining, in place: copying the bank out would copy every member's covariance.
        guard let estimate = try gpsModelBank?.process(reading), let bank = gpsModelBank else {
            throw .numerical("the GPS error model bank is missing")
        }
        let leading = bank.members[bank.leadingIndex]
        fixCount = leading.fixCount
        gatedFixCount = leading.gatedFixCount
        return estimate
    }
}

extension GPSErrorModelBank {
    /// The bank's whole state, for checkpoints.
    public struct Checkpoint: Sendable, Codable {
        /// Each hypothesis' filter state, in the order of the bank's hypotheses.
        public var members: [AltitudeFilterCheckpoint]
        /// Log weights; −∞ (a disabled hypothesis) is written as null.
        public var logWeights: [Double?]
        /// Whether each hypothesis still takes part (a disabled one has weight 0).
        public var isEnabled: [Bool]
        /// The bank's fronts (`GPSErrorModelBank.fronts`); nil in a checkpoint written before the bank took them from
        /// its members, read as none.
        public var fronts: [WeatherFront]?
        /// Time of the last reading, in seconds; nil before the first.
        public var time: Double?
        /// Each member's own share (`GPSErrorModelBank.ownShares`); nil in a checkpoint written before the bank kept
        /// them, read as 1 (every member's state its own).
        public var ownShares: [Double]?
        /// The bank's fault episodes (`GPSErrorModelBank.episodes`); nil in a checkpoint written before the members
        /// watched their sensors, read as none.
        public var episodes: [FilterEpisode]?
        /// `GPSErrorModelBank.lastFusedPressureTime`; nil before the first fused pressure or in a checkpoint written
        /// before the bank kept it.
        public var lastFusedPressureTime: Double?
    }

    /// The bank's whole state.
    public var checkpoint: Checkpoint {
        Checkpoint(
            members: members.map(\.checkpoint), logWeights: logWeights.map { $0.isFinite ? $0 : nil },
            isEnabled: isEnabled, fronts: fronts, time: time, ownShares: ownShares,
            episodes: episodes, lastFusedPressureTime: lastFusedPressureTime)
    }

    /// Restores members, weights and time from `checkpoint`, which must hold one member per hypothesis, or one per
    /// hypothesis at the parameters' own scale of the reported accuracy (a checkpoint written before the bank had
    /// twins at other scales: they start as if no fix had reported an accuracy yet, and join at the next that does).
    ///
    /// - Throws: `AltitudeModelError.invalidParameter` when the checkpoint does not match the bank.
    mutating func restore(_ checkpoint: Checkpoint) throws(AltitudeModelError) {
        let count = checkpoint.members.count
        guard count == members.count || count == baseCount, checkpoint.logWeights.count == count,
            checkpoint.isEnabled.count == count,
            checkpoint.ownShares.map({ $0.count == count && $0.allSatisfy { (0...1).contains($0) } }) ?? true
        else {
            throw .invalidParameter(
                name: "checkpoint's GPS error model bank", value: Double(count),
                expected: "\(members.count) members, one per hypothesis")
        }
        var restored: [AltitudeFilter] = []
        for member in checkpoint.members {
            var filter = try AltitudeFilter(restoring: member)
            filter.followsSharedWeatherRegime = true
            restored.append(filter)
        }
        let twins = count..<members.count
        members = restored + members[twins]
        logWeights = checkpoint.logWeights.map { $0 ?? -.infinity } + twins.map { _ in -.infinity }
        isEnabled = checkpoint.isEnabled + twins.map { _ in false }
        fronts = checkpoint.fronts ?? []
        time = checkpoint.time
        ownShares = (checkpoint.ownShares ?? restored.map { _ in 1 }) + twins.map { _ in 1 }
        episodes = checkpoint.episodes ?? []
        lastFusedPressureTime = checkpoint.lastFusedPressureTime
    }
}
