import Altimetry
import LinearAlgebra

extension FuzzTarget {
    /// The altitude filter fed an arbitrary sequence of readings (see `ReadingDecoder` for how bytes become readings).
    ///
    /// The promises, after every reading: the filter either refuses it with a typed error that leaves it unchanged
    /// (an invalid value, no reading, time going backwards: the row is reported) or returns an estimate whose
    /// numbers are all finite, with a positive standard deviation, and a covariance P that stays symmetric
    /// (|P_ij − P_ji| ≤ 1e-9 √(P_ii P_jj)) and positive definite (its Cholesky factorisation succeeds), and a
    /// receiver in use with finite, positive spreads; with the receiver learned, the learner's weights stay finite
    /// and sum to one. A numerical failure on readings that passed validation is a finding.
    public static let fusion = FuzzTarget(
        name: "fusion",
        summary: "AltitudeFilter on arbitrary readings: finite estimates, covariance symmetric positive definite"
    ) { bytes in
        var decoder = ReadingDecoder(bytes)
        guard var filter = try? AltitudeFilter(parameters: decoder.parameters()) else {
            return FuzzFinding("the decoder's parameters were refused")
        }
        var index = 0
        while let reading = decoder.next() {
            defer { index += 1 }
            let before = FilterState(filter)
            let estimate: AltitudeEstimate
            do throws(AltitudeModelError) {
                estimate = try filter.process(reading)
            } catch {
                if case .numerical = error { return FuzzFinding("reading \(index) \(reading): \(error)") }
                guard FilterState(filter) == before else {
                    return FuzzFinding("reading \(index) \(reading): refused (\(error)) but the filter changed")
                }
                continue
            }
            if let finding = estimateFinding(estimate, filter: filter) {
                return FuzzFinding("reading \(index) \(reading): \(finding)")
            }
        }
        return nil
    }

    /// What is wrong with `estimate` and `filter`'s covariance, if anything.
    static func estimateFinding(_ e: AltitudeEstimate, filter: AltitudeFilter) -> String? {
        let numbers = [
            e.time, e.altitude, e.altitudeStandardDeviation, e.displayPrecision, e.relativeAltitude,
            e.seaLevelPressure, e.seaLevelPressureStandardDeviation, e.weatherTendency, e.gpsError,
            e.gpsErrorStandardDeviation,
        ]
        guard numbers.allSatisfy(\.isFinite) else { return "an estimate with a non-finite number: \(e)" }
        guard e.altitudeStandardDeviation > 0 else {
            return "altitude standard deviation \(e.altitudeStandardDeviation)"
        }
        let r = filter.receiver
        guard [r.errorStandardDeviation, r.correlationTime].allSatisfy({ $0.isFinite && $0 > 0 }) else {
            return "receiver \(r)"
        }
        if let weights = filter.learner?.weights {
            guard weights.allSatisfy(\.isFinite), abs(weights.reduce(0, +) - 1) <= 1e-9 else {
                return "learner weights \(weights)"
            }
        }
        guard let P = filter.engine?.covariance else { return "an estimate without an engine" }
        return covarianceFinding(P)
    }

    /// What is wrong with the covariance `P`, if anything: asymmetry beyond rounding, or no Cholesky factor.
    static func covarianceFinding(_ P: Matrix) -> String? {
        for j in 0..<P.columns {
            for i in 0..<j {
                let tolerance = 1e-9 * (P[i, i] * P[j, j]).squareRoot()
                guard abs(P[i, j] - P[j, i]) <= tolerance else {
                    return "covariance not symmetric at (\(i), \(j)): \(P[i, j]) against \(P[j, i])"
                }
            }
        }
        do { _ = try P.choleskyFactor() } catch { return "covariance not positive definite (\(error)): \(P)" }
        return nil
    }
}

/// The parts of an `AltitudeFilter` a refused reading must leave as they were.
private struct FilterState: Equatable {
    var time: Double?
    var mean: Matrix?
    var covariance: Matrix?
    var fixCount: Int
    var gatedFixCount: Int
    var learner: ReceiverLearner?

    init(_ filter: AltitudeFilter) {
        time = filter.engine?.time
        mean = filter.engine?.mean
        covariance = filter.engine?.covariance
        fixCount = filter.fixCount
        gatedFixCount = filter.gatedFixCount
        learner = filter.learner
    }
}
