/// Total ascent and descent from GPS altitude alone, as gpxpy computes them, and with a hysteresis on top.
///
/// gpxpy (`gpxpy.geo.calculate_uphill_downhill`, version 1.6.2) drops missing elevations, smooths each interior
/// point with its two neighbours from the unsmoothed series,
///
///     sᵢ = 0.3 eᵢ₋₁ + 0.4 eᵢ + 0.3 eᵢ₊₁   (the first and last points unchanged),
///
/// and sums every positive difference sᵢ₊₁ − sᵢ as uphill and every negative one as downhill. It has no
/// threshold: GPS noise that survives the three-point filter is counted in full. The hysteresis variants apply
/// `AscentCounter` to the same smoothed series, as tools with a 3 m (GoldenCheetah), 5 m or 10 m threshold do.
public enum GPXElevationRule {
    /// gpxpy's three-point smoothing of a series of elevations, in metres.
    public static func smoothed(_ elevations: [Meters]) -> [Meters] {
        let e = elevations
        guard e.count > 2 else { return e }
        var s = e
        for i in 1..<(e.count - 1) { s[i] = 0.3 * e[i - 1] + 0.4 * e[i] + 0.3 * e[i + 1] }
        return s
    }

    /// gpxpy's uphill and downhill of a series of elevations, in metres (both positive).
    public static func uphillDownhill(_ elevations: [Meters]) -> (uphill: Meters, downhill: Meters) {
        let s = smoothed(elevations)
        var up = 0.0, down = 0.0
        for (a, b) in zip(s, s.dropFirst()) {
            let d = b - a
            if d > 0 { up += d } else { down -= d }
        }
        return (up, down)
    }

    /// Ascent and descent of gpxpy's smoothed series counted with hysteresis H metres (H = 0 is gpxpy's rule).
    ///
    /// - Parameters:
    ///   - times: the samples' times, in seconds, non-decreasing.
    ///   - elevations: one elevation per time, in metres.
    ///   - hysteresis: H, in metres; 0 is gpxpy's rule.
    public static func ascentDescent(times: [Double], elevations: [Meters], hysteresis: Meters) -> (
        ascent: Meters, descent: Meters
    ) {
        let counter = AscentCounter.count(times: times, altitudes: smoothed(elevations), hysteresis: hysteresis)
        return (counter.ascent, counter.descent)
    }
}
