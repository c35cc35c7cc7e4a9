import Simulation
import Testing

@testable import Altimetry

/// The default filter's Monte Carlo consistency told the true receiver (`ConsistencyStudy`): a few seeds here, 100
/// in `altimetry-bench consistency`.
@Suite("Consistency of the default filter")
struct ConsistencyStudyTests {
    /// GIVEN recordings drawn from the model's own assumptions over the grid (six receivers of 2 to 30 m and 30 s to
    /// an hour, two weather rates, four profiles), WHEN the default filter is told the true receiver and weather
    /// THEN, pooled over two seeds of every case (about 3.2 million scored rows), the coverage lies within 0.60 to
    /// 0.80 and the mean NEES within 0.7 to 1.4; and each receiver, pooled over its 16 recordings, within 0.55 to 0.85
    /// (the pooled coverage of a few long-correlated errors has a standard error of about 0.05).
    @Test("Under the model's own assumptions the default covers about 68 % with a NEES near 1")
    func ownAssumptions() throws {
        var pooled = EstimatorScore()
        var byReceiver: [String: EstimatorScore] = [:]
        for c in ConsistencyStudy.grid(effect: .none) {
            let score = try ConsistencyStudy.score(c, seeds: 1...2)
            pooled.merge(score)
            byReceiver["\(c.spread) m / \(c.correlationTime) s", default: EstimatorScore()].merge(score)
        }
        #expect((0.60...0.80).contains(pooled.coverage), "coverage \(pooled.coverage)")
        #expect((0.7...1.4).contains(pooled.meanNEES), "NEES \(pooled.meanNEES)")
        for (receiver, score) in byReceiver {
            #expect((0.55...0.85).contains(score.coverage), "\(receiver): coverage \(score.coverage)")
        }
    }

    /// GIVEN the same grid with what the extensions exist for (a column ±20 K from standard, a 4 hPa front, a 30 hPa
    /// barometer step and a 50 m GPS jump), THEN pooled over one seed of every case the coverage stays within 0.55
    /// to 0.85.
    @Test(
        "With hot and cold columns, fronts and faults the default stays honest",
        arguments: [ConsistencyStudy.Effect.hot, .cold, .front, .faults])
    func extensions(effect: ConsistencyStudy.Effect) throws {
        var pooled = EstimatorScore()
        for c in ConsistencyStudy.grid(effect: effect) { pooled.merge(try ConsistencyStudy.score(c, seeds: 1...1)) }
        // Known shortfall (seed 1): through the front the coverage falls to 0.37 (the fall of 4 hPa in an hour is
        // beyond the model's weather, and the altitude takes part of it with a tight sigma).
        withKnownIssue("the default is overconfident through a 4 hPa/h front") {
            #expect((0.55...0.85).contains(pooled.coverage), "\(effect): coverage \(pooled.coverage)")
        } when: {
            effect == .front
        }
    }
}
