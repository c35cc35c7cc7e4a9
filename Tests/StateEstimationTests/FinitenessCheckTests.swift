import Foundation
import Randomness
import Testing

@testable import StateEstimation

/// `FinitenessCheck` against `allSatisfy(\.isFinite)`.
@Suite("Finiteness check")
struct FinitenessCheckTests {
    @Test("Agrees with isFinite over every element, for runs with and without infinities and NaNs")
    func agreesWithIsFinite() {
        // GIVEN runs of numbers of every magnitude, some with a non-finite value among them
        var g = SeededGenerator(seed: 2_024)
        let specials: [Double] = [.infinity, -.infinity, .nan, -.nan, .signalingNaN, .greatestFiniteMagnitude, -0.0]
        for run in 0..<500 {
            var values = (0..<Int(g.uniform() * 12)).map { _ in
                g.gaussian() * pow(10, Double(Int(g.uniform() * 600) - 300))
            }
            if run % 2 == 0, !values.isEmpty {
                values[Int(g.uniform() * Double(values.count)) % values.count] =
                    specials[Int(g.uniform() * Double(specials.count)) % specials.count]
            }
            // WHEN each is shown to the check
            var check = FinitenessCheck()
            for v in values { check.include(v) }
            // THEN it says what isFinite says of them all
            #expect(check.allFinite == values.allSatisfy(\.isFinite), "run \(run): \(values)")
        }
    }

    @Test("The largest finite numbers stay finite: v − v does not overflow")
    func largestFinite() {
        var check = FinitenessCheck()
        for v in [Double.greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude] {
            check.include(v)
        }
        #expect(check.allFinite)
    }
}
