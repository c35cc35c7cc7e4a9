import Foundation
import Testing

@testable import Optimization

@Suite("NelderMead")
struct NelderMeadTests {
    @Test("Finds the minimum of the Rosenbrock valley from a standard start")
    func rosenbrock() {
        // f(x, y) = (1 − x)² + 100 (y − x²)², minimum 0 at (1, 1): a curved valley that defeats naive searches.
        let f: ([Double]) -> Double = { x in (1 - x[0]) * (1 - x[0]) + 100 * (x[1] - x[0] * x[0]) * (x[1] - x[0] * x[0])
        }
        let result = NelderMead(valueTolerance: 1e-14, pointTolerance: 1e-9, maximumEvaluations: 5_000)
            .minimize(f, from: [-1.2, 1], step: [0.5, 0.5])
        #expect(result.converged)
        #expect(abs(result.point[0] - 1) < 1e-5 && abs(result.point[1] - 1) < 1e-5, "ended at \(result.point)")
        #expect(result.value < 1e-10)
    }

    @Test("Minimises a shifted quadratic in six dimensions, treating non-finite values as walls")
    func quadraticWithWall() {
        let target = [0.3, -1.0, 2.0, 0.5, -0.2, 1.5]
        let f: ([Double]) -> Double = { x in
            if x[0] < 0 { return .nan }  // outside the domain
            return zip(x, target).enumerated().reduce(0) {
                $0 + Double($1.offset + 1) * ($1.element.0 - $1.element.1) * ($1.element.0 - $1.element.1)
            }
        }
        let result = NelderMead(valueTolerance: 1e-12, pointTolerance: 1e-7, maximumEvaluations: 20_000)
            .minimize(f, from: [1, 0, 0, 0, 0, 0], step: Array(repeating: 0.5, count: 6))
        for (x, t) in zip(result.point, target) { #expect(abs(x - t) < 1e-4, "ended at \(result.point)") }
    }

    @Test("Stops at the evaluation budget and says it did not converge")
    func budget() {
        var count = 0
        let result = NelderMead(valueTolerance: 0, pointTolerance: 0, maximumEvaluations: 50)
            .minimize(
                { x in
                    count += 1
                    return x[0] * x[0] + x[1] * x[1]
                }, from: [3, 4], step: [1, 1])
        #expect(!result.converged)
        #expect(count <= 60)
    }
}
