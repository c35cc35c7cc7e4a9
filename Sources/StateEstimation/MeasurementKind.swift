import LinearAlgebra

/// One kind of measurement of the state: its dimension m, its observation matrix H and its prediction h(x).
///
/// A measurement z of this kind is modelled as
///
///     z = h(x) + v,   v ~ N(0, R),
///
/// with R supplied with each measurement (so that every reading may carry its own accuracy). For a linear kind
/// h(x) = H x, and the default `predictedMeasurement(at:observationMatrix:into:)` computes exactly that; a
/// linearised kind (an extended Kalman filter update) overrides it with h(x) and returns the Jacobian
/// H = ∂h/∂x at x from `observationMatrix(at:into:)`.
///
/// A model with several kinds usually makes them one enum, so that measurements of all kinds share one type:
///
///     enum Sensor: MeasurementKind {
///         case barometer, gps
///         var dimension: Int { 1 }
///         func observationMatrix(at mean: Matrix, into H: inout Matrix) {
///             switch self {
///             case .barometer: H[0, 0] = 1; H[0, 1] = 1   // z = h + offset
///             case .gps: H[0, 0] = 1; H[0, 3] = 1         // z = h + e
///             }
///         }
///     }
public protocol MeasurementKind: Sendable {
    /// The measurement dimension m.
    var dimension: Int { get }

    /// Writes H, the observation matrix (m x n), at the prior mean x.
    ///
    /// H arrives filled with zeros; write the non-zero elements only, and do not allocate.
    ///
    /// - Parameters:
    ///   - mean: the prior mean x (n x 1).
    ///   - observationMatrix: H, m x n, in measurement units per state unit.
    func observationMatrix(at mean: Matrix, into observationMatrix: inout Matrix)

    /// Writes the predicted measurement h(x) (m x 1) at the prior mean x.
    ///
    /// The default implementation computes H x, the linear case.
    ///
    /// - Parameters:
    ///   - mean: the prior mean x (n x 1).
    ///   - observationMatrix: the H just written by `observationMatrix(at:into:)`.
    ///   - predicted: h(x), m x 1; every element must be written.
    func predictedMeasurement(at mean: Matrix, observationMatrix: Matrix, into predicted: inout Matrix)
}

extension MeasurementKind {
    /// The linear prediction h(x) = H x.
    ///
    /// - Parameters:
    ///   - mean: the state x (n x 1).
    ///   - observationMatrix: H (m x n).
    ///   - predicted: receives H x (m x 1).
    public func predictedMeasurement(at mean: Matrix, observationMatrix: Matrix, into predicted: inout Matrix) {
        Matrix.multiplyByLoops(observationMatrix, .none, mean, .none, into: &predicted)
    }
}

/// A linear measurement kind with a fixed observation matrix: z = H x + v.
public struct LinearMeasurement: MeasurementKind, Equatable, Hashable, Codable {
    /// The observation matrix H, m x n.
    public let observationMatrix: Matrix

    /// A kind observing H x.
    public init(observationMatrix: Matrix) {
        self.observationMatrix = observationMatrix
    }

    /// A scalar kind observing h x, a weighted sum of the states: H is the 1 x n row `observationRow`.
    public init(observationRow: [Double]) {
        self.observationMatrix = Matrix(rows: 1, columns: observationRow.count, columnMajor: observationRow)
    }

    public var dimension: Int { observationMatrix.rows }

    public func observationMatrix(at mean: Matrix, into observationMatrix: inout Matrix) {
        if observationMatrix.rows == self.observationMatrix.rows
            && observationMatrix.columns == self.observationMatrix.columns
        {
            observationMatrix.assign(self.observationMatrix)
        } else {
            // The engine reports the shape mismatch.
            observationMatrix = self.observationMatrix
        }
    }
}
