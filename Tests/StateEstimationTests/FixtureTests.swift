import Foundation
import LinearAlgebra
import StateEstimation
import Testing

/// The engine against an independent numpy implementation (Fixtures/generate_fixtures.py).
///
/// Tolerance: 1e-9 relative, each element against max(|reference|, its natural scale), the scale of a covariance
/// element (i, j) being √(PᵢᵢPⱼⱼ) and that of a mean element i being √Pᵢᵢ, so that elements that happen to be
/// near zero are compared against the size of their neighbours rather than against zero.
@Suite("Fixtures from numpy")
struct FixtureTests {
    struct Fixture: Decodable {
        struct Gate: Decodable {
            var threshold: Double
            var action: String
        }
        struct Measurement: Decodable {
            var time: Double
            var kind: String
            var value: Double
            var variance: Double
            var gate: Gate?
        }
        struct Epoch: Decodable {
            var time: Double
            var filtered_mean: [Double]
            var filtered_covariance: [[Double]]
            var smoothed_mean: [Double]
            var smoothed_covariance: [[Double]]
        }
        struct Record: Decodable {
            var time: Double
            var innovation: Double
            var innovation_variance: Double
            var nis: Double
            var log_likelihood: Double
            var decision: String
            var factor: Double
        }
        var model: [String: Double]
        var initial_time: Double
        var initial_mean: [Double]
        var initial_covariance: [[Double]]
        var kinds: [String: [Double]]
        var measurements: [Measurement]
        var epochs: [Epoch]
        var records: [Record]
    }

    static let tolerance = 1e-9

    static func model(for name: String, _ parameters: [String: Double]) throws -> BlockDiagonalModel {
        if name == "constant_velocity" {
            return try BlockDiagonalModel([
                .constantVelocity(accelerationNoiseDensity: parameters["acceleration_noise_density"] ?? .nan)
            ])
        }
        return try BlockDiagonalModel([
            .randomWalk(noiseDensity: parameters["noise_density"] ?? .nan),
            .gaussMarkov(
                standardDeviation: parameters["standard_deviation"] ?? .nan,
                correlationTime: parameters["correlation_time"] ?? .nan),
        ])
    }

    static func expectClose(_ actual: Matrix, _ expected: Matrix, scale: (Int, Int) -> Double, _ what: String) {
        for j in 0..<expected.columns {
            for i in 0..<expected.rows {
                let reference = expected[i, j]
                let error = abs(actual[i, j] - reference) / max(abs(reference), scale(i, j))
                #expect(error <= tolerance, "\(what) (\(i), \(j)): \(actual[i, j]) vs numpy \(reference)")
            }
        }
    }

    @Test(
        "Filter, records and smoother match numpy to 1e-9 relative",
        arguments: ["constant_velocity", "random_walk_gauss_markov"])
    func matchesNumpy(name: String) throws {
        let fixture = try JSONDecoder().decode(Fixture.self, from: TestSupport.fixtureData(name))
        let model = try Self.model(for: name, fixture.model)
        var filter = try KalmanFilter(
            model: model, time: fixture.initial_time, mean: fixture.initial_mean,
            covariance: Matrix(fixture.initial_covariance), recordsRun: true)
        var kinds: [String: LinearMeasurement] = [:]
        for (key, row) in fixture.kinds { kinds[key] = LinearMeasurement(observationRow: row) }

        var records: [ScalarUpdateRecord] = []
        for measurement in fixture.measurements {
            let kind = try #require(kinds[measurement.kind])
            var gate = Gate.off
            if let g = measurement.gate {
                gate = try .mahalanobis(g.threshold.squareRoot(), action: g.action == "reject" ? .reject : .inflate)
            }
            try filter.predict(to: measurement.time)
            records.append(try filter.update(measurement.value, kind: kind, variance: measurement.variance, gate: gate))
        }

        // Update records.
        try #require(records.count == fixture.records.count)
        for (record, reference) in zip(records, fixture.records) {
            #expect(record.time == reference.time)
            let s = reference.innovation_variance
            #expect(
                abs(record.innovation - reference.innovation) <= Self.tolerance
                    * max(abs(reference.innovation), s.squareRoot()))
            #expect(abs(record.innovationVariance - s) <= Self.tolerance * s)
            #expect(abs(record.normalizedInnovationSquared - reference.nis) <= Self.tolerance * max(reference.nis, 1))
            #expect(
                abs(record.logLikelihoodIncrement - reference.log_likelihood) <= Self.tolerance
                    * max(abs(reference.log_likelihood), 1))
            switch (record.decision, reference.decision) {
            case (.accepted, "accepted"), (.rejected, "rejected"): break
            case (.inflated(let factor), "inflated"):
                #expect(abs(factor - reference.factor) <= Self.tolerance * reference.factor)
            default:
                Issue.record("t = \(record.time): decision \(record.decision), numpy says \(reference.decision)")
            }
        }

        // Filtered and smoothed epochs.
        let run = try #require(filter.recordedRun)
        let smoothed = try run.smoothed()
        try #require(run.epochCount == fixture.epochs.count)
        for (k, epoch) in fixture.epochs.enumerated() {
            #expect(run.times[k] == epoch.time)
            let p = Matrix(epoch.filtered_covariance)
            let ps = Matrix(epoch.smoothed_covariance)
            Self.expectClose(
                run.filteredMean(at: k), Matrix(column: epoch.filtered_mean),
                scale: { i, _ in p[i, i].squareRoot() }, "\(name) filtered mean, epoch \(k)")
            Self.expectClose(
                run.filteredCovariance(at: k), p,
                scale: { i, j in (p[i, i] * p[j, j]).squareRoot() }, "\(name) filtered covariance, epoch \(k)")
            Self.expectClose(
                smoothed.mean(at: k), Matrix(column: epoch.smoothed_mean),
                scale: { i, _ in ps[i, i].squareRoot() }, "\(name) smoothed mean, epoch \(k)")
            Self.expectClose(
                smoothed.covariance(at: k), ps,
                scale: { i, j in (ps[i, i] * ps[j, j]).squareRoot() }, "\(name) smoothed covariance, epoch \(k)")
        }
    }
}
