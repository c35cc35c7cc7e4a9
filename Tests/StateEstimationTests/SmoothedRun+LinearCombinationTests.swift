import LinearAlgebra
import Randomness
import StateEstimation
import Testing

@Suite("SmoothedRun linear combinations")
struct SmoothedRunLinearCombinationTests {
    /// A recorded run of a random model over irregular epochs, some without a measurement, with the scalar
    /// observation rows used at each epoch (nil: none).
    static func randomRun(seed: UInt64) throws -> (FilterRun, SmoothedRun, [[Double]?], [Double]) {
        var random = SeededGenerator(seed: seed)
        let model = try TestSupport.randomModel(using: &random)
        let n = model.stateCount
        var filter = try KalmanFilter(
            model: model, time: 0, mean: [Double](repeating: 0, count: n),
            covariance: TestSupport.randomSPD(n, scale: 4, using: &random), recordsRun: true)
        var rows: [[Double]?] = []
        var variances: [Double] = []
        var time = 0.0
        for k in 0..<9 {
            if k > 0 {
                time += 0.5 + 3 * random.uniform()
                try filter.predict(to: time)
            }
            if k == 3 || k == 6 {
                rows.append(nil)
                variances.append(0)
                continue
            }
            let row = (0..<n).map { _ in random.gaussian() }
            let r = 0.2 + random.uniform()
            try filter.update(random.gaussian(), kind: LinearMeasurement(observationRow: row), variance: r)
            rows.append(row)
            variances.append(r)
        }
        let run = try #require(filter.recordedRun)
        return (run, try run.smoothed(), rows, variances)
    }

    /// The joint posterior covariance of all epochs' states, by inverting the batch information matrix:
    /// P₀⁻¹ on epoch 0, [−F I]ᵀ Q⁻¹ [−F I] on each pair of epochs, hᵀ r⁻¹ h for each measurement.
    static func jointCovariance(_ run: FilterRun, rows: [[Double]?], variances: [Double]) throws -> Matrix {
        let n = run.stateCount, e = run.epochCount, size = n * e
        var information = Matrix(rows: size, columns: size)
        func add(_ block: Matrix, _ i: Int, _ j: Int) {
            for c in 0..<n { for r in 0..<n { information[i * n + r, j * n + c] += block[r, c] } }
        }
        let identity = Matrix.identity(n)
        add(try run.predictedCovariance(at: 0).solve(identity), 0, 0)
        for k in 1..<e {
            let f = run.transition(at: k)
            let qInverse = try run.processNoise(at: k).solve(identity)
            add(f.transposed * qInverse * f, k - 1, k - 1)
            add(-1 * (f.transposed * qInverse), k - 1, k)
            add(-1 * (qInverse * f), k, k - 1)
            add(qInverse, k, k)
        }
        for (k, row) in rows.enumerated() {
            guard let row else { continue }
            let h = Matrix(rows: 1, columns: n, columnMajor: row)
            add((1 / variances[k]) * (h.transposed * h), k, k)
        }
        return try information.solve(Matrix.identity(size))
    }

    @Test("Variances of random combinations equal the batch posterior's, for 20 random models", arguments: 1...20)
    func matchesBatch(seed: UInt64) throws {
        let (run, smoothed, rows, variances) = try Self.randomRun(seed: seed)
        let joint = try Self.jointCovariance(run, rows: rows, variances: variances)
        let n = run.stateCount
        var random = SeededGenerator(seed: seed &+ 1_000)
        var combinations: [StateCombination] = []
        var expected: [Double] = []
        for _ in 0..<6 {
            var combination = StateCombination()
            var vector = [Double](repeating: 0, count: n * run.epochCount)
            let first = Int(random.next() % 5)
            for epoch in first..<run.epochCount where random.uniform() < 0.5 {
                let index = Int(random.next() % UInt64(n))
                let weight = random.gaussian()
                combination.add(weight, of: index, at: epoch, stateCount: n)
                vector[epoch * n + index] += weight
            }
            let a = Matrix(column: vector)
            combinations.append(combination)
            expected.append((a.transposed * joint * a)[0, 0])
        }
        let got = try smoothed.errorVariances(of: combinations, run: run)
        for (g, x) in zip(got, expected) {
            // Both are exact; they differ by rounding in the inversion of a well-conditioned matrix.
            #expect(abs(g - x) <= 1e-7 * max(1, abs(x)), "seed \(seed): \(g) against \(x)")
        }
        // A single epoch's element is the smoothed marginal variance.
        var single = StateCombination()
        single.add(1, of: 0, at: 2, stateCount: n)
        let marginal = try smoothed.errorVariances(of: [single], run: run)[0]
        #expect(abs(marginal - smoothed.covariance(at: 2)[0, 0]) <= 1e-9 * smoothed.covariance(at: 2)[0, 0])
    }

    @Test("A run that does not match is refused")
    func mismatch() throws {
        let (run, smoothed, _, _) = try Self.randomRun(seed: 1)
        let (other, _, _, _) = try Self.randomRun(seed: 2)
        var combination = StateCombination()
        combination.add(1, of: 0, at: run.epochCount, stateCount: run.stateCount)
        #expect(throws: EstimationError.self) { try smoothed.errorVariances(of: [combination], run: run) }
        if other.stateCount != run.stateCount {
            #expect(throws: EstimationError.self) { try smoothed.errorVariances(of: [], run: other) }
        }
    }
}
