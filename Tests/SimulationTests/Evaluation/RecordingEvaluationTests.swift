import Altimetry
import Foundation
import Randomness
import Simulation
import Testing

@Suite("RecordingEvaluation")
struct RecordingEvaluationTests {
    static func readings(_ recording: SimulatedRecording) -> [AltitudeReading] {
        recording.readings.map { r in
            AltitudeReading(
                time: r.time, pressure: r.pressure, gpsAltitude: r.gpsAltitude,
                gpsVerticalAccuracy: r.gpsVerticalAccuracy, temperature: r.temperatureCelsius.map { $0 + 273.15 })
        }
    }

    @Test(
        "GIVEN the truth on every row WHEN scored THEN the filter and both baselines score as ScenarioEvaluation does")
    func matchesScenarioEvaluation() throws {
        let recording = try Scenario.named(.canyon, seed: 3, duration: 3_600).simulate()
        let rows = zip(recording.readings, Self.readings(recording)).map {
            RecordingEvaluation.Row(time: $0.time, reading: $1, reference: $0.trueAltitude)
        }
        let parameters = AltitudeModelParameters()
        let evaluation = try RecordingEvaluation(rows, parameters: parameters, truth: .reference, scoringStart: 600)
        let scenario = try ScenarioEvaluation(recording, parameters: parameters, scoringStart: 600)
        for name in RecordingEvaluation.estimatorNames {
            let a = try #require(evaluation.scores[name]), b = try #require(scenario.scores[name])
            #expect(a.count == b.count && a.covered == b.covered, "\(name)")
            #expect(abs(a.sumOfSquares - b.sumOfSquares) <= 1e-9 * b.sumOfSquares, "\(name)")
        }
        #expect(evaluation.gatedFixes.count == scenario.gatedFixes)
        #expect(evaluation.gatedFixes.count > 0, "the canyon's multipath outliers are gated")
    }

    @Test(
        "GIVEN the reference on rows of its own WHEN scored THEN each reading is scored against the nearest earlier one"
    )
    func carriesReference() throws {
        let recording = try Scenario.named(.hike, seed: 4, duration: 1_800).simulate()
        let readings = Self.readings(recording)
        // The reference on its own rows, every 5th reading only, a little before it.
        var separate: [RecordingEvaluation.Row] = []
        var carried: [RecordingEvaluation.Row] = []
        var last: Double?
        for (k, (r, reading)) in zip(recording.readings, readings).enumerated() {
            if k % 5 == 0 {
                separate.append(.init(time: r.time - 0.01, reading: nil, reference: r.trueAltitude))
                last = r.trueAltitude
            }
            separate.append(.init(time: r.time, reading: reading))
            carried.append(.init(time: r.time, reading: reading, reference: last))
        }
        let a = try RecordingEvaluation(
            separate, parameters: AltitudeModelParameters(), truth: .reference, scoringStart: 300)
        let b = try RecordingEvaluation(
            carried, parameters: AltitudeModelParameters(), truth: .reference, scoringStart: 300)
        for name in RecordingEvaluation.estimatorNames {
            let x = try #require(a.scores[name]), y = try #require(b.scores[name])
            #expect(x.count == y.count && x.count > 1_000, "\(name)")
            #expect(abs(x.sumOfSquares - y.sumOfSquares) <= 1e-9 * y.sumOfSquares, "\(name)")
        }
        #expect(a.readingCount == readings.count)
    }

    @Test(
        "GIVEN a device standing still WHEN scored against the static truth THEN the truth is the median fix after the warm-up"
    )
    func staticTruth() throws {
        let recording = try Scenario.named(.static, seed: 5, duration: 3_600).simulate()
        let rows = zip(recording.readings, Self.readings(recording)).map {
            RecordingEvaluation.Row(time: $0.time, reading: $1)
        }
        let evaluation = try RecordingEvaluation(
            rows, parameters: AltitudeModelParameters(), truth: .staticMedian,
            scoringStart: 600)
        let truth = try #require(evaluation.staticTruth)
        let fixes = recording.readings.filter { $0.time >= 600 }.compactMap(\.gpsAltitude).sorted()
        #expect(truth.fixCount == fixes.count)
        #expect(
            abs(truth.altitude - (fixes[fixes.count / 2 - 1] + fixes[fixes.count / 2]) / 2) < 1e-9
                || fixes.count % 2 == 1)
        // The median of 50 min of a 10 m, 60 s GPS errs by about 10 √(2·60/3000) ≈ 2 m; within 4 sigma of the truth.
        let trueAltitude = try #require(recording.readings.last?.trueAltitude)
        #expect(abs(truth.altitude - trueAltitude) < 8, "median \(truth.altitude), truth \(trueAltitude)")
        #expect((evaluation.scores["kalman"]?.count ?? 0) > 0)
    }

    @Test("Scoring past the end, or a static truth without enough fixes, is a typed error")
    func errors() throws {
        let recording = try Scenario.named(.static, seed: 6, duration: 300).simulate()
        let rows = zip(recording.readings, Self.readings(recording)).map {
            RecordingEvaluation.Row(time: $0.time, reading: $1, reference: $0.trueAltitude)
        }
        #expect(throws: RecordingEvaluationError.self) {
            try RecordingEvaluation(rows, parameters: AltitudeModelParameters(), truth: .reference, scoringStart: 600)
        }
        #expect {
            try RecordingEvaluation(
                rows, parameters: AltitudeModelParameters(), truth: .staticMedian, scoringStart: 600)
        } throws: { error in
            guard case .tooFewFixesForStaticTruth(let found, _) = error as? RecordingEvaluationError else {
                return false
            }
            return found == 0
        }
        let backwards = [
            RecordingEvaluation.Row(time: 10, reading: AltitudeReading(time: 10, pressure: 1000)),
            RecordingEvaluation.Row(time: 5, reading: AltitudeReading(time: 5, pressure: 1000)),
        ]
        #expect {
            try RecordingEvaluation(backwards, parameters: AltitudeModelParameters(), truth: nil)
        } throws: { error in
            guard case .refused(let index, _) = error as? RecordingEvaluationError else { return false }
            return index == 1
        }
    }

    @Test("Without a truth nothing is scored, and a GPS noisier than the model raises the accepted fixes' NIS")
    func truthFree() throws {
        let recording = try Scenario.named(.hike, seed: 8, duration: 7_200).simulate()
        let clean = zip(recording.readings, Self.readings(recording)).map {
            RecordingEvaluation.Row(time: $0.time, reading: $1)
        }
        var generator = SeededGenerator(seed: 9)
        let noisy = clean.map { row in
            var row = row
            if var reading = row.reading, let z = reading.gpsAltitude {
                reading.gpsAltitude = z + 4 * generator.gaussian()
                row.reading = reading
            }
            return row
        }
        let a = try RecordingEvaluation(clean, parameters: AltitudeModelParameters(), truth: nil)
        let b = try RecordingEvaluation(noisy, parameters: AltitudeModelParameters(), truth: nil)
        #expect(a.scores.isEmpty && b.scores.isEmpty)
        // Under the model, fixes 0.9 s after a pressure: S = σ_e²(1 − φ²) + σ_w² + q(v) Δt + ... ≈ 3.3 + 1 + 0.9 to 1.6
        // m² (the altitude's walk at a hiker's 0 to 0.3 m/s: 1 to 1.8 m²/s), of which the data show the first two:
        // mean NIS ≈ 0.75 to 0.8 (0.86 measured; with a still device's walk at the moving one's 10 m²/s it was 0.48).
        // 4 m of extra white noise adds 16 m² to the innovation variance, about 3 to the NIS, much of it gated away:
        // > +0.5.
        #expect(a.acceptedFixMeanNIS > 0.7 && a.acceptedFixMeanNIS < 1, "clean \(a.acceptedFixMeanNIS)")
        #expect(
            b.acceptedFixMeanNIS > a.acceptedFixMeanNIS + 0.5,
            "noisy \(b.acceptedFixMeanNIS), clean \(a.acceptedFixMeanNIS)")
    }
}

@Suite("StaticTruth")
struct StaticTruthTests {
    @Test("The block-median standard error matches the spread of the median over many independent stretches")
    func standardError() throws {
        var medians: [Double] = []
        var variances: [Double] = []
        for seed in 0..<300 as Range<UInt64> {
            var generator = SeededGenerator(seed: 100 + seed)
            let fixes = (0..<400).map { (time: Double($0), altitude: 50 + 4 * generator.gaussian()) }
            let truth = try #require(StaticTruth(fixes: fixes))
            medians.append(truth.altitude)
            variances.append(truth.standardError * truth.standardError)
        }
        let mean = medians.reduce(0, +) / Double(medians.count)
        let spread = (medians.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(medians.count - 1)).squareRoot()
        let reported = (variances.reduce(0, +) / Double(variances.count)).squareRoot()
        // Block medians of 40 are noisier than the median of 400 (π/2 over the mean's variance at both sizes, so the
        // ratio holds); 300 stretches give the spread to about 4 %, the mean variance to about 5 %.
        #expect(abs(reported / spread - 1) < 0.15, "reported \(reported), spread \(spread)")
        #expect(abs(spread - 4 * (Double.pi / 2 / 400).squareRoot()) < 0.1 * spread, "spread \(spread)")
    }

    @Test("Fewer than two fixes a block give no static truth")
    func tooFew() {
        #expect(StaticTruth(fixes: (0..<19).map { (Double($0), 1.0) }) == nil)
        #expect(StaticTruth(fixes: (0..<20).map { (Double($0), 1.0) })?.standardError == 0)
    }
}
