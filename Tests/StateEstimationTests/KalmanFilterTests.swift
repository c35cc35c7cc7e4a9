import Foundation
import LinearAlgebra
import StateEstimation
import Testing

/// Scenarios of the filter's predict and update, read as GIVEN / WHEN / THEN.
@Suite("Kalman filter")
struct KalmanFilterTests {
    static let position = LinearMeasurement(observationRow: [1, 0])

    static func constantVelocityFilter(recordsRun: Bool = false) throws -> KalmanFilter<BlockDiagonalModel> {
        try KalmanFilter(
            model: BlockDiagonalModel([.constantVelocity(accelerationNoiseDensity: 0.1)]), time: 10,
            mean: [5, 1], covariance: .diagonal([4, 1]), recordsRun: recordsRun)
    }

    @Test("A position update lowers the position variance and moves the mean toward the measurement")
    func updateLowersVariance() throws {
        // GIVEN a constant-velocity filter at position 5 ± 2
        var filter = try Self.constantVelocityFilter()
        // WHEN it measures position 7 with variance 4
        let record = try filter.update(7, kind: Self.position, variance: 4)
        // THEN the variance halves, the mean moves half-way, and the record says why
        #expect(abs(filter.covariance[0, 0] - 2) < 1e-12)
        #expect(abs(filter.mean[0, 0] - 6) < 1e-12)
        #expect(record.innovation == 2)
        #expect(record.innovationVariance == 8)
        #expect(abs(record.normalizedInnovationSquared - 0.5) < 1e-15)
        #expect(record.decision == .accepted)
        #expect(abs(record.logLikelihoodIncrement - (-0.5 * (0.5 + log(2 * Double.pi) + log(8.0)))) < 1e-14)
    }

    @Test("Predicting over dt applies F(dt) and Q(dt); predicting to the same time changes nothing")
    func predict() throws {
        var filter = try Self.constantVelocityFilter()
        let before = filter.covariance
        try filter.predict(to: 10)
        #expect(filter.covariance == before && filter.time == 10)
        try filter.predict(to: 12)
        // x = F x: 5 + 2 · 1
        #expect(filter.mean[0, 0] == 7)
        // P = F P Fᵀ + Q with F = [1 2; 0 1], Q = 0.1 [8/3 2; 2 2]
        let expected = Matrix([[4 + 4 + 0.8 / 3, 2 + 0.2], [2 + 0.2, 1 + 0.2]])
        #expect(TestSupport.maxRelativeDifference(filter.covariance, expected) < 1e-14)
        #expect(filter.covariance.asymmetry == 0)
    }

    @Test("Several measurements at the same time are several updates at dt = 0")
    func sameTime() throws {
        var filter = try Self.constantVelocityFilter()
        try filter.predict(to: 11)
        try filter.update(6.5, kind: Self.position, variance: 1)
        try filter.predict(to: 11)
        try filter.update(6.0, kind: Self.position, variance: 1)
        var joint = try Self.constantVelocityFilter()
        try joint.predict(to: 11)
        try joint.update(
            [6.5, 6.0], kind: LinearMeasurement(observationMatrix: Matrix([[1, 0], [1, 0]])), noise: .identity(2))
        #expect(TestSupport.maxRelativeDifference(filter.covariance, joint.covariance) < 1e-12)
        #expect(TestSupport.maxRelativeDifference(filter.mean, joint.mean) < 1e-12)
    }

    @Test("A 5-sigma gate rejects an outlier, reports its NIS and leaves the state alone")
    func gateRejects() throws {
        var filter = try Self.constantVelocityFilter()
        let before = filter.checkpoint
        let record = try filter.update(
            5 + 6 * 8.0.squareRoot(), kind: Self.position, variance: 4, gate: .mahalanobis(5))
        #expect(record.decision == .rejected(.innovationGate(threshold: 25)))
        #expect(abs(record.normalizedInnovationSquared - 36) < 1e-12)
        #expect(filter.checkpoint == before)
    }

    @Test("A soft gate inflates R so that the NIS sits on the threshold")
    func gateInflates() throws {
        // GIVEN an outlier at 6 sigma and a soft 3-sigma gate
        var filter = try Self.constantVelocityFilter()
        let z = 5 + 6 * 8.0.squareRoot()
        let record = try filter.update(z, kind: Self.position, variance: 4, gate: .mahalanobis(3, action: .inflate))
        // THEN S was inflated by c = 36 / 9 = 4, i.e. R' = R + 3 S = 28
        guard case .inflated(let factor) = record.decision else {
            Issue.record("expected an inflated update, got \(record.decision)")
            return
        }
        #expect(abs(factor - 4) < 1e-12)
        var reference = try Self.constantVelocityFilter()
        try reference.update(z, kind: Self.position, variance: 4 + 3 * 8)
        #expect(TestSupport.maxRelativeDifference(filter.covariance, reference.covariance) < 1e-12)
        #expect(TestSupport.maxRelativeDifference(filter.mean, reference.mean) < 1e-12)
    }

    @Test("A chi-square gate for one dimension refuses a two-dimensional measurement")
    func gateDimension() throws {
        var filter = try Self.constantVelocityFilter()
        let gate = try Gate.chiSquare(probability: 0.99, degreesOfFreedom: 1)
        #expect(
            throws: EstimationError.dimensionMismatch(
                .measurement, expected: "dimension 1, as the gate", actual: "dimension 2")
        ) {
            try filter.update(
                [1, 2], kind: LinearMeasurement(observationMatrix: .identity(2)), noise: .identity(2), gate: gate)
        }
    }

    @Test("A linearised kind updates with its Jacobian and its own prediction h(x)")
    func linearisedKind() throws {
        /// The range from the origin of a 2-D position: h(x) = |x|, H = xᵀ / |x|.
        struct Range: MeasurementKind {
            var dimension: Int { 1 }
            func observationMatrix(at mean: Matrix, into h: inout Matrix) {
                let r = (mean[0, 0] * mean[0, 0] + mean[1, 0] * mean[1, 0]).squareRoot()
                h[0, 0] = mean[0, 0] / r
                h[0, 1] = mean[1, 0] / r
            }
            func predictedMeasurement(at mean: Matrix, observationMatrix: Matrix, into predicted: inout Matrix) {
                predicted[0, 0] = (mean[0, 0] * mean[0, 0] + mean[1, 0] * mean[1, 0]).squareRoot()
            }
        }
        let model = try BlockDiagonalModel([.randomWalk(noiseDensity: 1), .randomWalk(noiseDensity: 1)])
        var filter = try KalmanFilter(model: model, time: 0, mean: [3, 4], covariance: .identity(2))
        let record = try filter.update(5.5, kind: Range(), variance: 1)
        #expect(record.innovation == 0.5)
        // The linear update with H = [0.6 0.8] and z − h(x) = 0.5 is the reference.
        let (x, p) = try TestSupport.shortFormUpdate(
            mean: Matrix(column: [3, 4]), covariance: .identity(2),
            h: Matrix([[0.6, 0.8]]), r: Matrix([[1]]), z: Matrix([[5.5 - 5 + 5]]))
        #expect(TestSupport.maxRelativeDifference(filter.mean, x) < 1e-14)
        #expect(TestSupport.maxRelativeDifference(filter.covariance, p) < 1e-14)
    }

    @Test("Recording keeps one epoch per distinct time, with the last update's state")
    func recording() throws {
        var filter = try Self.constantVelocityFilter(recordsRun: true)
        try filter.update(5.5, kind: Self.position, variance: 1)
        try filter.predict(to: 11)
        try filter.update(6.5, kind: Self.position, variance: 1)
        try filter.update(6.4, kind: Self.position, variance: 1)
        let run = try #require(filter.recordedRun)
        #expect(run.times == [10, 11])
        #expect(run.filteredCovariance(at: 1) == filter.covariance)
        #expect(run.filteredMean(at: 1) == filter.mean)
        #expect(run.predictedCovariance(at: 1) != filter.covariance)
        #expect(run.transition(at: 1) == Matrix([[1, 1], [0, 1]]))
    }
}
