import StateEstimation

extension AltitudeFilter {
    /// Brings the mean back inside the model's range after a reading: the column scale k = 1 + C/T₀ within
    /// `AltitudeModel.columnScaleRange` and the log-pressure altitude U within `AltitudeModel.logPressureAltitudeRange`.
    ///
    /// Readings that no atmosphere could produce (a GPS altitude of 1 km beside a pressure of 330 hPa, a station at
    /// 176 K) can pull the linear update anywhere. Outside these ranges the GPS measurement h = k h₀(U) loses its
    /// meaning: as k → 0 the altitude stops seeing U, which then runs away along the unobserved direction until
    /// exp(−L U/T₀) overflows the altitude (10³⁰ m) and the next update's gain loses the covariance's positive
    /// definiteness. Real columns stay within ±60 K of the standard atmosphere and real pressures (10 to 1,200 hPa
    /// at any QNH) put U within −3 km to 40 km, so the hold changes nothing a real recording reaches.
    ///
    /// The hold is the estimate projection of a constrained Kalman filter (Simon and Chia, 2002): the mean nearest
    /// to the filter's in the metric P⁻¹ among those with the state xᵢ at its bound m, x' = x + P eᵢ (m − xᵢ)/Pᵢᵢ,
    /// which moves the states correlated with xᵢ with it; the covariance is kept (`KalmanFilter.replaceMarginal`
    /// with the same variance).
    mutating func holdStateInModelRange() throws(AltitudeModelError) {
        if let c = parameters.columnIndex {
            let T0 = StandardAtmosphere.seaLevelTemperature
            let range = AltitudeModel.columnScaleRange
            try hold(c, within: (range.lowerBound - 1) * T0...(range.upperBound - 1) * T0)
        }
        try hold(AltitudeModel.altitudeIndex, within: AltitudeModel.logPressureAltitudeRange)
    }

    /// Inlined: it runs twice a row, and the test is all it does unless the state left its range.
    @inline(__always)
    private mutating func hold(_ index: Int, within range: ClosedRange<Double>) throws(AltitudeModelError) {
        let value = core.mean[index, 0]
        guard value < range.lowerBound || value > range.upperBound else { return }
        do {
            try core.replaceMarginal(
                of: index, mean: min(max(value, range.lowerBound), range.upperBound),
                variance: core.covariance[index, index])
        } catch {
            throw .numerical(String(describing: error))
        }
    }
}
