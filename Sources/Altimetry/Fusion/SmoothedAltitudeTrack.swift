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

    /// Fuses and smooths `readings` (see `AltitudeFilter.smooth(_:parameters:)`).
    ///
    /// - Throws: as `AltitudeFilter.process(_:)`, or `.numerical` if the smoother fails.
    public init(_ readings: [AltitudeReading], parameters: AltitudeModelParameters = AltitudeModelParameters())
        throws(AltitudeModelError)
    {
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
        for (index, epoch) in epochs.enumerated() {
            var e = AltitudeFilter.estimate(time: filtered[index].time, mean: smoothedRun.mean(at: epoch),
                                            covariance: smoothedRun.covariance(at: epoch), parameters: parameters)
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
    /// Each altitude error is mapped to the state's log-pressure altitude to first order, δh = (dh/dU) δU, with
    /// dh/dU at the smoothed estimate (it changes by 2 × 10⁻⁶ per metre).
    ///
    /// - Parameter combinations: for each, (reading index, weight) pairs in increasing index order.
    /// - Throws: `.numerical` if the smoother's cross-covariances cannot be formed.
    /// - Complexity: O(E n³) for the E epochs spanned, plus the terms.
    public func variances(of combinations: [[(index: Int, weight: Double)]]) throws(AltitudeModelError) -> [Double] {
        guard let run, let smoothedRun else { return combinations.map { _ in .nan } }
        let n = run.stateCount
        let states: [StateCombination] = combinations.map { terms in
            var state = StateCombination()
            for (index, weight) in terms where smoothed.indices.contains(index) {
                let u = LogPressureCoordinates.logPressureAltitude(smoothed[index].altitude)
                state.add(weight * LogPressureCoordinates.altitudeDerivative(u), of: AltitudeModel.altitudeIndex,
                          at: epochs[index], stateCount: n)
            }
            return state
        }
        do {
            return try smoothedRun.errorVariances(of: states, run: run)
        } catch {
            throw .numerical(String(describing: error))
        }
    }
}
