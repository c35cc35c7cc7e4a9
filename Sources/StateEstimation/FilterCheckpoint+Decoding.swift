import LinearAlgebra

extension FilterCheckpoint {
    private enum CodingKeys: String, CodingKey {
        case formatVersion, model, time, mean, covariance
    }

    /// Decodes a checkpoint, checked against its declared dimensions before a filter can use it.
    ///
    /// A checkpoint read from a file is outside data: besides the covariance's own checks (`Matrix.init(from:)`:
    /// its element count is rows × columns, every value finite), the model's state count n fixes the rest: the
    /// mean holds n finite values and the covariance is n × n; the time is finite. Each failure is a
    /// `DecodingError.dataCorrupted` whose coding path names the field (`mean`, `covariance`, `time`), so that a
    /// corrupted state file is an error naming what is wrong, never a subscript past an array's end.
    ///
    /// - Throws: `DecodingError` for a missing or mistyped field, or one that breaks the rules above.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let formatVersion = try c.decode(Int.self, forKey: .formatVersion)
        let model = try c.decode(Model.self, forKey: .model)
        let time = try c.decode(Seconds.self, forKey: .time)
        let mean = try c.decode([Double].self, forKey: .mean)
        let covariance = try c.decode(Matrix.self, forKey: .covariance)
        let n = model.stateCount
        guard time.isFinite else {
            throw DecodingError.dataCorruptedError(
                forKey: .time, in: c, debugDescription: "found \(time), expected a finite time in seconds")
        }
        guard mean.count == n else {
            throw DecodingError.dataCorruptedError(
                forKey: .mean, in: c,
                debugDescription: "found \(mean.count) values, expected \(n), the model's state count")
        }
        if let k = mean.firstIndex(where: { !$0.isFinite }) {
            throw DecodingError.dataCorruptedError(
                forKey: .mean, in: c, debugDescription: "found \(mean[k]) at index \(k), expected finite values")
        }
        guard covariance.rows == n, covariance.columns == n else {
            throw DecodingError.dataCorruptedError(
                forKey: .covariance, in: c,
                debugDescription:
                    "found \(covariance.rows) x \(covariance.columns), expected \(n) x \(n), the model's state count")
        }
        self.init(formatVersion: formatVersion, model: model, time: time, mean: mean, covariance: covariance)
    }

    /// Encodes every field, as `init(from:)` reads them.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(formatVersion, forKey: .formatVersion)
        try c.encode(model, forKey: .model)
        try c.encode(time, forKey: .time)
        try c.encode(mean, forKey: .mean)
        try c.encode(covariance, forKey: .covariance)
    }
}
