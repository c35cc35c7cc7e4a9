/// Where a turning point's altitude is read: the middle of its plateau, not the extreme sample.
///
/// The extreme of a noisy series is biased by the noise that made it the extreme. Where the true profile is flat
/// for a while (a twenty-minute rest on a summit, a pause in a valley, an hour on the flat), the smoothed track
/// wanders by a metre or two there, and its highest sample picks the top of that wander. The plateau of an
/// extreme ȟ(t₀) is the span from the first to the last sample, between the neighbouring turning points, that
/// lies within one sigma of a difference of its own length of the extreme,
///
///     d (ȟ(t₀) − ȟ(t)) ≤ σ_Δ(|t − t₀|),   d = +1 at a summit, −1 at a valley,
///
/// with σ_Δ(τ) = H(τ)/k, the hysteresis's sigma: the first and last samples the track cannot tell apart from the
/// extreme. The turning point is read at the sample nearest the plateau's middle time. The span runs from the
/// first to the last such sample, not only over the samples next to the extreme, so a dip of the wander inside
/// a flat stretch does not end it: on a flat stretch its ends are where the profile arrives and leaves, and the
/// middle is a reading of the flat that its own noise did not choose. On a symmetric peak the middle is the peak;
/// where the two sides differ in steepness it lies on the gentler side, below the top by less than σ_Δ/2.
/// `Docs/ascent.md` gives the Monte Carlo behind the choice of one sigma.
enum TurningPointPlateau {
    /// The index of the sample nearest the middle of the plateau of the extreme at `index`.
    ///
    /// - Parameters:
    ///   - index: the extreme's sample.
    ///   - direction: +1 for a summit, −1 for a valley.
    ///   - values: the averaged altitudes, in metres; `times` their times, in seconds (non-decreasing).
    ///   - bounds: the samples the plateau may cover (between the neighbouring turning points).
    ///   - tolerance: σ_Δ(τ), in metres, for a lag τ in seconds.
    /// - Complexity: O(number of samples in `bounds`).
    static func middle(
        of index: Int, direction: Double, values: [Double], times: [Double], bounds: ClosedRange<Int>,
        tolerance: (Double) -> Double
    ) -> Int {
        guard times.count == values.count, values.indices.contains(bounds.lowerBound),
            values.indices.contains(bounds.upperBound), bounds.contains(index)
        else { return index }
        let extreme = values[index], t0 = times[index]
        var lower = index, upper = index
        for j in bounds where values[j].isFinite && direction * (extreme - values[j]) <= tolerance(abs(times[j] - t0)) {
            lower = min(lower, j)
            upper = max(upper, j)
        }
        let middle = (times[lower] + times[upper]) / 2
        var best = lower
        for j in lower...upper where abs(times[j] - middle) < abs(times[best] - middle) { best = j }
        return best
    }
}
