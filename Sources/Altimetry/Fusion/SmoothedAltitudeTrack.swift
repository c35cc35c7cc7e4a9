import StateEstimation

/// A whole track fused and smoothed, kept with what the smoother needs to give the uncertainty of any linear
/// combination of its altitudes (a climb, a sum of climbs, an average over a window).
///
/// Altitudes are the smoothed ones, one per reading. `variances(of:)` reads the Rauch-Tung-Striebel cross-
/// covariances (`SmoothedRun.errorVariances(of:run:)`), so a difference of two nearby altitudes is as sure as the
/// barometer makes it, not √2 times the absolute sigma.
public struct SmoothedAltitudeTrack: Sendable {
    /// The filtered estimates, one per reading.
    public let filtered: [AltitudeEstimate]
    /// The smoothed estimates, one per reading.
    public let smoothed: [AltitudeEstimate]
    /// The epoch of the recorded run that each reading belongs to (readings at one time share one).
    let epochs: [Int]
    let run: FilterRun?
    let smoothedRun: SmoothedRun?
    /// The parameters the track was fused with.
    public let parameters: AltitudeModelParameters

    /// Fuses and smooths `readings` (see `AltitudeFilter.smooth(_:parameters:)`).
    ///
    /// - Parameters:
    ///   - readings: the track, in time order.
    ///   - parameters: the model's tunable numbers.
    /// - Throws: as `AltitudeFilter.process(_:)`, or `.numerical` if the smoother fails.
    public init(_ readings: [AltitudeReading], parameters: AltitudeModelParameters = AltitudeModelParameters())
        throws(AltitudeModelError)
    {
        self.parameters = parameters
        var filtered: [AltitudeEstimate] = []
        filtered.reserveCapacity(readings.count)
        let recorded = try AltitudeFilter.recordedRun(readings, parameters: parameters) { filtered.append($1) }
        self.filtered = filtered
        self.epochs = recorded?.epochs.map { Int($0) } ?? []
        guard let run = recorded?.run else {
            smoothed = []
            self.run = nil
            smoothedRun = nil
            return
        }
        let smoothedRun = try AltitudeFilter.smoothedRun(run)
        var smoothed: [AltitudeEstimate] = []
        smoothed.reserveCapacity(readings.count)
        // The smoothed column has seen every reading: a station temperature anywhere informs it throughout.
        let thermometer = readings.contains { $0.temperature != nil }
        for (index, epoch) in epochs.enumerated() {
            var e = AltitudeFilter.smoothedEstimate(
                time: filtered[index].time, mean: smoothedRun.mean(at: epoch),
                covariance: smoothedRun.covariance(at: epoch), parameters: parameters,
                heightMoved: filtered[index].heightMoved, thermometer: thermometer)
            e.relativeAltitude = filtered[index].relativeAltitude
            e.barometerUpdate = filtered[index].barometerUpdate
            e.gpsUpdate = filtered[index].gpsUpdate
            smoothed.append(e)
        }
        self.smoothed = smoothed
        self.run = run
        self.smoothedRun = smoothedRun
    }

    /// The variance, in m², of the smoothed error of each combination Σᵢ wᵢ hᵢ of the altitudes hᵢ of readings i.
    ///
    /// The altitude is h = h₀(U) + (C/T₀) m (`AltitudeModel`, m the height moved), so to first order its error is
    ///
    ///     δh = (dh/dU) δU + (dh/dC) δC,   dh/dU = exp(−L U/T₀),   dh/dC = m/T₀,
    ///
    /// both at the smoothed estimate (dh/dU changes by 2 × 10⁻⁶ per metre, dh/dC by 1/T₀ per metre). GPS pins
    /// the altitude better than it pins U and C apart, so the two terms are strongly anticorrelated; a climb's
    /// error holds the column's error at both ends through their cross-covariance (0.35 % of the climb per kelvin
    /// of a column error common to both). Without the column state dh/dC is absent.
    ///
    /// - Parameter combinations: for each, (reading index, weight) pairs in increasing index order.
    /// - Throws: `.numerical` if the smoother's cross-covariances cannot be formed.
    /// - Complexity: O(E n³) for the E epochs spanned, plus the terms.
    public func variances(of combinations: [[(index: Int, weight: Double)]]) throws(AltitudeModelError) -> [Double] {
        try errorVariances(combinations.map { stateCombination($0, column: nil) })
    }

    /// The part of each combination's variance that the column's temperature explains, in m²: Cov(L, C)²/Var(C),
    /// with C the column's temperature offset at the combination's middle reading.
    ///
    /// It is what the combination's variance would lose were the column's temperature known there (the column
    /// moves by 1 K per √h at most, so one epoch stands for the whole span of a climb); the rest, the variance less
    /// this part, is the barometer's, the weather's and GPS's. The covariance comes from two variances,
    /// Cov(L, C) = (Var(L + C) − Var(L − C))/4. Zero without the column state.
    ///
    /// - Throws: `.numerical` if the smoother's cross-covariances cannot be formed.
    public func columnVariances(of combinations: [[(index: Int, weight: Double)]]) throws(AltitudeModelError)
        -> [Double]
    {
        guard parameters.columnIndex != nil else { return combinations.map { _ in 0 } }
        var states: [StateCombination] = []
        for terms in combinations {
            let middle = terms.isEmpty ? 0 : (terms[0].index + terms[terms.count - 1].index) / 2
            states.append(stateCombination(terms, column: (middle, 1)))
            states.append(stateCombination(terms, column: (middle, -1)))
            states.append(stateCombination([], column: (middle, 1)))
        }
        let v = try errorVariances(states)
        return combinations.indices.map { k in
            let covariance = (v[3 * k] - v[3 * k + 1]) / 4, columnVariance = v[3 * k + 2]
            return columnVariance > 0 ? covariance * covariance / columnVariance : 0
        }
    }

    /// Σᵢ wᵢ δhᵢ as a combination of states, plus `column.coefficient` δC at reading `column.index` if given.
    private func stateCombination(_ terms: [(index: Int, weight: Double)], column: (index: Int, coefficient: Double)?)
        -> StateCombination
    {
        var state = StateCombination()
        guard let smoothedRun, let n = run?.stateCount else { return state }
        let c = parameters.columnIndex
        let T0 = StandardAtmosphere.seaLevelTemperature
        var extra = column.flatMap { col in smoothed.indices.contains(col.index) ? col : nil }
        func addColumn(upTo index: Int) {
            guard let e = extra, e.index <= index, let c else { return }
            state.add(e.coefficient, of: c, at: epochs[e.index], stateCount: n)
            extra = nil
        }
        for (index, weight) in terms where smoothed.indices.contains(index) {
            addColumn(upTo: index)
            let x = smoothedRun.mean(at: epochs[index])
            let slope = LogPressureCoordinates.altitudeDerivative(x[AltitudeModel.altitudeIndex, 0])
            state.add(weight * slope, of: AltitudeModel.altitudeIndex, at: epochs[index], stateCount: n)
            if let c {
                state.add(weight * filtered[index].heightMoved / T0, of: c, at: epochs[index], stateCount: n)
            }
        }
        addColumn(upTo: .max)
        return state
    }

    private func errorVariances(_ states: [StateCombination]) throws(AltitudeModelError) -> [Double] {
        guard let run, let smoothedRun else { return states.map { _ in .nan } }
        do {
            return try smoothedRun.errorVariances(of: states, run: run)
        } catch {
            throw .numerical(String(describing: error))
        }
    }
}
