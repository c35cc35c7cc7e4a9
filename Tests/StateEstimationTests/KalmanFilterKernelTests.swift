import Foundation
import LinearAlgebra
import Randomness
import StateEstimation
import Testing

/// The predict and scalar-update kernels (one loop nest each, unrolled for n = 3 to 5) held to the general
/// routines bit for bit, on matrices with many zeros (signed zeros among them) as a transition and an observation
/// row have, for every state size the kernels specialise and for others.
@Suite("Kalman filter kernels")
struct KalmanFilterKernelTests {
    static let cases: [(stateCount: Int, seed: UInt64)] = (1...7).flatMap { n in
        (1...12).map { (n, UInt64(100 * n + $0)) }
    }

    /// A model that returns fixed F and Q whatever the step.
    struct FixedModel: StateSpaceModel {
        let transition: Matrix
        let processNoise: Matrix
        var stateCount: Int { transition.rows }
        func discretize(over dt: Seconds, transition F: inout Matrix, processNoise Q: inout Matrix) {
            F.assign(transition)
            Q.assign(processNoise)
        }
    }

    /// A random matrix with about 60 % of its entries zero, a third of those −0.
    static func sparseMatrix(rows: Int, columns: Int, using g: inout SeededGenerator) -> Matrix {
        Matrix(
            rows: rows, columns: columns,
            columnMajor: (0..<(rows * columns)).map { _ in
                let u = g.uniform()
                return u < 0.2 ? -0.0 : u < 0.6 ? 0.0 : g.gaussian()
            })
    }

    static func bits(_ m: Matrix) -> [UInt64] { m.elements.map(\.bitPattern) }

    @Test("Predict gives the bits of F x and F P Fᵀ + Q by the general routines", arguments: cases)
    func predictMatchesDense(stateCount n: Int, seed: UInt64) throws {
        // GIVEN a random state and a sparse transition
        var g = SeededGenerator(seed: seed)
        // About half the rows zero off the diagonal (as most of a transition's are), the others sparse.
        var f = Self.sparseMatrix(rows: n, columns: n, using: &g)
        for i in 0..<n where g.uniform() < 0.5 {
            for k in 0..<n where k != i { f[i, k] = g.uniform() < 0.3 ? -0.0 : 0.0 }
        }
        let q = TestSupport.randomSPD(n, scale: 0.1, using: &g)
        let p = TestSupport.randomSPD(n, using: &g)
        let x = (0..<n).map { _ in g.gaussian() }
        var filter = try KalmanFilter(
            model: FixedModel(transition: f, processNoise: q), time: 0, mean: x, covariance: p)
        // WHEN it predicts
        try filter.predict(to: 1)
        // THEN the mean and covariance are those of the dense routines, to the bit
        var mean = Matrix(rows: n, columns: 1)
        Matrix.multiplyByLoops(f, .none, Matrix(rows: n, columns: 1, columnMajor: x), .none, into: &mean)
        var covariance = q
        var workspace = Matrix(rows: n, columns: n)
        Matrix.formCongruence(f, .none, p, into: &covariance, workspace: &workspace, beta: 1)
        #expect(Self.bits(filter.mean) == Self.bits(mean), "seed \(seed)")
        #expect(Self.bits(filter.covariance) == Self.bits(covariance), "seed \(seed)")
    }

    @Test("A scalar update gives the bits of the general update of dimension one", arguments: cases)
    func scalarUpdateMatchesDense(stateCount n: Int, seed: UInt64) throws {
        // GIVEN two copies of a random filter and a sparse observation row with at least one non-zero
        var g = SeededGenerator(seed: seed)
        let p = TestSupport.randomSPD(n, using: &g)
        let x = (0..<n).map { _ in g.gaussian() }
        var row = Self.sparseMatrix(rows: 1, columns: n, using: &g).elements
        row[Int(g.uniform() * Double(n)) % n] = 1.5
        let kind = LinearMeasurement(observationRow: row)
        let z = g.gaussian(), r = 0.5
        let model = FixedModel(transition: .identity(n), processNoise: Matrix(rows: n, columns: n))
        var scalar = try KalmanFilter(model: model, time: 0, mean: x, covariance: p)
        var general = scalar
        // WHEN one takes the scalar kernel and the other the general update with m = 1
        let record = try scalar.update(z, kind: kind, variance: r)
        let generalRecord = try general.update([z], kind: kind, noise: Matrix(rows: 1, columns: 1, columnMajor: [r]))
        // THEN they agree to the bit
        #expect(
            record.innovationVariance.bitPattern == generalRecord.innovationCovariance.elements[0].bitPattern,
            "seed \(seed)")
        #expect(Self.bits(scalar.mean) == Self.bits(general.mean), "seed \(seed)")
        #expect(Self.bits(scalar.covariance) == Self.bits(general.covariance), "seed \(seed)")
    }
}
