import Foundation
import LinearAlgebra
import StateEstimation

// MARK: - Counting heap allocations

/// Counts Swift heap allocations through the runtime's own instrumentation hook.
///
/// Every Swift heap object (array and string buffers, class instances, boxes, closure contexts) is allocated by
/// `swift_allocObject`. When the runtime flag `_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly`
/// is set, that function calls through the function pointer `_swift_allocObject`, the hook Instruments uses;
/// this counter points it at a counting function that forwards to the original. Counting is switched on only
/// around the loops it measures, never while timing.
enum AllocationCounter {
    typealias AllocateObject = @convention(c) (UnsafeRawPointer?, Int, Int) -> UnsafeMutableRawPointer?

    nonisolated(unsafe) static var count = 0
    nonisolated(unsafe) static var original: AllocateObject?

    static let counting: AllocateObject = { metadata, size, alignmentMask in
        AllocationCounter.count &+= 1
        return AllocationCounter.original?(metadata, size, alignmentMask)
    }

    /// The number of Swift heap allocations made by `body`, or nil if the runtime has no hook.
    static func allocations(in body: () throws -> Void) rethrows -> Int? {
        guard let handle = dlopen(nil, RTLD_NOW),
            let hookAddress = dlsym(handle, "_swift_allocObject"),
            let flagAddress = dlsym(
                handle, "_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly")
        else { return nil }
        let hook = hookAddress.assumingMemoryBound(to: AllocateObject?.self)
        let flag = flagAddress.assumingMemoryBound(to: Bool.self)
        original = hook.pointee
        hook.pointee = counting
        count = 0
        flag.pointee = true
        defer {
            flag.pointee = false
            hook.pointee = original
        }
        try body()
        return count
    }
}

// MARK: - The benchmark

/// `altimetry-bench engine [--json]`: nanoseconds per predict plus one scalar update and per smoother step, for
/// n = 3, 4 and 6, and heap allocations per filter step.
///
/// Each figure is the median of 21 samples of 20 000 steps after 3 warm-up samples; every step predicts 40 ms
/// ahead (25 Hz, so F and Q are reused; the table also shows irregular steps, where they are recomputed every
/// time) and updates with one of two scalar kinds in turn (z = x₀ + x₁ and z = x₀ + x_last), with a
/// 5-sigma gate, from a fixed table of pseudo-random measurements. The models are block-diagonal:
/// n = 3 random walk + constant velocity; n = 4 adds a Gauss-Markov state (the altitude model without its
/// column); n = 5 adds a random walk before it (the altitude model's shape, with the column's temperature);
/// n = 6 is two constant-velocity blocks, a Gauss-Markov state and a random walk.
enum EngineBenchmark {
    static let dimensions = [3, 4, 5, 6]
    static let stepsPerSample = 20_000
    static let samples = 21
    static let warmUpSamples = 3

    /// The sink: results are summed here and printed, so the optimiser keeps the work.
    nonisolated(unsafe) static var sink = 0.0

    static func run(arguments: [String]) -> Int32 {
        var json = false
        for argument in arguments {
            switch argument {
            case "--json": json = true
            case "-h", "--help":
                print("USAGE: altimetry-bench engine [--json]")
                return 0
            default:
                FileHandle.standardError.write(Data("altimetry-bench engine: unknown option '\(argument)'\n".utf8))
                return 64
            }
        }
        var predictUpdate: [Int: Statistics] = [:]
        var irregularPredictUpdate: [Int: Statistics] = [:]
        var smootherStep: [Int: Statistics] = [:]
        var filterAllocations = 0.0
        var smootherAllocations = 0.0
        var hookWorks = false
        do {
            hookWorks =
                (AllocationCounter.allocations {
                    sink += Double(Array(repeating: 1.0, count: 3 + Int(sink.sign == .minus ? 1 : 0)).count)
                } ?? 0) > 0
            for n in dimensions {
                let (regular, regularAllocations) = try measureFilter(stateCount: n)
                let (irregular, irregularAllocations) = try measureFilter(stateCount: n, irregular: true)
                let (smoother, smoothing) = try measureSmoother(stateCount: n)
                predictUpdate[n] = regular
                irregularPredictUpdate[n] = irregular
                smootherStep[n] = smoother
                filterAllocations = max(filterAllocations, regularAllocations, irregularAllocations)
                smootherAllocations = max(smootherAllocations, smoothing)
            }
        } catch {
            FileHandle.standardError.write(Data("altimetry-bench engine: \(error)\n".utf8))
            return 70  // EX_SOFTWARE
        }
        // Without a working hook there is nothing to show: report NaN rather than a reassuring zero.
        let allocationsPerStep = hookWorks ? filterAllocations : .nan
        if json {
            func object(_ figures: [Int: Statistics]) -> String {
                dimensions.map { "\"\($0)\": \(rounded(figures[$0]?.median ?? .nan))" }.joined(separator: ", ")
            }
            print(
                "{\"predict_update_ns\": {\(object(predictUpdate))}, \"smoother_step_ns\": {\(object(smootherStep))}, \"allocations_per_step\": \(allocationsPerStep)}"
            )
        } else {
            let (gemm, loops) = measureProducts()
            print(
                "Kalman filter engine, release build: median (min-max) of \(samples) samples of \(stepsPerSample) steps"
            )
            print("")
            print("n   predict + scalar update, 25 Hz (ns)   same, irregular dt (ns)    RTS smoother step (ns)")
            for n in dimensions {
                guard let p = predictUpdate[n], let i = irregularPredictUpdate[n], let s = smootherStep[n] else {
                    continue
                }
                print(
                    String(
                        format: "%-3d %8.1f (%6.1f-%7.1f)          %8.1f (%6.1f-%7.1f)     %8.1f (%6.1f-%7.1f)", n,
                        p.median, p.minimum, p.maximum, i.median, i.minimum, i.maximum, s.median, s.minimum, s.maximum))
            }
            print("")
            print("heap allocations per filter step (predict + update): \(allocationsPerStep)")
            print(
                "heap allocations per smoother step (the result, once per run): \(hookWorks ? smootherAllocations : .nan)"
            )
            print(
                String(
                    format: "3x3 product C = A B: reference BLAS dgemm %.1f ns, Matrix.multiplyByLoops %.1f ns", gemm,
                    loops))
        }
        FileHandle.standardError.write(Data("sink \(sink)\n".utf8))
        return 0
    }

    /// Median ns of one 3x3 product by BLAS `dgemm` and by the loop kernel the engine uses.
    static func measureProducts() -> (Double, Double) {
        let a = Matrix([[1, 2, 3], [4, 5, 6], [7, 8, 10]])
        var b = Matrix([[0.5, 0, 1], [0, 0.5, 0], [1, 0, 0.5]])
        var c = Matrix(rows: 3, columns: 3)
        func time(_ body: () -> Void) -> Double {
            var figures: [Double] = []
            for _ in 0..<(warmUpSamples + samples) {
                let start = DispatchTime.now().uptimeNanoseconds
                for _ in 0..<stepsPerSample { body() }
                figures.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(stepsPerSample))
            }
            return Statistics(Array(figures.dropFirst(warmUpSamples))).median
        }
        let gemm = time {
            Matrix.multiply(a, .none, b, .none, into: &c)
            b.elements[0] = c.elements[0] * 1e-3
        }
        let loops = time {
            Matrix.multiplyByLoops(a, .none, b, .none, into: &c)
            b.elements[0] = c.elements[0] * 1e-3
        }
        sink += c.elements[8]
        return (gemm, loops)
    }

    static func rounded(_ value: Double) -> String { String(format: "%.1f", value) }

    struct Statistics {
        var median: Double
        var minimum: Double
        var maximum: Double

        init(_ values: [Double]) {
            let sorted = values.sorted()
            median = sorted[sorted.count / 2]
            minimum = sorted.first ?? .nan
            maximum = sorted.last ?? .nan
        }
    }

    static func model(stateCount n: Int) throws(EstimationError) -> BlockDiagonalModel {
        switch n {
        case 3:
            return try BlockDiagonalModel([
                .randomWalk(noiseDensity: 0.5), .constantVelocity(accelerationNoiseDensity: 1e-6),
            ])
        case 4:
            return try BlockDiagonalModel([
                .randomWalk(noiseDensity: 0.5), .constantVelocity(accelerationNoiseDensity: 1e-6),
                .gaussMarkov(standardDeviation: 10, correlationTime: 60),
            ])
        case 5:
            return try BlockDiagonalModel([
                .randomWalk(noiseDensity: 0.5), .constantVelocity(accelerationNoiseDensity: 1e-6),
                .randomWalk(noiseDensity: 1e-3), .gaussMarkov(standardDeviation: 10, correlationTime: 60),
            ])
        default:
            return try BlockDiagonalModel([
                .constantVelocity(accelerationNoiseDensity: 0.1), .constantVelocity(accelerationNoiseDensity: 1e-6),
                .gaussMarkov(standardDeviation: 10, correlationTime: 60), .randomWalk(noiseDensity: 1e-3),
            ])
        }
    }

    static func makeFilter(stateCount n: Int, recordsRun: Bool) throws(EstimationError) -> KalmanFilter<
        BlockDiagonalModel
    > {
        try KalmanFilter(
            model: model(stateCount: n), time: 0, mean: Array(repeating: 0, count: n),
            covariance: .diagonal(Array(repeating: 100, count: n)), recordsRun: recordsRun)
    }

    /// Two scalar kinds: z = x₀ + x₁ and z = x₀ + x_last.
    static func kinds(stateCount n: Int) -> [LinearMeasurement] {
        var first = Array(repeating: 0.0, count: n), second = first
        first[0] = 1
        first[1] = 1
        second[0] = 1
        second[n - 1] = 1
        return [LinearMeasurement(observationRow: first), LinearMeasurement(observationRow: second)]
    }

    /// A fixed table of measurement values (a slow walk plus noise), so drawing them costs a load.
    static let values: [Double] = {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        var level = 0.0
        return (0..<4096).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            level += 0.01
            return level + Double(state >> 11) * 0x1.0p-53 - 0.5
        }
    }()

    /// The state of a timing loop: the filter, its clock and the step counter.
    struct Loop {
        var filter: KalmanFilter<BlockDiagonalModel>
        let kinds: [LinearMeasurement]
        let gate: Gate
        let values: [Double]
        let irregular: Bool
        var time = 0.0
        var step = 0

        /// Runs `count` steps of predict + one scalar update and returns the sum of their NIS, for the sink.
        mutating func run(_ count: Int) throws -> Double {
            var nisSum = 0.0
            for _ in 0..<count {
                // 25 Hz; or steps between 20 and 60 ms that never repeat, so F and Q are computed every time.
                time +=
                    irregular
                    ? 0.02 + 0.04 * values[(step &* 7) & 4095].truncatingRemainder(dividingBy: 1).magnitude : 0.04
                try filter.predict(to: time)
                let record = try filter.update(values[step & 4095], kind: kinds[step & 1], variance: 4, gate: gate)
                nisSum += record.normalizedInnovationSquared
                step &+= 1
            }
            return nisSum
        }
    }

    /// Times predict + one scalar update; returns ns per step and heap allocations per step.
    static func measureFilter(stateCount n: Int, irregular: Bool = false) throws -> (Statistics, Double) {
        var loop = Loop(
            filter: try makeFilter(stateCount: n, recordsRun: false), kinds: kinds(stateCount: n),
            gate: try Gate.mahalanobis(5), values: values, irregular: irregular)
        var nanoseconds: [Double] = []
        for sample in 0..<(warmUpSamples + samples) {
            let start = DispatchTime.now().uptimeNanoseconds
            sink += try loop.run(stepsPerSample)
            let end = DispatchTime.now().uptimeNanoseconds
            if sample >= warmUpSamples { nanoseconds.append(Double(end - start) / Double(stepsPerSample)) }
        }
        let allocations = try AllocationCounter.allocations { sink += try loop.run(stepsPerSample) } ?? -stepsPerSample
        sink += loop.filter.mean[0, 0]
        return (Statistics(nanoseconds), Double(allocations) / Double(stepsPerSample))
    }

    /// Times RTS smoother steps over a recorded run; returns ns per step and heap allocations per step.
    static func measureSmoother(stateCount n: Int) throws -> (Statistics, Double) {
        var filter = try makeFilter(stateCount: n, recordsRun: true)
        let kinds = kinds(stateCount: n)
        var time = 0.0
        for step in 0..<stepsPerSample {
            time += 0.04
            try filter.predict(to: time)
            try filter.update(values[step & 4095], kind: kinds[step & 1], variance: 4)
        }
        guard let run = filter.recordedRun else { return (Statistics([.nan]), .nan) }
        var smoother = RauchTungStriebelSmoother(stateCount: n)
        var nanoseconds: [Double] = []
        let steps = Double(run.epochCount - 1)
        for sample in 0..<(warmUpSamples + samples) {
            let start = DispatchTime.now().uptimeNanoseconds
            let smoothed = try smoother.smooth(run)
            let end = DispatchTime.now().uptimeNanoseconds
            sink += smoothed.means[0]
            if sample >= warmUpSamples { nanoseconds.append(Double(end - start) / steps) }
        }
        // smooth(_:) allocates its result (two arrays and the run's times), once per run, not per step.
        let allocations = try AllocationCounter.allocations { sink += try smoother.smooth(run).means[0] } ?? -Int(steps)
        return (Statistics(nanoseconds), Double(allocations) / steps)
    }
}
