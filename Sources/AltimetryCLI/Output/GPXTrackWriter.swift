/// Writes a GPX input back with the fused elevation: exactly the input's track points, in their tracks and
/// segments, each with its own position, time and other elements, and its own extensions.
///
/// Each point's `ele` is the fused altitude (metres above mean sea level, 3 decimals; absent when the point's row
/// was rejected); its `extensions` keep the input's content first, then `altimetry:sigma_m` (one sigma, m),
/// `altimetry:qnh_hpa`, `altimetry:qnh_sigma_hpa` and `altimetry:status` (namespace
/// `https://github.com/altimetry/gpx/1`). The root declares the input's namespaces, so the extensions' prefixes
/// (`gpxtpx:` and the like) stay bound. Track and metadata elements are copied as written.
public struct GPXTrackWriter: Sendable {
    /// The namespace of the elements Altimetry adds.
    public static let namespace = "https://github.com/altimetry/gpx/1"

    let document: GPXDocument
    /// The fused row of each of the document's points, in order.
    let fused: [FusedRow]

    /// - Precondition: one fused row per point of `document`.
    public init(document: GPXDocument, fused: [FusedRow]) {
        precondition(fused.count == document.points.count, "one fused row per GPX point")
        self.document = document
        self.fused = fused
    }

    /// The GPX 1.1 document's bytes.
    public func bytes() -> [UInt8] {
        var out = ByteBuffer(capacity: document.points.count * 256 + 1_024)
        out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        out.append("<gpx version=\"1.1\" creator=\"altimetry\" xmlns=\"http://www.topografix.com/GPX/1/1\"")
        out.append(" xmlns:altimetry=\"\(Self.namespace)\"")
        for declaration in document.namespaceDeclarations where !declaration.hasPrefix("xmlns:altimetry=") {
            out.append(" " + declaration)
        }
        out.append(">\n")
        if let metadata = document.metadata { out.append("  " + metadata + "\n") }
        for track in document.tracks {
            out.append("  <trk>")
            out.append(track.header)
            out.append("\n")
            for segment in track.segments {
                out.append("    <trkseg>\n")
                document.source.withUnsafeBytes { source in
                    for k in segment { appendPoint(k, source: source, to: &out) }
                }
                out.append("    </trkseg>\n")
            }
            out.append("  </trk>\n")
        }
        out.append("</gpx>\n")
        return out.array
    }

    private func appendPoint(_ k: Int, source: UnsafeRawBufferPointer, to out: inout ByteBuffer) {
        let point = document.points[k]
        let f = fused[k]
        func copy(_ range: Range<Int>) { out.append(UnsafeRawBufferPointer(rebasing: source[range])) }
        out.append("      <trkpt lat=\"")
        copy(point.latitude)
        out.append("\" lon=\"")
        copy(point.longitude)
        out.append("\">")
        if !f.altitude.isNaN { out.append("<ele>\(Fixed.text(f.altitude, 3))</ele>") }
        for part in point.otherContent { copy(part) }
        out.append("<extensions>")
        if let content = point.extensionsContent { copy(content) }
        if !f.altitude.isNaN {
            out.append("<altimetry:sigma_m>\(Fixed.text(f.altitudeStandardDeviation, 3))</altimetry:sigma_m>")
            out.append("<altimetry:qnh_hpa>\(Fixed.text(f.seaLevelPressure, 3))</altimetry:qnh_hpa>")
            out.append("<altimetry:qnh_sigma_hpa>\(Fixed.text(f.seaLevelPressureStandardDeviation, 4))</altimetry:qnh_sigma_hpa>")
        }
        out.append("<altimetry:status>\(FusedTrackWriter.escapeXML(f.status.text))</altimetry:status>")
        out.append("</extensions></trkpt>\n")
    }
}
