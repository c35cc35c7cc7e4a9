import Altimetry

/// Writes a GPX input's own track points back with the fused elevation: exactly the input's points, in their
/// tracks and segments, each with its `lat` and `lon` as written, its other elements (`time`, `sat`...) as
/// written, and its `extensions`: the input's own content first (heart rate, cadence, temperature...), then
/// Altimetry's estimate columns and status (namespace `https://github.com/altimetry/gpx/1`).
///
/// The fuse pipeline formats a row at a time, track by track: the n-th row with a position of a track is the
/// n-th point of that track's points in the document (of all the document's points when the rows are one track,
/// as a GPX merged with a pressure file is). A point that starts a document track or segment closes the one
/// before. Rows without a position (a pressure file's) are not points.
struct GPXPointWriter: Sendable {
    let document: GPXDocument
    /// Whether each pipeline track is the document track of the same index (else all rows are one track).
    let tracksAreDocumentTracks: Bool
    /// For each point: the document track it is in, and whether it starts that track or one of its segments.
    private let pointTrack: [Int32]
    private let startsTrack: [Bool]
    private let startsSegment: [Bool]
    /// Each pipeline track's next point, counted from its first.
    private var next: [Int] = []

    init(_ document: GPXDocument, trackCount: Int) {
        self.document = document
        tracksAreDocumentTracks = trackCount > 1 && trackCount == document.tracks.count
        var pointTrack = [Int32](repeating: 0, count: document.points.count)
        var startsTrack = [Bool](repeating: false, count: document.points.count)
        var startsSegment = [Bool](repeating: false, count: document.points.count)
        for (t, track) in document.tracks.enumerated() {
            var first = true
            for segment in track.segments where !segment.isEmpty {
                for p in segment { pointTrack[p] = Int32(t) }
                startsSegment[segment.lowerBound] = true
                if first { startsTrack[segment.lowerBound] = true }
                first = false
            }
        }
        self.pointTrack = pointTrack
        self.startsTrack = startsTrack
        self.startsSegment = startsSegment
    }

    /// The document's first point of pipeline track `track`.
    private func firstPoint(ofTrack track: Int) -> Int {
        guard tracksAreDocumentTracks else { return 0 }
        return track < document.tracks.count
            ? document.tracks[track].segments.first?.lowerBound ?? 0 : document.points.count
    }

    /// The document track whose header opens pipeline track `track`.
    func documentTrack(_ track: Int) -> Int { tracksAreDocumentTracks ? track : 0 }

    /// The document's start: the root with the input's namespaces, and its metadata.
    var start: String {
        var text =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"altimetry\" "
            + "xmlns=\"http://www.topografix.com/GPX/1/1\" xmlns:altimetry=\"https://github.com/altimetry/gpx/1\""
        for declaration in document.namespaceDeclarations where !declaration.hasPrefix("xmlns:altimetry=") {
            text += " " + declaration
        }
        text += ">\n"
        if let metadata = document.metadata { text += "  " + metadata + "\n" }
        return text
    }

    /// A track's opening: `<trk>`, the input track's own elements, `<trkseg>`.
    func trackStart(_ track: Int) -> String {
        let t = documentTrack(track)
        return "  <trk>" + (t < document.tracks.count ? document.tracks[t].header : "") + "\n    <trkseg>\n"
    }

    /// Appends the point of `row`, the next one with a position of its track, with its fused `estimate`.
    ///
    /// - Parameter extensions: Altimetry's own extension elements for the point.
    mutating func append(_ row: InputRow, elevation: String?, extensions: String, to out: inout ByteBuffer) {
        while next.count <= row.track { next.append(0) }
        let p = firstPoint(ofTrack: row.track) + next[row.track]
        guard p < document.points.count else { return }
        if next[row.track] > 0 {
            if startsTrack[p] {
                let t = Int(pointTrack[p])
                out.append("    </trkseg>\n  </trk>\n  <trk>" + document.tracks[t].header + "\n    <trkseg>\n")
            } else if startsSegment[p] {
                out.append("    </trkseg>\n    <trkseg>\n")
            }
        }
        next[row.track] += 1
        let point = document.points[p]
        document.source.withUnsafeBytes { source in
            func copy(_ range: Range<Int>) { out.append(UnsafeRawBufferPointer(rebasing: source[range])) }
            out.append("      <trkpt lat=\"")
            copy(point.latitude)
            out.append("\" lon=\"")
            copy(point.longitude)
            out.append("\">")
            if let elevation { out.append("<ele>" + elevation + "</ele>") }
            for part in point.otherContent { copy(part) }
            out.append("<extensions>")
            if let content = point.extensionsContent { copy(content) }
            out.append(extensions)
            out.append("</extensions></trkpt>\n")
        }
    }
}
