import Foundation
import LinearAlgebra
import StateEstimation
import Testing

/// 10⁶ steps of a badly scaled problem against the same filter computed in 80-bit extended precision.
///
/// Two random walks with process noise densities 10⁻² and 10⁻¹⁰ start from a prior of variance 10⁸ with
/// correlation 1 − 10⁻⁹. Every step predicts 0.1 s and measures x₀ + x₁ with variance 10⁻⁸; every tenth step
/// also measures x₀ with variance 10⁴. The sum is then known to 10⁻⁴ while the difference is not, so P stays
/// nearly singular (correlation close to −1) for the whole run. The reference is the Joseph-form filter in
/// `Float80` (64-bit significand), written out for n = 2.
@Suite("Numerical robustness")
struct RobustnessTests {
    static let steps = 1_000_000

    struct ExtendedFilter {
        var x: (Float80, Float80)
        var p: (Float80, Float80, Float80)  // P₀₀, P₁₀, P₁₁

        mutating func predict(q0: Float80, q1: Float80) {
            p.0 += q0
            p.2 += q1
        }

        mutating func update(z: Float80, h: (Float80, Float80), r: Float80) {
            let u0 = p.0 * h.0 + p.1 * h.1
            let u1 = p.1 * h.0 + p.2 * h.1
            let s = h.0 * u0 + h.1 * u1 + r
            let k0 = u0 / s, k1 = u1 / s
            let y = z - (h.0 * x.0 + h.1 * x.1)
            x = (x.0 + k0 * y, x.1 + k1 * y)
            // A = I − k h; P = A P Aᵀ + r k kᵀ
            let a00 = 1 - k0 * h.0, a01 = -k0 * h.1, a10 = -k1 * h.0, a11 = 1 - k1 * h.1
            let b00 = a00 * p.0 + a01 * p.1, b01 = a00 * p.1 + a01 * p.2
            let b10 = a10 * p.0 + a11 * p.1, b11 = a10 * p.1 + a11 * p.2
            p = (
                b00 * a00 + b01 * a01 + r * k0 * k0,
                b10 * a00 + b11 * a01 + r * k1 * k0,
                b10 * a10 + b11 * a11 + r * k1 * k1
            )
        }
    }

    @Test("10⁶ badly scaled steps keep P symmetric positive definite and within 1e-6 of 80-bit precision")
    func badlyScaled() throws {
        let dt = 0.1, q0 = 1e-2, q1 = 1e-10
        let model = try BlockDiagonalModel([.randomWalk(noiseDensity: q0), .randomWalk(noiseDensity: q1)])
        let rho = 1 - 1e-9
        let p0 = 1e8 * Matrix([[1, rho], [rho, 1]])
        var filter = try KalmanFilter(model: model, time: 0, mean: [0, 0], covariance: p0)
        var reference = ExtendedFilter(x: (0, 0), p: (Float80(p0[0, 0]), Float80(p0[1, 0]), Float80(p0[1, 1])))
        let sum = LinearMeasurement(observationRow: [1, 1])
        let first = LinearMeasurement(observationRow: [1, 0])
        var worst = 0.0
        var time = 0.0
        var checks = 0
        for step in 0..<Self.steps {
            time = Double(step + 1) * dt
            try filter.predict(to: time)
            reference.predict(q0: Float80(q0 * dt), q1: Float80(q1 * dt))
            // Deterministic, slowly varying measurements: the covariance does not depend on them.
            let truth = 1000 * sin(Double(step) * 1e-4)
            try filter.update(truth, kind: sum, variance: 1e-8)
            reference.update(z: Float80(truth), h: (1, 1), r: 1e-8)
            if step % 10 == 9 {
                try filter.update(truth / 2, kind: first, variance: 1e4)
                reference.update(z: Float80(truth / 2), h: (1, 0), r: 1e4)
            }
            let p = filter.covariance
            // Positive definite at every step: positive diagonal and P₀₀ P₁₁ > P₁₀², evaluated in extended precision.
            let determinant = Float80(p[0, 0]) * Float80(p[1, 1]) - Float80(p[1, 0]) * Float80(p[1, 0])
            if !(p[0, 0] > 0 && p[1, 1] > 0 && determinant > 0) || p.asymmetry != 0 {
                Issue.record("step \(step): P is not symmetric positive definite: \(p)")
                return
            }
            if step < 100 || step % 997 == 0 || step == Self.steps - 1 {
                let r = reference.p
                let scale = (Double(r.0) * Double(r.2)).squareRoot()
                worst = max(
                    worst, abs(p[0, 0] - Double(r.0)) / Double(r.0), abs(p[1, 1] - Double(r.2)) / Double(r.2),
                    abs(p[1, 0] - Double(r.1)) / scale)
                checks += 1
                if step % 99_700 == 0 { #expect(TestSupport.isPositiveDefinite(p), "step \(step)") }
            }
        }
        #expect(worst <= 1e-6, "largest relative difference from the 80-bit reference: \(worst)")
        #expect(checks > 1000)
        // The problem is as hard as advertised: the correlation is within 1e-6 of −1.
        let p = filter.covariance
        #expect(p[1, 0] / (p[0, 0] * p[1, 1]).squareRoot() < -1 + 1e-6)
    }
}
