import Altimetry
import Foundation

/// The live tracks of one server process: readings arrive per track, in requests, from many devices at once.
/// The actor serialises the requests; the tracks' state goes to a store (here a `Data`) between them.
actor TrackStore {
    private var tracks: AltitudeTracks

    init(parameters: AltitudeModelParameters = .adaptive) throws {
        tracks = try AltitudeTracks(parameters: parameters)
    }

    /// Restores the tracks saved by `save()`: each continues bit for bit.
    init(restoring saved: Data) throws {
        tracks = try AltitudeTracks(restoring: JSONDecoder().decode(AltitudeTracksCheckpoint.self, from: saved))
    }

    /// One request: a device's new readings, in time order. All or nothing.
    func ingest(_ readings: [AltitudeReading], track id: String) throws -> [AltitudeEstimate] {
        try tracks.process(readings, track: id)
    }

    /// The latest altitude and its one sigma, in metres.
    func altitude(track id: String) -> (meters: Double, sigmaMeters: Double)? {
        tracks.estimate(track: id).map { ($0.altitude, $0.altitudeStandardDeviation) }
    }

    /// Every track's state, for the store.
    func save() throws -> Data { try JSONEncoder().encode(tracks.checkpoint) }
}
