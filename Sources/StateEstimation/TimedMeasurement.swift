import LinearAlgebra

/// A time-stamped measurement of some kind, with its own noise and gate: the element of the batch and
/// streaming APIs.
public struct TimedMeasurement<Kind: MeasurementKind>: Sendable {
    /// When the measurement was taken, in seconds on the filter's clock.
    public var time: Seconds
    /// What was measured.
    public var kind: Kind
    /// The measured values z (m of them), in the kind's units.
    public var values: [Double]
    /// The measurement noise covariance R (m x m), in squared measurement units.
    public var noise: Matrix
    /// The innovation gate applied to this measurement.
    public var gate: Gate

    /// A measurement of any dimension.
    ///
    /// - Parameters:
    ///   - time: when the measurement was taken, in seconds on the filter's clock.
    ///   - kind: what was measured.
    ///   - values: z (m values), in the kind's units.
    ///   - noise: the measurement noise covariance R (m x m), in squared measurement units.
    ///   - gate: the innovation gate; none by default.
    public init(time: Seconds, kind: Kind, values: [Double], noise: Matrix, gate: Gate = .off) {
        self.time = time
        self.kind = kind
        self.values = values
        self.noise = noise
        self.gate = gate
    }

    /// A scalar measurement z with variance R (squared measurement units).
    ///
    /// - Parameters:
    ///   - time: when the measurement was taken, in seconds on the filter's clock.
    ///   - kind: what was measured.
    ///   - value: z, in the kind's unit.
    ///   - variance: R, in the kind's unit squared.
    ///   - gate: the innovation gate; none by default.
    public init(time: Seconds, kind: Kind, value: Double, variance: Double, gate: Gate = .off) {
        self.init(
            time: time, kind: kind, values: [value], noise: Matrix(rows: 1, columns: 1, columnMajor: [variance]),
            gate: gate)
    }
}

extension TimedMeasurement: Equatable where Kind: Equatable {}
extension TimedMeasurement: Codable where Kind: Codable {}
