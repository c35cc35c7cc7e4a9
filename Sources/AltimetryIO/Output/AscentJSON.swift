import Altimetry

/// The `altimetry ascent --json` document: snake_case keys, metres, seconds.
package struct AscentJSON: Sendable, Encodable {
    struct Totals: Sendable, Encodable {
        var rule: String
        var hysteresis_m: Double
        var ascent_m: Double
        var descent_m: Double

        init(_ t: AscentTotals) {
            rule = t.rule
            hysteresis_m = t.hysteresis
            ascent_m = t.ascent
            descent_m = t.descent
        }
    }

    /// A segment; `start_time` and `end_time` are its times as RFC 3339 date-times when the track's times are
    /// dates (`InstantText`), null otherwise.
    struct Segment: Sendable, Encodable {
        var start_s: Double
        var end_s: Double
        var start_time: String?
        var end_time: String?
        var start_m: Double
        var end_m: Double
        var gain_m: Double
        var gain_sigma_m: Double
        var duration_s: Double
        var vertical_speed_m_per_s: Double

        private enum CodingKeys: String, CodingKey {
            case start_s, end_s, start_time, end_time, start_m, end_m, gain_m, gain_sigma_m, duration_s
            case vertical_speed_m_per_s
        }

        /// Every key, `start_time` and `end_time` null for relative times.
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(start_s, forKey: .start_s)
            try c.encode(end_s, forKey: .end_s)
            try c.encode(start_time, forKey: .start_time)
            try c.encode(end_time, forKey: .end_time)
            try c.encode(start_m, forKey: .start_m)
            try c.encode(end_m, forKey: .end_m)
            try c.encode(gain_m, forKey: .gain_m)
            try c.encode(gain_sigma_m, forKey: .gain_sigma_m)
            try c.encode(duration_s, forKey: .duration_s)
            try c.encode(vertical_speed_m_per_s, forKey: .vertical_speed_m_per_s)
        }
    }

    struct Lag: Sendable, Encodable {
        var lag_s: Double
        var hysteresis_m: Double
    }

    var ascent_m: Double
    var ascent_sigma_m: Double
    var ascent_pressure_sigma_m: Double
    var ascent_column_sigma_m: Double
    var descent_m: Double
    var descent_sigma_m: Double
    var highest_m: Double
    var highest_sigma_m: Double
    var lowest_m: Double
    var lowest_sigma_m: Double
    var hysteresis_m: Double
    var hysteresis_by_lag: [Lag]
    var temperature_assumed: Bool
    var column_temperature_sigma_k: Double
    var gps_only: [Totals]
    var barometer_only: Totals?
    var segments: [Segment]
    var impossible_values: Int

    package init(_ r: AscentReport) {
        ascent_m = r.ascent.value
        ascent_sigma_m = r.ascent.standardDeviation
        ascent_pressure_sigma_m = r.ascent.pressureStandardDeviation
        ascent_column_sigma_m = r.ascent.columnStandardDeviation
        descent_m = r.descent.value
        descent_sigma_m = r.descent.standardDeviation
        highest_m = r.highest.value
        highest_sigma_m = r.highest.standardDeviation
        lowest_m = r.lowest.value
        lowest_sigma_m = r.lowest.standardDeviation
        hysteresis_m = r.hysteresis
        hysteresis_by_lag = zip(r.hysteresisByLag.lags, r.hysteresisByLag.values).map {
            Lag(lag_s: $0, hysteresis_m: $1)
        }
        temperature_assumed = r.temperatureAssumed
        column_temperature_sigma_k = r.columnTemperatureStandardDeviation
        gps_only = r.gpsOnly.map(Totals.init)
        barometer_only = r.barometerOnly.map(Totals.init)
        impossible_values = r.impossibleValues
        segments = r.segments.map {
            Segment(
                start_s: $0.startTime, end_s: $0.endTime, start_time: InstantText.date($0.startTime),
                end_time: InstantText.date($0.endTime), start_m: $0.startAltitude, end_m: $0.endAltitude,
                gain_m: $0.gain,
                gain_sigma_m: $0.gainStandardDeviation, duration_s: $0.duration,
                vertical_speed_m_per_s: $0.meanVerticalSpeed)
        }
    }

    /// Every key, with `null` for a missing barometer comparison.
    package func encode(to encoder: any Encoder) throws {
        enum Key: String, CodingKey {
            case ascent_m, ascent_sigma_m, ascent_pressure_sigma_m, ascent_column_sigma_m, descent_m, descent_sigma_m
            case highest_m, highest_sigma_m, lowest_m, lowest_sigma_m, hysteresis_m, hysteresis_by_lag,
                temperature_assumed
            case column_temperature_sigma_k, gps_only, barometer_only, segments, impossible_values
        }
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(ascent_m, forKey: .ascent_m)
        try c.encode(ascent_sigma_m, forKey: .ascent_sigma_m)
        try c.encode(ascent_pressure_sigma_m, forKey: .ascent_pressure_sigma_m)
        try c.encode(ascent_column_sigma_m, forKey: .ascent_column_sigma_m)
        try c.encode(descent_m, forKey: .descent_m)
        try c.encode(descent_sigma_m, forKey: .descent_sigma_m)
        try c.encode(highest_m, forKey: .highest_m)
        try c.encode(highest_sigma_m, forKey: .highest_sigma_m)
        try c.encode(lowest_m, forKey: .lowest_m)
        try c.encode(lowest_sigma_m, forKey: .lowest_sigma_m)
        try c.encode(hysteresis_m, forKey: .hysteresis_m)
        try c.encode(hysteresis_by_lag, forKey: .hysteresis_by_lag)
        try c.encode(temperature_assumed, forKey: .temperature_assumed)
        try c.encode(column_temperature_sigma_k, forKey: .column_temperature_sigma_k)
        try c.encode(gps_only, forKey: .gps_only)
        try c.encode(barometer_only, forKey: .barometer_only)
        try c.encode(segments, forKey: .segments)
        try c.encode(impossible_values, forKey: .impossible_values)
    }
}
