import LinearAlgebra
import Randomness
import StateEstimation
import Testing

/// What an owner may change between steps: the model (adaptive process noise) and a known input.
@Suite("Kalman filter: model replacement and known inputs")
struct KalmanFilterAdaptationTests {
    static let position = LinearMeasurement(observationRow: [1])

    static func randomWalk(_ q: Double, recordsRun: Bool = false) throws -> KalmanFilter<BlockDiagonalModel> {
        try KalmanFilter(
            model: BlockDiagonalModel([.randomWalk(noiseDensity: q)]), time: 0, mean: [0],
            covariance: .diagonal([4]), recordsRun: recordsRun)
    }

    @Test("A known input shifts the predicted mean by exactly u and leaves the covariance alone")
    func inputShiftsMean() throws {
        var with = try KalmanFilterTests.constantVelocityFilter()
        var without = with
        try with.predict(to: 10.5, input: 0.25, onState: 0)
        try without.predict(to: 10.5)
        #expect(with.mean[0, 0] == without.mean[0, 0] + 0.25)
        #expect(with.mean[1, 0] == without.mean[1, 0])
        #expect(with.covariance == without.covariance)
        // dt = 0 changes nothing, input included.
        let before = with.checkpoint
        try with.predict(to: 10.5, input: 3, onState: 1)
        #expect(with.checkpoint == before)
    }

    /// A random walk x with known displacements cₖ = Σ u is the same estimation problem as a random walk
    /// without them observed through z − cₖ: filtered and smoothed means differ by exactly cₖ (to rounding),
    /// covariances agree. This checks the recorded run carries the input to the smoother.
    @Test("Filter and smoother with an input equal the problem with the input subtracted from the measurements")
    func inputEquivalence() throws {
        var generator = SeededGenerator(seed: 11)
        var shifted = try Self.randomWalk(0.3, recordsRun: true)
        var plain = try Self.randomWalk(0.3, recordsRun: true)
        var cumulative = 0.0
        var offsets: [Double] = [0]
        for k in 1...200 {
            let time = Double(k) * 0.7
            let u = 2 * generator.uniform() - 1
            cumulative += u
            let z = cumulative + generator.gaussian()
            try shifted.predict(to: time, input: u, onState: 0)
            try shifted.update(z, kind: Self.position, variance: 1)
            try plain.predict(to: time)
            try plain.update(z - cumulative, kind: Self.position, variance: 1)
            offsets.append(cumulative)
            // Rounding: |x| stays below ~100, so 1e-9 is thousands of ulps.
            #expect(abs(shifted.mean[0, 0] - (plain.mean[0, 0] + cumulative)) < 1e-9, "step \(k)")
            #expect(shifted.covariance == plain.covariance, "step \(k)")
        }
        let a = try #require(shifted.recordedRun).smoothed()
        let b = try #require(plain.recordedRun).smoothed()
        for (epoch, offset) in offsets.enumerated() {
            #expect(abs(a.mean(at: epoch)[0, 0] - (b.mean(at: epoch)[0, 0] + offset)) < 1e-9, "epoch \(epoch)")
            #expect(abs(a.covariance(at: epoch)[0, 0] - b.covariance(at: epoch)[0, 0]) < 1e-12, "epoch \(epoch)")
        }
    }

    @Test("A non-finite input or a state outside the filter is refused, and nothing changes")
    func badInput() throws {
        try KalmanFilterInputTests.expectRefused(.nonFinite(.input)) { try $0.predict(to: 12, input: .nan, onState: 0) }
        try KalmanFilterInputTests.expectRefused(
            .invalidParameter(name: "input state index", value: 2, expectation: "in 0..<2")
        ) {
            try $0.predict(to: 12, input: 1, onState: 2)
        }
    }

    @Test("A replaced model drives the next prediction, even at the step the old one had cached")
    func replaceModel() throws {
        var adapted = try Self.randomWalk(1)
        try adapted.predict(to: 1)  // caches F and Q for dt = 1 under q = 1
        try adapted.replaceModel(BlockDiagonalModel([.randomWalk(noiseDensity: 5)]))
        try adapted.predict(to: 2)  // the same dt: must use q = 5
        // 4 + 1·1 + 5·1
        #expect(adapted.covariance[0, 0] == 10)
        #expect(adapted.model == (try BlockDiagonalModel([.randomWalk(noiseDensity: 5)])))
    }

    @Test("A model of another dimension is refused, and nothing changes")
    func replaceModelDimension() throws {
        try KalmanFilterInputTests.expectRefused(.dimensionMismatch(.transition, expected: "2x2", actual: "1x1")) {
            try $0.replaceModel(BlockDiagonalModel([.randomWalk(noiseDensity: 1)]))
        }
    }
}
