import Foundation
import LinearAlgebra
import Randomness
import StateEstimation
import Testing

@Suite("Filter checkpoints")
struct FilterCheckpointTests {
    static let kinds = [LinearMeasurement(observationRow: [1, 1, 0]), LinearMeasurement(observationRow: [1, 0, 1])]

    static func measurements(seed: UInt64) -> [TimedMeasurement<LinearMeasurement>] {
        var random = SeededGenerator(seed: seed)
        var time = 0.0
        return (0..<200).map { i in
            time += random.uniform() < 0.2 ? 0 : 0.01 + random.uniform()
            return TimedMeasurement(
                time: time, kind: kinds[i % 2], value: 100 + 10 * random.gaussian(),
                variance: 1 + random.uniform(), gate: i % 3 == 0 ? .off : .mahalanobis5)
        }
    }

    static func filter() throws -> KalmanFilter<BlockDiagonalModel> {
        try KalmanFilter(
            model: BlockDiagonalModel([
                .randomWalk(noiseDensity: 0.3), .gaussMarkov(standardDeviation: 10, correlationTime: 60),
                .gaussMarkov(standardDeviation: 2, correlationTime: 5),
            ]),
            time: 0, mean: [100, 0, 0], covariance: .diagonal([100, 100, 4]))
    }

    @Test("Encode, decode, continue: bit-identical to a run never interrupted", arguments: [1, 2, 3] as [UInt64])
    func bitIdentical(seed: UInt64) throws {
        let measurements = Self.measurements(seed: seed)
        var uninterrupted = try Self.filter()
        let expected = try uninterrupted.process(measurements)

        var first = try Self.filter()
        let head = try first.process(Array(measurements[..<77]))
        let data = try JSONEncoder().encode(first.checkpoint)
        let checkpoint = try JSONDecoder().decode(FilterCheckpoint<BlockDiagonalModel>.self, from: data)
        #expect(checkpoint == first.checkpoint)
        var resumed = try KalmanFilter(restoring: checkpoint)
        let tail = try resumed.process(Array(measurements[77...]))

        // Equatable on Double is bitwise for finite values: every estimate and record is identical.
        #expect(head + tail == expected, "seed \(seed)")
        #expect(resumed.checkpoint == uninterrupted.checkpoint, "seed \(seed)")
    }

    @Test("A checkpoint from outside is validated like a prior")
    func validation() throws {
        var checkpoint = try Self.filter().checkpoint
        checkpoint.covariance[1, 1] = -1
        #expect(throws: EstimationError.notPositiveDefinite(.initialCovariance, leadingMinor: 2)) {
            _ = try KalmanFilter(restoring: checkpoint)
        }
        checkpoint = try Self.filter().checkpoint
        checkpoint.formatVersion = 99
        #expect(
            throws: EstimationError.invalidParameter(name: "checkpoint format version", value: 99, expectation: "1")
        ) {
            _ = try KalmanFilter(restoring: checkpoint)
        }
        checkpoint = try Self.filter().checkpoint
        checkpoint.mean = [1, 2]
        #expect(throws: EstimationError.dimensionMismatch(.initialMean, expected: "3 values", actual: "2 values")) {
            _ = try KalmanFilter(restoring: checkpoint)
        }
    }
}

extension Gate {
    /// The 5-sigma gate; `mahalanobis(5)` cannot throw.
    static let mahalanobis5: Gate = (try? .mahalanobis(5)) ?? .off
}

/// A checkpoint decoded from a file is checked against its model's state count before a filter can use it.
@Suite("Filter checkpoint decoding")
struct FilterCheckpointDecodingTests {
    /// A valid checkpoint as a JSON object, to corrupt.
    static func object() throws -> [String: Any] {
        let data = try JSONEncoder().encode(try FilterCheckpointTests.filter().checkpoint)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The decoding error's coding path (dotted) and description for `object`, or nil if it decodes.
    static func problem(_ object: [String: Any]) throws -> String? {
        let data = try JSONSerialization.data(withJSONObject: object)
        do {
            _ = try JSONDecoder().decode(FilterCheckpoint<BlockDiagonalModel>.self, from: data)
            return nil
        } catch let DecodingError.dataCorrupted(context) {
            return context.codingPath.map(\.stringValue).joined(separator: ".") + ": " + context.debugDescription
        }
    }

    @Test("A valid checkpoint decodes to what was encoded")
    func valid() throws {
        #expect(try Self.problem(try Self.object()) == nil)
    }

    @Test("A mean of another length than the state count is refused naming mean")
    func meanLength() throws {
        var object = try Self.object()
        object["mean"] = [100.0, 0]
        #expect(try Self.problem(object) == "mean: found 2 values, expected 3, the model's state count")
    }

    @Test("A covariance of other dimensions than the state count is refused naming covariance")
    func covarianceDimensions() throws {
        var object = try Self.object()
        object["covariance"] = ["rows": 2, "columns": 2, "elements": [1.0, 0, 0, 1]]
        #expect(try Self.problem(object) == "covariance: found 2 x 2, expected 3 x 3, the model's state count")
    }

    @Test("A covariance whose elements do not fill it is refused naming covariance.elements")
    func shortElements() throws {
        var object = try Self.object()
        var covariance = try #require(object["covariance"] as? [String: Any])
        covariance["elements"] = Array(repeating: 1.0, count: 8)
        object["covariance"] = covariance
        #expect(try Self.problem(object) == "covariance.elements: found 8 values, expected 9 (3 x 3)")
    }
}
