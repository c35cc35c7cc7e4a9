import LinearAlgebra

/// The preallocated scratch matrices of one filter, so that a predict or an update never allocates.
///
/// Every matrix is created once, at the shape it will always have; the hot path writes into them in place and
/// commits a result by swapping buffers with the filter's state.
struct FilterWorkspace: Sendable {
    /// F(dt), n x n.
    var transition: Matrix
    /// Q(dt), n x n.
    var processNoise: Matrix
    /// The step dt that `transition` and `processNoise` were computed for; NaN when they are stale.
    var discretizedStep: Seconds = .nan
    /// The candidate state and the n x n scratch shared by predicts and updates.
    var step: StepWorkspace
    /// The previous time, mean and covariance, for rolling back a `process` call whose update failed.
    var backupMean: Matrix
    var backupCovariance: Matrix
    /// Workspaces for scalar updates.
    var scalar: UpdateWorkspace
    /// Workspaces for updates of dimension m > 1, indexed by m, created the first time m is seen.
    var vector: [UpdateWorkspace?]

    init(stateCount n: Int) {
        transition = Matrix(rows: n, columns: n)
        processNoise = Matrix(rows: n, columns: n)
        step = StepWorkspace(stateCount: n)
        backupMean = Matrix(rows: n, columns: 1)
        backupCovariance = Matrix(rows: n, columns: n)
        scalar = UpdateWorkspace(stateCount: n, measurementCount: 1)
        vector = []
    }
}

/// The candidate new state of a predict or update, and its n x n scratch.
struct StepWorkspace: Sendable {
    /// The candidate new mean, n x 1, swapped in on success.
    var mean: Matrix
    /// The candidate new covariance, n x n, swapped in on success.
    var covariance: Matrix
    /// Scratch for congruences, n x n.
    var product: Matrix
    /// The Joseph factor A = I − K H, n x n.
    var josephFactor: Matrix
    /// Scratch of the scalar Joseph update, n x (n + 1).
    var josephWorkspace: Matrix

    init(stateCount n: Int) {
        mean = Matrix(rows: n, columns: 1)
        covariance = Matrix(rows: n, columns: n)
        product = Matrix(rows: n, columns: n)
        josephFactor = Matrix(rows: n, columns: n)
        josephWorkspace = Matrix(rows: n, columns: n + 1)
    }
}

/// The scratch matrices of an update of dimension m, for a state of dimension n.
struct UpdateWorkspace: Sendable {
    /// H, m x n.
    var observationMatrix: Matrix
    /// h(x⁻), m x 1.
    var predicted: Matrix
    /// z, m x 1.
    var measurement: Matrix
    /// R (inflated by the soft gate if it fired), m x m.
    var noise: Matrix
    /// y = z − h(x⁻), m x 1.
    var innovation: Matrix
    /// U = P⁻ Hᵀ, n x m.
    var crossCovariance: Matrix
    /// S = H P⁻ Hᵀ + R, m x m, as first formed (before any inflation).
    var innovationCovariance: Matrix
    /// L with S = L Lᵀ, m x m.
    var innovationFactor: Matrix
    /// L⁻¹ y, m x 1.
    var whitenedInnovation: Matrix
    /// Kᵀ, m x n.
    var gainTransposed: Matrix
    /// Scratch for K R Kᵀ, n x m.
    var gainProduct: Matrix

    init(stateCount n: Int, measurementCount m: Int) {
        observationMatrix = Matrix(rows: m, columns: n)
        predicted = Matrix(rows: m, columns: 1)
        measurement = Matrix(rows: m, columns: 1)
        noise = Matrix(rows: m, columns: m)
        innovation = Matrix(rows: m, columns: 1)
        crossCovariance = Matrix(rows: n, columns: m)
        innovationCovariance = Matrix(rows: m, columns: m)
        innovationFactor = Matrix(rows: m, columns: m)
        whitenedInnovation = Matrix(rows: m, columns: 1)
        gainTransposed = Matrix(rows: m, columns: n)
        gainProduct = Matrix(rows: n, columns: m)
    }
}
