import AltimetryIO

/// One axis of a plot: its data range, widened to round ticks, and the map from data to pixels.
struct PlotAxis {
    /// The range shown, in data units.
    var lower: Double
    var upper: Double
    /// Tick values, in data units.
    var ticks: [Double]
    /// The tick spacing.
    var step: Double

    /// An axis over `values` with about `count` ticks at 1, 2 or 5 × 10^k.
    init(_ values: [Double], count: Int = 6) {
        let finite = values.filter(\.isFinite)
        var low = finite.min() ?? 0
        var high = finite.max() ?? 1
        if high - low < 1e-9 {
            low -= 0.5
            high += 0.5
        }
        let raw = (high - low) / Double(max(count, 2))
        let magnitude = pow10(raw.magnitudeExponent)
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
        lower = (low / step).rounded(.down) * step
        upper = (high / step).rounded(.up) * step
        self.step = step
        var ticks: [Double] = []
        var t = lower
        while t <= upper + step * 1e-9 {
            ticks.append(t)
            t += step
        }
        self.ticks = ticks
    }

    /// The pixel coordinate of `value` on a span from `start` (at `lower`) to `end` (at `upper`).
    func position(_ value: Double, from start: Double, to end: Double) -> Double {
        start + (value - lower) / (upper - lower) * (end - start)
    }

    /// A tick's label, with as many decimals as the step needs.
    func label(_ value: Double) -> String {
        let decimals = step >= 1 ? 0 : min(6, Int((-step.magnitudeExponent)))
        return Fixed.text(value, decimals)
    }
}

private func pow10(_ k: Int) -> Double {
    var p = 1.0
    if k >= 0 { for _ in 0..<k { p *= 10 } } else { for _ in 0..<(-k) { p /= 10 } }
    return p
}

extension Double {
    /// ⌊log10 |x|⌋ for a positive finite x.
    fileprivate var magnitudeExponent: Int {
        var k = 0
        var x = self
        guard x > 0, x.isFinite else { return 0 }
        while x >= 10 {
            x /= 10
            k += 1
        }
        while x < 1 {
            x *= 10
            k -= 1
        }
        return k
    }
}
