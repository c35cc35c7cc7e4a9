import Randomness
import Testing

@testable import Altimetry

/// `StateExponentials` against the functions it keeps, on repeated and changing arguments.
@Suite("State exponentials")
struct StateExponentialsTests {
    @Test("Every answer has the bits of computing it afresh, whether the argument repeats or not")
    func matchesFreshComputation() {
        // GIVEN a sequence of states in which values repeat (as between a row's estimate and the next row's
        // scaling), change, come back, and include ±0
        var g = SeededGenerator(seed: 31)
        var arguments: [Double] = [0, -0.0, -0.0, 0, 1_000]
        var last = 1_000.0
        for _ in 0..<2_000 {
            if g.uniform() < 0.5 { last = (g.uniform() - 0.2) * 12_000 }
            arguments.append(last)
        }
        var exponentials = StateExponentials()
        for x in arguments {
            // WHEN both exponentials are asked at each
            let slope = exponentials.altitudeDerivative(x)
            let qnh = exponentials.seaLevelPressure(x / 50)
            // THEN each has the bits of the function itself
            #expect(slope.bitPattern == LogPressureCoordinates.altitudeDerivative(x).bitPattern, "U = \(x)")
            #expect(qnh.bitPattern == LogPressureCoordinates.seaLevelPressure(x / 50).bitPattern, "B = \(x / 50)")
        }
    }

    @Test("A fresh value answers the first argument, even the one it was made at")
    func firstQuestions() {
        var exponentials = StateExponentials()
        #expect(exponentials.altitudeDerivative(0) == 1)
        #expect(exponentials.seaLevelPressure(0) == StandardAtmosphere.seaLevelPressure)
        var other = StateExponentials()
        #expect(other.altitudeDerivative(500) == LogPressureCoordinates.altitudeDerivative(500))
        #expect(other.altitudeDerivative(-.infinity).isInfinite)
        #expect(other.seaLevelPressure(.nan).isNaN)
    }
}
