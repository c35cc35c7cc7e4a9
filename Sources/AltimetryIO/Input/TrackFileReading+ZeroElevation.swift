import Altimetry

extension TrackFileReading {
    /// How far from sea level, in metres, the elevation next to a run of exact zeros must be for the run to be a
    /// placeholder: a device's elevation does not step from 50 m or more to exactly 0.0 and back, while a track
    /// along a coast may touch 0.0 honestly.
    static let placeholderNeighbourMeters = 50.0

    /// Takes elevations of exactly 0.0 that stand for "no elevation" out of the rows, with a notice naming them.
    ///
    /// Apps and exporters write 0 where they have no elevation (a GPX `<ele>0</ele>` before the first fix, a
    /// whole file from a device without an altimeter); fused, such a point would pull the altitude to sea level.
    /// A run of consecutive points at exactly 0.0 m is a placeholder when every elevation of the file is 0, or
    /// when the nearest other elevation before or after the run is more than `placeholderNeighbourMeters` from 0.
    /// Its points keep their time and position, without a reading. The elevation is the rows' GPS altitude, or
    /// for a barometric elevation their pressure at exactly the standard atmosphere's 0 m (1013.25 hPa).
    mutating func removeZeroElevationPlaceholders() { removeZeroPlaceholders(of: elevation) }

    /// Takes the placeholders of exactly 0.0 m out of one of the rows' altitudes: their GPS altitude (`.gps`) or
    /// their pressure at the standard atmosphere's 0 m (`.barometric`), by the rule of
    /// `removeZeroElevationPlaceholders`.
    mutating func removeZeroPlaceholders(of elevation: ElevationSource) {
        let rows = table.rows
        let zeroPressure = ElevationSource.pressure(atBarometricAltitude: 0)
        /// The row's elevation in metres: 0 for the placeholder, nil for none, else a stand-in of its size.
        func metres(_ row: InputRow) -> Double? {
            switch elevation {
            case .gps: return row.gpsAltitude
            case .barometric:
                guard let pressure = row.pressure else { return nil }
                if pressure == zeroPressure { return 0 }
                return try? StandardAtmosphere.altitude(atPressure: pressure)
            }
        }
        let values = rows.map(metres)
        let known = values.indices.filter { values[$0] != nil }
        guard known.contains(where: { values[$0] == 0 }) else { return }
        let allZero = known.allSatisfy { values[$0] == 0 }
        var placeholders: [Range<Int>] = []
        var k = 0
        while k < known.count {
            guard values[known[k]] == 0 else {
                k += 1
                continue
            }
            var end = k
            while end + 1 < known.count && values[known[end + 1]] == 0 { end += 1 }
            let before = k > 0 ? values[known[k - 1]] : nil
            let after = end + 1 < known.count ? values[known[end + 1]] : nil
            let far = [before, after].contains { abs($0 ?? 0) > Self.placeholderNeighbourMeters }
            if allZero || far { placeholders.append(known[k]..<(known[end] + 1)) }
            k = end + 1
        }
        guard !placeholders.isEmpty else { return }
        var count = 0
        for run in placeholders {
            for i in run where values[i] == 0 {
                count += 1
                switch elevation {
                case .gps: table.rows[i].gpsAltitude = nil
                case .barometric: table.rows[i].pressure = nil
                }
            }
        }
        let shown = placeholders.prefix(5).map { run in
            let first = rows[run.lowerBound].line, last = rows[run.upperBound - 1].line
            return first == last ? "\(first)" : "\(first)-\(last)"
        }
        let more = placeholders.count > 5 ? " and \(placeholders.count - 5) more runs" : ""
        table.notices.append(
            "notice: \(table.file): \(elevation == .gps ? "elevation" : "barometric altitude") exactly 0.0 on "
                + "\(count) points (lines or messages "
                + shown.joined(separator: ", ") + more + ") "
                + (allZero ? "(every elevation in the file)" : "(next to elevations over 50 m)")
                + " taken as a placeholder for a missing elevation: those points carry no altitude reading")
    }
}
