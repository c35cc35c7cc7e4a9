/// Centred moving-average windows over a time series: window i holds the samples j with |tⱼ − tᵢ| ≤ w/2.
struct AveragingWindows: Sendable {
    /// The first and last sample index of each window.
    let bounds: [(lower: Int, upper: Int)]
    let times: [Double]
    /// The width w, in seconds.
    let width: Double

    /// Windows of `width` seconds over `times` (non-decreasing); a width of 0 makes every window one sample.
    init(times: [Double], width: Double) {
        self.times = times
        self.width = max(0, width)
        var bounds: [(Int, Int)] = []
        bounds.reserveCapacity(times.count)
        var lower = 0, upper = 0
        let half = max(0, width) / 2
        for i in times.indices {
            while times[lower] < times[i] - half { lower += 1 }
            if upper < i { upper = i }
            while upper + 1 < times.count, times[upper + 1] <= times[i] + half { upper += 1 }
            bounds.append((lower, upper))
        }
        self.bounds = bounds
    }

    /// The averaged series.
    func average(_ values: [Double]) -> [Double] {
        var prefix = [0.0]
        prefix.reserveCapacity(values.count + 1)
        for v in values { prefix.append((prefix.last ?? 0) + v) }
        return bounds.map { (prefix[$0.upper + 1] - prefix[$0.lower]) / Double($0.upper - $0.lower + 1) }
    }

    /// Window i as weights (index, 1/count).
    func window(_ i: Int) -> [(index: Int, weight: Double)] {
        let (lower, upper) = bounds[i]
        let w = 1 / Double(upper - lower + 1)
        return (lower...upper).map { ($0, w) }
    }

    /// Window `to` minus window `from`, merged, in index order.
    func difference(from a: Int, to b: Int) -> [(index: Int, weight: Double)] {
        var weights: [Int: Double] = [:]
        for (index, w) in window(b) { weights[index, default: 0] += w }
        for (index, w) in window(a) { weights[index, default: 0] -= w }
        return AscentAnalysis.sorted(weights)
    }

    /// Up to `limit` pairs (i, j) spread evenly along the series, j the first sample at least `lag` seconds after i.
    func pairs(lag: Double, limit: Int) -> [(first: Int, second: Int)] {
        guard times.count >= 2, let first = times.first, let last = times.last, last - first >= lag else { return [] }
        // Spread over the starts that have a partner.
        let starts = times.firstIndex { $0 > last - lag } ?? times.count
        let step = max(1, starts / max(1, limit))
        var pairs: [(Int, Int)] = []
        var j = 0
        for i in stride(from: 0, to: starts, by: step) {
            let target = times[i] + max(lag, 1e-9)
            guard target <= last else { break }
            if j < i { j = i }
            while j < times.count - 1, times[j] < target { j += 1 }
            if j > i { pairs.append((i, j)) }
        }
        return pairs
    }

    /// The one sigma of the difference of two adjacent averaged values, measured on the series itself, in its unit.
    ///
    /// Second differences dᵢ = v(tᵢ + w) − 2 v(tᵢ) + v(tᵢ − w) cancel steady climbs and descents, and for
    /// independent noise of spread σ per window have variance 6 σ², while a first difference has 2 σ²; so
    /// σ_Δ = sd(d) / √3, with sd(d) = 1.4826 × median |d| (robust to the few second differences at turning points).
    /// Zero for a series shorter than three widths.
    func scatterOfDifferences(_ values: [Double]) -> Double {
        guard width > 0, let first = times.first, let last = times.last, last - first > 2 * width else { return 0 }
        var second: [Double] = []
        var before = 0, after = 0
        for i in times.indices where times[i] - width >= first && times[i] + width <= last {
            while times[before] < times[i] - width { before += 1 }
            while after < times.count - 1, times[after] < times[i] + width { after += 1 }
            second.append(abs(values[after] - 2 * values[i] + values[before]))
        }
        guard let median = AscentAnalysis.median(second) else { return 0 }
        return 1.4826 * median / 3.0.squareRoot()
    }
}
