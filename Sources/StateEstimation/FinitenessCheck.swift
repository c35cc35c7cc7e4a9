/// Whether every number it was shown is finite, at two arithmetic instructions a number and no branch.
///
/// It keeps r = Σ (v − v): v − v is +0 for a finite v and NaN for an infinity or a NaN, and NaN stays in the sum,
/// so r is +0 exactly when every v was finite. The kernels check each element of a result as they write it; the
/// branch of `isFinite` per element kept their loops from being unrolled.
struct FinitenessCheck {
    /// Σ (v − v) over the numbers shown: +0 or NaN.
    private var residue = 0.0

    /// Takes `value` into the check.
    @inline(__always)
    mutating func include(_ value: Double) { residue += value - value }

    /// Whether every number shown was finite (true when none was).
    var allFinite: Bool { residue == 0 }
}
