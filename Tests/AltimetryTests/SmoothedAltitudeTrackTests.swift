import Simulation
import Testing

@testable import Altimetry

@Suite("SmoothedAltitudeTrack")
struct SmoothedAltitudeTrackTests {
    static func track(_ parameters: AltitudeModelParameters = AltitudeModelParameters()) throws -> SmoothedAltitudeTrack
    {
        let recording = try Scenario.named(.cold, seed: 3, duration: 1_800).simulate()
        return try SmoothedAltitudeTrack(
            AscentAnalysisTests.readings(recording, temperature: false), parameters: parameters)
    }

    @Test(
        "The variance of one altitude is the smoothed estimate's own sigma squared, with and without the column state")
    func singleAltitude() throws {
        var plain = AltitudeModelParameters()
        plain.estimatesColumnTemperature = false
        for parameters in [AltitudeModelParameters(), plain] {
            let track = try Self.track(parameters)
            let indices = [0, 400, 900, track.smoothed.count - 1]
            let variances = try track.variances(of: indices.map { [($0, 1.0)] })
            for (i, v) in zip(indices, variances) {
                // `AltitudeFilter.estimate` forms σ_h from P's (U, C) block of the same epoch: an independent path.
                let sigma = track.smoothed[i].altitudeStandardDeviation
                #expect(abs(v.squareRoot() - sigma) < 1e-6 * sigma, "reading \(i): \(v.squareRoot()) against \(sigma)")
            }
        }
    }

    @Test("The column's share of a variance is at most the whole, and zero without the column state")
    func columnShare() throws {
        let combinations: [[(index: Int, weight: Double)]] = [
            [(0, -1), (1_200, 1)], [(300, 1)], [(10, -0.5), (11, -0.5), (600, 1)],
        ]
        let track = try Self.track()
        let whole = try track.variances(of: combinations)
        let column = try track.columnVariances(of: combinations)
        #expect(zip(whole, column).allSatisfy { $1 >= 0 && $1 <= $0 * (1 + 1e-9) }, "\(whole) \(column)")
        // One altitude against the column at its own epoch: Cov(h, C) = (dh/dU) P_UC + (dh/dC) P_CC from the smoothed
        // covariance there (dh/dC = m/T₀, m the height moved), so the share is Cov²/P_CC, computed here without the
        // sweep.
        let run = try #require(track.smoothedRun)
        let epoch = track.epochs[300]
        let x = run.mean(at: epoch), P = run.covariance(at: epoch)
        let c = try #require(track.parameters.columnIndex)
        let T0 = StandardAtmosphere.seaLevelTemperature
        let slope = LogPressureCoordinates.altitudeDerivative(x[0, 0])
        let dU = slope, dC = track.filtered[300].heightMoved / T0
        let covariance = dU * P[0, c] + dC * P[c, c]
        let expected = covariance * covariance / P[c, c]
        #expect(abs(column[1] - expected) < 1e-6 * whole[1], "\(column[1]) against \(expected)")
        var plain = AltitudeModelParameters()
        plain.estimatesColumnTemperature = false
        #expect(try Self.track(plain).columnVariances(of: combinations) == [0, 0, 0])
    }
}
