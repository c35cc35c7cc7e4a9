import Foundation
import LinearAlgebra
import Testing

@testable import Optimization

@Suite("NumericalHessian")
struct NumericalHessianTests {
    @Test("The Hessian of a quadratic form is its matrix, and its inverse the covariance")
    func quadratic() throws {
        // f(x) = ½ xᵀ A x with A symmetric positive definite: ∇²f = A exactly (central differences are exact on
        // quadratics up to rounding).
        let A = Matrix([[4, 1, 0.5], [1, 3, -0.2], [0.5, -0.2, 2]])
        let f: ([Double]) -> Double = { x in
            var s = 0.0
            for i in 0..<3 { for j in 0..<3 { s += 0.5 * x[i] * A[i, j] * x[j] } }
            return s
        }
        let H = NumericalHessian.at([0.3, -0.7, 1.1], step: [1e-2, 1e-2, 1e-2], of: f)
        for i in 0..<3 { for j in 0..<3 { #expect(abs(H[i, j] - A[i, j]) < 1e-6, "H[\(i),\(j)] = \(H[i, j])") } }
        let inverse = try #require(NumericalHessian.inverseOfPositiveDefinite(H))
        let product = inverse * A
        for i in 0..<3 { for j in 0..<3 { #expect(abs(product[i, j] - (i == j ? 1 : 0)) < 1e-6) } }
    }

    @Test("A direction without curvature gives no inverse")
    func flat() {
        let H = NumericalHessian.at([1, 2], step: [0.1, 0.1]) { x in x[0] * x[0] }
        #expect(NumericalHessian.inverseOfPositiveDefinite(H) == nil)
    }
}
