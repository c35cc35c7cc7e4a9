extension InputTable {
    /// The index in `trackNames` of the track `identifier` names: a track's name, else its number counted from
    /// 1 in file order (so `2` is the second track, also when the tracks have names).
    ///
    /// - Throws: `InputError` (exit 64, a usage error) naming the tracks the file has when `identifier` names none.
    package func trackIndex(_ identifier: String) throws(InputError) -> Int {
        if let named = trackNames.firstIndex(of: identifier) { return named }
        if let number = Int(identifier), (1...trackNames.count).contains(number) { return number - 1 }
        throw InputError(
            file: file,
            message: "found no track '\(identifier)'; expected \(trackList) (a name, or a number from 1)",
            exitCode: .usage)
    }

    /// The tracks for a message: `1 'north', 2 'south'`, or `one track` for a file without tracks.
    package var trackList: String {
        guard hasTrackColumn || trackNames.count > 1 else { return "one track" }
        let named = trackNames.enumerated().map { "\($0.offset + 1) '\($0.element)'" }
        return "one of " + named.joined(separator: ", ")
    }

    /// The table with only the rows of track `index` (its number 0 in `trackNames` from then on), with their
    /// time texts, pass-through values and skipped rows' errors kept as they were. A GPX document is dropped
    /// (its tracks are the file's, not the one kept): GPX output then writes the kept points as a track of its own.
    package func keepingTrack(_ index: Int) -> InputTable {
        guard trackNames.count > 1 else { return self }
        var kept = self
        kept.rows = []
        kept.timeTexts = timeTexts.map { _ in TimeTexts() }
        kept.passThrough = []
        kept.trackNames = [trackNames[index]]
        kept.gpx = nil
        let width = passThroughColumns.count
        for (k, row) in rows.enumerated() where row.track == index {
            var row = row
            row.track = 0
            kept.rows.append(row)
            if let texts = timeTexts { kept.timeTexts?.append(texts[k]) }
            kept.passThrough.append(contentsOf: passThrough[(k * width)..<((k + 1) * width)])
        }
        let keptLines = Set(kept.rows.map(\.line))
        kept.skipped = skipped.filter { $0.line.map(keptLines.contains) ?? true }
        return kept
    }
}
