import Foundation
import LinearAlgebra
import Randomness
import StateEstimation
import Testing

/// Laws of the filter over many seeds; every failure names its seed.
@Suite("Kalman filter properties")
struct KalmanFilterPropertyTests {
    static let seeds: [UInt64] = Array(1...40)

    /// A random filter: a random block-diagonal model, a random SPD prior of scale up to 100.
    static func randomFilter(using random: inout SeededGenerator, recordsRun: Bool = false) throws -> KalmanFilter<
        BlockDiagonalModel
    > {
        let model = try TestSupport.randomModel(using: &random)
        let n = model.stateCount
        return try KalmanFilter(
            model: model, time: 0, mean: (0..<n).map { _ in random.gaussian() },
            covariance: TestSupport.randomSPD(n, scale: 1 + 99 * random.uniform(), using: &random),
            recordsRun: recordsRun)
    }

    /// Random predicts and scalar or vector updates.
    static func randomSteps(
        _ count: Int, filter: inout KalmanFilter<BlockDiagonalModel>, using random: inout SeededGenerator,
        after each: (KalmanFilter<BlockDiagonalModel>, KalmanFilter<BlockDiagonalModel>) -> Void = { _, _ in }
    ) throws {
        let n = filter.stateCount
        for _ in 0..<count {
            let before = filter
            if random.uniform() < 0.7 {
                try filter.predict(to: filter.time + (random.uniform() < 0.2 ? 0 : 5 * random.uniform()))
            }
            let m = random.uniform() < 0.7 ? 1 : 2
            let h = TestSupport.randomObservation(rows: m, columns: n, using: &random)
            let r = TestSupport.randomSPD(m, scale: 0.01 + 10 * random.uniform(), using: &random)
            let z = (0..<m).map { _ in 3 * random.gaussian() }
            try filter.update(z, kind: LinearMeasurement(observationMatrix: h), noise: r)
            each(before, filter)
        }
    }

    @Test("P stays exactly symmetric and positive definite", arguments: seeds)
    func symmetricPositiveDefinite(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var filter = try Self.randomFilter(using: &random)
        try Self.randomSteps(50, filter: &filter, using: &random) { _, after in
            #expect(after.covariance.asymmetry == 0, "seed \(seed)")
            #expect(TestSupport.isPositiveDefinite(after.covariance), "seed \(seed)")
        }
    }

    @Test("An update never raises a marginal variance", arguments: seeds)
    func updateNeverRaisesVariance(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var filter = try Self.randomFilter(using: &random)
        for _ in 0..<30 {
            try filter.predict(to: filter.time + random.uniform())
            let before = filter.covariance
            let h = TestSupport.randomObservation(rows: 1, columns: filter.stateCount, using: &random)
            try filter.update(
                random.gaussian(), kind: LinearMeasurement(observationMatrix: h), variance: 0.01 + random.uniform())
            for i in 0..<filter.stateCount {
                #expect(filter.covariance[i, i] <= before[i, i] * (1 + 1e-12), "seed \(seed), state \(i)")
            }
        }
    }

    @Test("The Joseph form equals the short form P − K S Kᵀ at the optimal gain", arguments: seeds)
    func josephEqualsShortForm(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var filter = try Self.randomFilter(using: &random)
        let n = filter.stateCount
        for m in 1...3 {
            let h = TestSupport.randomObservation(rows: m, columns: n, using: &random)
            let r = TestSupport.randomSPD(m, scale: 0.1 + random.uniform(), using: &random)
            let z = Matrix(column: (0..<m).map { _ in random.gaussian() })
            let (x, p) = try TestSupport.shortFormUpdate(
                mean: filter.mean, covariance: filter.covariance, h: h, r: r, z: z)
            try filter.update(z.elements, kind: LinearMeasurement(observationMatrix: h), noise: r)
            let scale = p.elements.map(abs).max() ?? 1
            #expect(
                TestSupport.maxRelativeDifference(filter.covariance, p, floor: scale) < 1e-10, "seed \(seed), m = \(m)")
            #expect(TestSupport.maxRelativeDifference(filter.mean, x, floor: 1) < 1e-10, "seed \(seed), m = \(m)")
        }
    }

    @Test("Sequential scalar updates equal the joint update with a diagonal R", arguments: seeds)
    func sequentialEqualsJoint(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let start = try Self.randomFilter(using: &random)
        let n = start.stateCount
        let m = 3
        let h = TestSupport.randomObservation(rows: m, columns: n, using: &random)
        let variances = (0..<m).map { _ in 0.1 + random.uniform() }
        let z = (0..<m).map { _ in random.gaussian() }
        var joint = start
        let record = try joint.update(z, kind: LinearMeasurement(observationMatrix: h), noise: .diagonal(variances))
        var sequential = start
        var logLikelihood = 0.0
        for i in 0..<m {
            let row = LinearMeasurement(observationRow: (0..<n).map { h[i, $0] })
            logLikelihood += try sequential.update(z[i], kind: row, variance: variances[i]).logLikelihoodIncrement
        }
        let scale = joint.covariance.elements.map(abs).max() ?? 1
        #expect(
            TestSupport.maxRelativeDifference(sequential.covariance, joint.covariance, floor: scale) < 1e-10,
            "seed \(seed)")
        #expect(TestSupport.maxRelativeDifference(sequential.mean, joint.mean, floor: 1) < 1e-10, "seed \(seed)")
        // The log-likelihood factorises over the sequential updates.
        #expect(abs(logLikelihood - record.logLikelihoodIncrement) < 1e-9 * max(1, abs(logLikelihood)), "seed \(seed)")
    }

    @Test("The smoother's variances are at most the filter's, and equal at the last epoch", arguments: seeds)
    func smootherVariances(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var filter = try Self.randomFilter(using: &random, recordsRun: true)
        try Self.randomSteps(40, filter: &filter, using: &random)
        let run = try #require(filter.recordedRun)
        let smoothed = try run.smoothed()
        for k in 0..<run.epochCount {
            let pf = run.filteredCovariance(at: k)
            let ps = smoothed.covariance(at: k)
            #expect(TestSupport.isPositiveDefinite(ps), "seed \(seed), epoch \(k)")
            #expect(ps.asymmetry == 0, "seed \(seed), epoch \(k)")
            for i in 0..<run.stateCount {
                #expect(ps[i, i] <= pf[i, i] * (1 + 1e-9), "seed \(seed), epoch \(k), state \(i)")
            }
        }
        #expect(smoothed.covariance(at: run.epochCount - 1) == filter.covariance)
        #expect(smoothed.mean(at: run.epochCount - 1) == filter.mean)
    }

    @Test("The smoother's Joseph-like covariance equals the textbook difference form", arguments: seeds)
    func smootherMatchesDifferenceForm(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var filter = try Self.randomFilter(using: &random, recordsRun: true)
        try Self.randomSteps(20, filter: &filter, using: &random)
        let run = try #require(filter.recordedRun)
        let smoothed = try run.smoothed()
        var next = smoothed.covariance(at: run.epochCount - 1)
        var nextMean = smoothed.mean(at: run.epochCount - 1)
        for k in stride(from: run.epochCount - 2, through: 0, by: -1) {
            let p = run.filteredCovariance(at: k)
            let predicted = run.predictedCovariance(at: k + 1)
            let f = run.transition(at: k + 1)
            let gain = try predicted.solve(f * p).transposed  // C = P Fᵀ (P⁻)⁻¹
            var reference = p + gain * (next - predicted) * gain.transposed
            reference.symmetrize()
            let meanReference = run.filteredMean(at: k) + gain * (nextMean - run.predictedMean(at: k + 1))
            let scale = reference.elements.map(abs).max() ?? 1
            #expect(
                TestSupport.maxRelativeDifference(smoothed.covariance(at: k), reference, floor: scale) < 1e-8,
                "seed \(seed), epoch \(k)")
            #expect(
                TestSupport.maxRelativeDifference(smoothed.mean(at: k), meanReference, floor: 1) < 1e-8,
                "seed \(seed), epoch \(k)")
            next = smoothed.covariance(at: k)
            nextMean = smoothed.mean(at: k)
        }
    }
}
