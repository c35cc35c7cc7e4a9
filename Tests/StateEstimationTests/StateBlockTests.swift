import Foundation
import LinearAlgebra
import StateEstimation
import Testing

@Suite("State blocks")
struct StateBlockTests {
    static let blocks: [StateBlock] = [
        .randomWalk(noiseDensity: 0.3),
        .gaussMarkov(standardDeviation: 10, correlationTime: 60),
        .constantVelocity(accelerationNoiseDensity: 0.7),
    ]

    static func discretize(_ block: StateBlock, _ dt: Double) -> (Matrix, Matrix) {
        var f = Matrix(rows: block.stateCount, columns: block.stateCount)
        var q = f
        block.write(over: dt, at: 0, transition: &f, processNoise: &q)
        return (f, q)
    }

    @Test("Discretisation is exact: two steps compose into one", arguments: blocks)
    func composition(block: StateBlock) {
        let (f1, q1) = Self.discretize(block, 0.7)
        let (f2, q2) = Self.discretize(block, 2.6)
        let (f, q) = Self.discretize(block, 3.3)
        #expect(TestSupport.maxRelativeDifference(f2 * f1, f, floor: 1e-12) < 1e-12)
        // Q(dt₁ + dt₂) = F(dt₂) Q(dt₁) F(dt₂)ᵀ + Q(dt₂)
        #expect(TestSupport.maxRelativeDifference(f2 * q1 * f2.transposed + q2, q, floor: 1e-12) < 1e-12)
    }

    @Test("A Gauss-Markov state keeps its stationary variance: φ² σ² + q = σ²")
    func gaussMarkovStationary() {
        for dt in [0.01, 1, 60, 1000] {
            let (f, q) = Self.discretize(.gaussMarkov(standardDeviation: 10, correlationTime: 60), dt)
            #expect(abs(f[0, 0] - exp(-dt / 60)) < 1e-15)
            #expect(abs(f[0, 0] * f[0, 0] * 100 + q[0, 0] - 100) < 1e-12)
        }
    }

    @Test("Constant-velocity Q is the integral of F(s) G G' F(s)' q over the step")
    func constantVelocityNoise() {
        let dt = 1.7, density = 0.7
        let (_, q) = Self.discretize(.constantVelocity(accelerationNoiseDensity: density), dt)
        // ∫₀^dt [s; 1][s 1] q ds by the midpoint rule on many slices.
        var integral = Matrix(rows: 2, columns: 2)
        let slices = 20_000
        for i in 0..<slices {
            let s = (Double(i) + 0.5) * dt / Double(slices)
            integral = integral + (density * dt / Double(slices)) * Matrix([[s * s, s], [s, 1]])
        }
        #expect(TestSupport.maxRelativeDifference(q, integral) < 1e-8)
    }

    @Test("Blocks land on the diagonal of a block-diagonal model, which round-trips through JSON")
    func blockDiagonal() throws {
        let model = try BlockDiagonalModel(Self.blocks)
        #expect(model.stateCount == 4)
        #expect(model.offset(ofBlock: 2) == 2)
        var f = Matrix(rows: 4, columns: 4), q = f
        model.discretize(over: 2, transition: &f, processNoise: &q)
        #expect(f[2, 3] == 2 && f[0, 1] == 0 && f[1, 2] == 0)
        #expect(q[0, 0] == 0.6)
        let decoded = try JSONDecoder().decode(BlockDiagonalModel.self, from: JSONEncoder().encode(model))
        #expect(decoded == model)
        let bad = Data(#"{"blocks":[{"randomWalk":{"noiseDensity":-1}}]}"#.utf8)
        #expect(throws: EstimationError.self) { _ = try JSONDecoder().decode(BlockDiagonalModel.self, from: bad) }
    }
}
