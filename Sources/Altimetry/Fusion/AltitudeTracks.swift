/// Many live tracks' altitude filters in one value, keyed by track identifier, checkpointed together.
///
/// A server that receives readings from many devices keeps one `AltitudeFilter` per track: tracks never share
/// state, so each is fused exactly as it would be alone. A track starts with its first reading, from the prior of
/// `parameters`; `removeTrack(_:)` ends it. `checkpoint` is the whole set's state, `Codable`;
/// `init(restoring:)` continues every track bit for bit, so the set can live in a store between requests.
///
/// A value type, `Sendable`: an owner that serves concurrent requests keeps it in an actor (or shards the tracks
/// over several, by a hash of the identifier, to fuse on several cores at once).
///
/// - Complexity: a reading costs a dictionary lookup and one `AltitudeFilter.process(_:)`.
public struct AltitudeTracks: Sendable {
    /// The model's parameters for every track's filter.
    public let parameters: AltitudeModelParameters
    /// Each live track's filter.
    public private(set) var filters: [String: AltitudeFilter] = [:]

    /// An empty set whose tracks will use `parameters`.
    ///
    /// - Throws: `AltitudeModelError.invalidParameter` when the parameters cannot make a filter.
    public init(parameters: AltitudeModelParameters = AltitudeModelParameters()) throws(AltitudeModelError) {
        _ = try AltitudeFilter(parameters: parameters)
        self.parameters = parameters
    }

    /// The live tracks' identifiers, sorted.
    public var trackIDs: [String] { filters.keys.sorted() }

    /// Fuses one reading into its track, starting the track if it is new.
    ///
    /// - Parameters:
    ///   - reading: the reading, after the track's previous one.
    ///   - id: the track's name.
    /// - Returns: the track's estimate after the reading.
    /// - Throws: what `AltitudeFilter.process(_:)` throws, leaving the track as that leaves its filter; other tracks
    ///   are untouched, and a new track whose first reading is refused is not started.
    public mutating func process(_ reading: AltitudeReading, track id: String) throws(AltitudeModelError)
        -> AltitudeEstimate
    {
        // In place through the dictionary's storage: no copy of the filter per reading.
        if let index = filters.index(forKey: id) { return try filters.values[index].process(reading) }
        var filter = try AltitudeFilter(parameters: parameters)
        let estimate = try filter.process(reading)
        filters[id] = filter
        return estimate
    }

    /// Fuses a batch of one track's readings, in order, all or nothing.
    ///
    /// - Parameters:
    ///   - readings: the track's readings, in time order.
    ///   - id: the track's name.
    ///
    /// - Returns: the estimate after each reading.
    /// - Throws: the first error of `AltitudeFilter.process(_:)`; the track is then left as it was before the batch.
    public mutating func process(_ readings: [AltitudeReading], track id: String) throws(AltitudeModelError)
        -> [AltitudeEstimate]
    {
        var filter: AltitudeFilter
        if let live = filters[id] { filter = live } else { filter = try AltitudeFilter(parameters: parameters) }
        var estimates: [AltitudeEstimate] = []
        estimates.reserveCapacity(readings.count)
        for reading in readings { estimates.append(try filter.process(reading)) }
        filters[id] = filter
        return estimates
    }

    /// The track's latest estimate, or nil if the track is unknown or has had no reading.
    public func estimate(track id: String) -> AltitudeEstimate? { filters[id]?.currentEstimate }

    /// Ends a track.
    ///
    /// - Returns: its filter, for a last look at its estimate, fronts or checkpoint; nil if it was not live.
    @discardableResult
    public mutating func removeTrack(_ id: String) -> AltitudeFilter? { filters.removeValue(forKey: id) }
}

/// The state of every track of an `AltitudeTracks`, `Codable`.
///
/// Each track's entry is its filter's `AltitudeFilterCheckpoint`: the engine's state and covariance, the model
/// and the filter's bookkeeping. As JSON a track takes about 12 kB (`altimetry-bench tracks`).
public struct AltitudeTracksCheckpoint: Sendable, Codable {
    /// The parameters new tracks start with.
    public var parameters: AltitudeModelParameters
    /// Each live track's checkpoint, by identifier.
    public var tracks: [String: AltitudeFilterCheckpoint]
}

extension AltitudeTracks {
    /// The state of every track.
    public var checkpoint: AltitudeTracksCheckpoint {
        AltitudeTracksCheckpoint(parameters: parameters, tracks: filters.mapValues(\.checkpoint))
    }

    /// A set continuing exactly from `checkpoint`: each track gives the estimates it would have given had the set
    /// never been saved.
    ///
    /// - Throws: `AltitudeModelError` from the first track's checkpoint that cannot be restored.
    public init(restoring checkpoint: AltitudeTracksCheckpoint) throws(AltitudeModelError) {
        try self.init(parameters: checkpoint.parameters)
        for (id, saved) in checkpoint.tracks { filters[id] = try AltitudeFilter(restoring: saved) }
    }
}
