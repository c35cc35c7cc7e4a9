import LinearAlgebra

/// Everything that determines a filter's future: its model (with its parameters), time, mean and covariance.
///
/// Encoding a checkpoint, decoding it and continuing gives bit-identical results to a filter that was never
/// interrupted: the filter has no other state (its workspaces are scratch), and Swift's `JSONEncoder` and
/// `PropertyListEncoder` write `Double`s in a form that reads back to the same bits. A recorded run is not part
/// of a checkpoint; a restored filter starts a new recording if asked to.
public struct FilterCheckpoint<Model: StateSpaceModel & Codable>: Sendable, Codable {
    /// The layout version, 1.
    public var formatVersion: Int
    /// The model and its parameters.
    public var model: Model
    /// The filter's time, in seconds.
    public var time: Seconds
    /// The mean x, n values.
    public var mean: [Double]
    /// The covariance P, n x n.
    public var covariance: Matrix

    /// The layout this code writes and reads.
    public static var currentFormatVersion: Int { 1 }
}

extension FilterCheckpoint: Equatable where Model: Equatable {}

extension KalmanFilter where Model: Codable {
    /// The filter's whole state, to save and restore with `init(restoring:recordsRun:)`.
    public var checkpoint: FilterCheckpoint<Model> {
        FilterCheckpoint(
            formatVersion: FilterCheckpoint<Model>.currentFormatVersion, model: model, time: time,
            mean: mean.elements, covariance: covariance)
    }

    /// A filter restored from a checkpoint, continuing exactly where the saved one was.
    ///
    /// - Parameters:
    ///   - checkpoint: the saved state (model, time, mean, covariance) and its format version.
    ///   - recordsRun: keep every epoch from here on for the smoother (memory grows with the run).
    /// - Throws: `EstimationError.invalidParameter` for an unknown format version; otherwise as
    ///   `init(model:time:mean:covariance:recordsRun:)`, since a checkpoint read from a file is outside data.
    public init(restoring checkpoint: FilterCheckpoint<Model>, recordsRun: Bool = false) throws(EstimationError) {
        guard checkpoint.formatVersion == FilterCheckpoint<Model>.currentFormatVersion else {
            throw .invalidParameter(
                name: "checkpoint format version", value: Double(checkpoint.formatVersion),
                expectation: "\(FilterCheckpoint<Model>.currentFormatVersion)")
        }
        try self.init(
            model: checkpoint.model, time: checkpoint.time, mean: checkpoint.mean,
            covariance: checkpoint.covariance, recordsRun: recordsRun)
    }
}
