import Foundation
import LinearAlgebra
import StateEstimation
import Testing

/// Bad input is a typed error that names what was wrong, and the filter is unchanged after it.
@Suite("Kalman filter input validation")
struct KalmanFilterInputTests {
    static let position = LinearMeasurement(observationRow: [1, 0])

    static func filter() throws -> KalmanFilter<BlockDiagonalModel> {
        try KalmanFilterTests.constantVelocityFilter(recordsRun: true)
    }

    /// Runs `body` on a filter, expects `error`, and checks that the filter is as before.
    static func expectRefused(
        _ error: EstimationError, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: (inout KalmanFilter<BlockDiagonalModel>) throws -> Void
    ) throws {
        var filter = try Self.filter()
        try filter.predict(to: 11)
        try filter.update(6, kind: position, variance: 1)
        let before = filter.checkpoint
        let run = filter.recordedRun
        // Compared by description, which names every payload, so that a NaN payload compares equal to itself.
        let caught = #expect(throws: EstimationError.self, sourceLocation: sourceLocation) { try body(&filter) }
        #expect(caught?.description == error.description, sourceLocation: sourceLocation)
        #expect(filter.checkpoint == before, "state changed after \(error)", sourceLocation: sourceLocation)
        #expect(filter.recordedRun == run, "recording changed after \(error)", sourceLocation: sourceLocation)
        // And the filter still works.
        try filter.predict(to: 12)
        try filter.update(7, kind: position, variance: 1)
    }

    @Test("Time going backwards names both times")
    func timeBackwards() throws {
        try Self.expectRefused(.timeWentBackwards(from: 11, to: 10.5)) { try $0.predict(to: 10.5) }
        #expect(EstimationError.timeWentBackwards(from: 11, to: 10.5).description.contains("11.0"))
        #expect(EstimationError.timeWentBackwards(from: 11, to: 10.5).description.contains("10.5"))
        try Self.expectRefused(.timeWentBackwards(from: 11, to: 3)) {
            _ = try $0.process(TimedMeasurement(time: 3, kind: Self.position, value: 1, variance: 1))
        }
    }

    @Test("Non-finite times and measurements are refused", arguments: [Double.nan, .infinity, -.infinity])
    func nonFinite(value: Double) throws {
        try Self.expectRefused(.nonFiniteTime(value)) { try $0.predict(to: value) }
        try Self.expectRefused(.nonFiniteMeasurement(component: 0, value: value)) {
            try $0.update(value, kind: Self.position, variance: 1)
        }
        try Self.expectRefused(.nonFiniteMeasurement(component: 1, value: value)) {
            try $0.update([1, value], kind: LinearMeasurement(observationMatrix: .identity(2)), noise: .identity(2))
        }
        try Self.expectRefused(.nonFinite(.measurementNoise)) { try $0.update(1, kind: Self.position, variance: value) }
    }

    @Test("A measurement noise that is not positive definite names its leading minor")
    func measurementNoise() throws {
        try Self.expectRefused(.notPositiveDefinite(.measurementNoise, leadingMinor: 1)) {
            try $0.update(1, kind: Self.position, variance: 0)
        }
        try Self.expectRefused(.notPositiveDefinite(.measurementNoise, leadingMinor: 1)) {
            try $0.update(1, kind: Self.position, variance: -2)
        }
        try Self.expectRefused(.notPositiveDefinite(.measurementNoise, leadingMinor: 2)) {
            try $0.update(
                [1, 2], kind: LinearMeasurement(observationMatrix: .identity(2)), noise: Matrix([[1, 2], [2, 1]]))
        }
        try Self.expectRefused(.notSymmetric(.measurementNoise, asymmetry: 1)) {
            try $0.update(
                [1, 2], kind: LinearMeasurement(observationMatrix: .identity(2)), noise: Matrix([[2, 1], [0, 2]]))
        }
    }

    @Test("Dimension mismatches say what was expected")
    func dimensions() throws {
        try Self.expectRefused(.dimensionMismatch(.measurement, expected: "2 values", actual: "3 values")) {
            try $0.update([1, 2, 3], kind: LinearMeasurement(observationMatrix: .identity(2)), noise: .identity(2))
        }
        try Self.expectRefused(.dimensionMismatch(.measurementNoise, expected: "2x2", actual: "3x3")) {
            try $0.update([1, 2], kind: LinearMeasurement(observationMatrix: .identity(2)), noise: .identity(3))
        }
        try Self.expectRefused(.dimensionMismatch(.observationMatrix, expected: "1x2", actual: "1x3")) {
            try $0.update(1, kind: LinearMeasurement(observationRow: [1, 0, 0]), variance: 1)
        }
        try Self.expectRefused(
            .dimensionMismatch(.measurement, expected: "a scalar kind", actual: "a kind of dimension 2")
        ) {
            try $0.update(1, kind: LinearMeasurement(observationMatrix: .identity(2)), variance: 1)
        }
    }

    @Test("The prior is checked: dimensions, finiteness, symmetry, positive definiteness")
    func prior() throws {
        let model = try BlockDiagonalModel([.constantVelocity(accelerationNoiseDensity: 1)])
        #expect(throws: EstimationError.dimensionMismatch(.initialMean, expected: "2 values", actual: "3 values")) {
            _ = try KalmanFilter(model: model, time: 0, mean: [1, 2, 3], covariance: .identity(2))
        }
        #expect(throws: EstimationError.dimensionMismatch(.initialCovariance, expected: "2x2", actual: "3x3")) {
            _ = try KalmanFilter(model: model, time: 0, mean: [1, 2], covariance: .identity(3))
        }
        #expect(throws: EstimationError.notPositiveDefinite(.initialCovariance, leadingMinor: 2)) {
            _ = try KalmanFilter(model: model, time: 0, mean: [1, 2], covariance: Matrix([[1, 1], [1, 1]]))
        }
        #expect(throws: EstimationError.notPositiveDefinite(.initialCovariance, leadingMinor: 1)) {
            _ = try KalmanFilter(model: model, time: 0, mean: [1, 2], covariance: Matrix([[-1, 0], [0, 1]]))
        }
        #expect(throws: EstimationError.notSymmetric(.initialCovariance, asymmetry: 0.5)) {
            _ = try KalmanFilter(model: model, time: 0, mean: [1, 2], covariance: Matrix([[1, 0.5], [0, 1]]))
        }
        #expect(throws: EstimationError.nonFinite(.initialCovariance)) {
            _ = try KalmanFilter(model: model, time: 0, mean: [1, 2], covariance: Matrix([[1, .nan], [.nan, 1]]))
        }
        #expect(throws: EstimationError.nonFinite(.initialMean)) {
            _ = try KalmanFilter(model: model, time: 0, mean: [1, .infinity], covariance: .identity(2))
        }
        #expect(throws: EstimationError.nonFiniteTime(.infinity)) {
            _ = try KalmanFilter(model: model, time: .infinity, mean: [1, 2], covariance: .identity(2))
        }
        #expect(
            throws: EstimationError.invalidParameter(
                name: "Gauss-Markov correlation time", value: 0, expectation: "finite and > 0 s")
        ) {
            _ = try BlockDiagonalModel([.gaussMarkov(standardDeviation: 1, correlationTime: 0)])
        }
    }

    /// A model whose transition blows up for long steps, and a kind whose Jacobian is NaN.
    struct Fragile: StateSpaceModel, Codable {
        var stateCount: Int { 2 }
        func discretize(over dt: Seconds, transition: inout Matrix, processNoise: inout Matrix) {
            transition[0, 0] = dt > 100 ? .nan : 1
            transition[1, 1] = 1
            processNoise[0, 0] = dt
            processNoise[1, 1] = dt
        }
    }

    struct BrokenKind: MeasurementKind {
        var dimension: Int { 1 }
        func observationMatrix(at mean: Matrix, into h: inout Matrix) { h[0, 0] = .nan }
    }

    @Test("Model output holding NaN is named, and process() rolls the predict back")
    func modelFailures() throws {
        var filter = try KalmanFilter(
            model: Fragile(), time: 0, mean: [0, 0], covariance: .identity(2), recordsRun: true)
        let before = filter.checkpoint
        #expect(throws: EstimationError.nonFinite(.transition)) { try filter.predict(to: 1000) }
        #expect(throws: EstimationError.nonFinite(.observationMatrix)) {
            try filter.update(1, kind: BrokenKind(), variance: 1)
        }
        #expect(throws: EstimationError.nonFinite(.observationMatrix)) {
            _ = try filter.process(TimedMeasurement(time: 5, kind: BrokenKind(), value: 1, variance: 1))
        }
        #expect(
            filter.time == before.time && filter.covariance == before.covariance && filter.mean.elements == before.mean)
        #expect(filter.recordedRun?.epochCount == 1)
        try filter.predict(to: 5)
        #expect(filter.covariance == Matrix([[6, 0], [0, 6]]))
    }

    @Test("A batch is all or nothing and names the failing measurement")
    func batchAtomic() throws {
        var filter = try Self.filter()
        let before = filter.checkpoint
        let measurements = [
            TimedMeasurement(time: 11, kind: Self.position, value: 6, variance: 1),
            TimedMeasurement(time: 12, kind: Self.position, value: .nan, variance: 1),
        ]
        let caught = #expect(throws: EstimationError.self) { _ = try filter.process(measurements) }
        #expect(
            caught?.description
                == EstimationError.batchFailed(
                    index: 1, time: 12, underlying: .nonFiniteMeasurement(component: 0, value: .nan)
                ).description)
        #expect(filter.checkpoint == before)
    }
}
