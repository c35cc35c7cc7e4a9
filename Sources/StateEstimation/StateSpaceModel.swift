import LinearAlgebra

/// A linear (or linearised) stochastic model of how a state evolves between measurements.
///
/// Over a step of dt seconds the state x (n entries) evolves as
///
///     x(t + dt) = F(dt) x(t) + w,   w ~ N(0, Q(dt)),
///
/// where F is the transition and Q the process noise, both written out by `discretize(over:transition:processNoise:)`
/// from the continuous-time model by exact discretisation (see `StateBlock` for the usual blocks). The engine asks
/// for F and Q only for dt > 0: at dt = 0 it uses F = I and Q = 0 itself.
///
/// Models are values: their parameters are stored properties, and a `Codable` model is saved whole in a
/// `FilterCheckpoint`. The engine never mutates a model.
public protocol StateSpaceModel: Sendable {
    /// The state dimension n.
    var stateCount: Int { get }

    /// Writes the transition F(dt) and process noise Q(dt) for a step of `dt` seconds into preallocated matrices.
    ///
    /// Both matrices are n x n and arrive filled with zeros; write the non-zero elements only. Q must be symmetric
    /// positive semi-definite; the engine reads its lower triangle. Do not replace the matrices (the engine checks
    /// their shapes) and do not allocate: this runs once per predict.
    ///
    /// F and Q must be a pure function of dt and the model's stored parameters: the engine reuses the last F and
    /// Q when the same dt comes again (a sensor at a regular rate), skipping this call.
    ///
    /// - Parameters:
    ///   - dt: the step, in seconds, always > 0.
    ///   - transition: F(dt), n x n.
    ///   - processNoise: Q(dt), n x n, in the squared units of the state.
    func discretize(over dt: Seconds, transition: inout Matrix, processNoise: inout Matrix)
}
