import Foundation
import LinearAlgebra
import Testing

@testable import StateEstimation

/// The recorded run keeps only what gives the smoother back every matrix exactly.
@Suite("Filter run")
struct FilterRunTests {
    /// A constant-velocity filter run at a regular rate with irregular steps among them, a known input on most
    /// steps, a model switched twice and two updates at some times; returns the filter and, per epoch after the
    /// prior, the predicted state it held right after each predict.
    static func recordedFilter() throws -> (KalmanFilter<BlockDiagonalModel>, [(mean: Matrix, covariance: Matrix)]) {
        var filter = try startingFilter(recordsRun: true)
        var predicted: [(mean: Matrix, covariance: Matrix)] = []
        for k in 1...300 { predicted.append(try advance(&filter, step: k)) }
        return (filter, predicted)
    }

    static func startingFilter(recordsRun: Bool) throws -> KalmanFilter<BlockDiagonalModel> {
        try KalmanFilter(
            model: BlockDiagonalModel([.constantVelocity(accelerationNoiseDensity: 0.1)]), time: 0,
            mean: [5, 1], covariance: .diagonal([4, 1]), recordsRun: recordsRun)
    }

    /// Step k (from 1) of `recordedFilter`: a predict, then one or two updates; returns the predicted state.
    @discardableResult
    static func advance(_ filter: inout KalmanFilter<BlockDiagonalModel>, step k: Int) throws
        -> (mean: Matrix, covariance: Matrix)
    {
        let time = (1...k).reduce(0.0) { t, j in t + (j % 7 == 0 ? 0.37 : 0.1) }
        if k == 100 {
            try filter.replaceModel(BlockDiagonalModel([.constantVelocity(accelerationNoiseDensity: 0.5)]))
        }
        if k == 200 {
            try filter.replaceModel(BlockDiagonalModel([.constantVelocity(accelerationNoiseDensity: 0.1)]))
        }
        try filter.predict(to: time, input: k % 3 == 0 ? 0 : 0.01 * Double(k % 5), onState: k % 2)
        let predicted = (filter.mean, filter.covariance)
        try filter.update(5 + 0.1 * time + sin(Double(k)), kind: KalmanFilterTests.position, variance: 0.5)
        if k % 4 == 0 { try filter.update(5 + 0.1 * time, kind: KalmanFilterTests.position, variance: 2) }
        return predicted
    }

    @Test(
        "The predicted state recomputed from the run is the filter's to the last bit, inputs and model switches included"
    )
    func predictedStateIsExact() throws {
        let (filter, predicted) = try Self.recordedFilter()
        let run = try #require(filter.recordedRun)
        try #require(run.epochCount == predicted.count + 1)
        for (k, state) in predicted.enumerated() {
            #expect(run.predictedMean(at: k + 1) == state.mean, "epoch \(k + 1)")
            #expect(run.predictedCovariance(at: k + 1) == state.covariance, "epoch \(k + 1)")
        }
        #expect(run.filteredMean(at: run.epochCount - 1) == filter.mean)
        #expect(run.filteredCovariance(at: run.epochCount - 1) == filter.covariance)
    }

    @Test("Each distinct (F, Q) is kept once, however many epochs use it")
    func stepsAreShared() throws {
        let (filter, _) = try Self.recordedFilter()
        let run = try #require(filter.recordedRun)
        let n = run.stateCount
        // Two step lengths (each in a few variants of its last bits: the times are sums of 0.1 and 0.37) under
        // two models.
        let distinct = Set(
            (1..<run.epochCount).map { run.transition(at: $0).elements + run.processNoise(at: $0).elements })
        #expect(run.steps.count == distinct.count * 2 * n * n)
        #expect(distinct.count >= 4 && distinct.count * 10 < run.epochCount, "\(distinct.count) pairs")
        #expect(run.transition(at: 1) == Matrix([[1, 0.1], [0, 1]]))
    }

    @Test("Smoothing a run handed over whole equals smoothing a copy kept by the caller")
    func smoothingInPlace() throws {
        var (filter, _) = try Self.recordedFilter()
        let kept = try #require(filter.recordedRun)
        let fromCopy = try kept.smoothed()
        let taken = filter.takeRecordedRun()
        let handedOver = try #require(taken)
        #expect(filter.recordedRun == nil)
        var smoother = RauchTungStriebelSmoother(stateCount: 2)
        #expect(try smoother.smooth(handedOver) == fromCopy)
        // The copy the caller kept still holds the filtered estimates.
        #expect(kept.filteredMean(at: kept.epochCount - 2) != fromCopy.mean(at: kept.epochCount - 2))
    }

    @Test(
        "A run smoothed a segment at a time, each recorded again from a copy of a filter that did not record, equals the whole run smoothed to the bit",
        arguments: [
            [1, 301], [1, 2, 301], [1, 73, 150, 151, 300, 301], Array(stride(from: 1, through: 301, by: 10)),
        ])
    func segmentsEqualTheWholeRun(cuts: [Int]) throws {
        let (filter, _) = try Self.recordedFilter()
        let whole = try #require(filter.recordedRun).smoothed()
        // The forward pass without recording, keeping the filter before each segment's first step.
        var forward = try Self.startingFilter(recordsRun: false)
        var copies: [Int: KalmanFilter<BlockDiagonalModel>] = [:]
        for k in 1...300 {
            if cuts.contains(k) { copies[k] = forward }
            try Self.advance(&forward, step: k)
        }
        // Backward: segment [a, b) of steps is epochs a − 1 ... b − 1 of the whole run.
        var smoother = RauchTungStriebelSmoother(stateCount: 2)
        var last: (mean: Matrix, covariance: Matrix)?
        for (a, b) in zip(cuts.dropLast(), cuts.dropFirst()).reversed() {
            let copy = copies[a]
            var segment = try a == 1 ? Self.startingFilter(recordsRun: true) : #require(copy)
            if a > 1 { segment.startRecording() }
            for k in a..<b { try Self.advance(&segment, step: k) }
            let taken = segment.takeRecordedRun()
            let run = try #require(taken)
            try #require(run.epochCount == b - a + 1)
            let part = try smoother.smooth(run, endingAt: last)
            for j in 0..<part.epochCount {
                #expect(part.mean(at: j) == whole.mean(at: a - 1 + j), "epoch \(a - 1 + j)")
                #expect(part.covariance(at: j) == whole.covariance(at: a - 1 + j), "epoch \(a - 1 + j)")
                #expect(part.times[j] == whole.times[a - 1 + j])
            }
            last = (part.mean(at: 0), part.covariance(at: 0))
        }
    }

    @Test("A run survives JSON, and a run whose storage disagrees with its epochs is refused")
    func codableAndValidated() throws {
        let (filter, _) = try Self.recordedFilter()
        let run = try #require(filter.recordedRun)
        let decoded = try JSONDecoder().decode(FilterRun.self, from: JSONEncoder().encode(run))
        #expect(decoded == run)
        var broken = run
        broken.stepIndices[5] = 99
        #expect(throws: EstimationError.self) { try broken.smoothed() }
    }
}
