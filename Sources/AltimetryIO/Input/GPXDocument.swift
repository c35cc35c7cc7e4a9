import Foundation

/// What a GPX file holds beyond its readings, kept so GPX output can give back exactly the input's track points.
///
/// Track points are in file order, one `InputRow` each (the reader's table has row k for point k). A point is kept
/// as ranges of the input's own bytes (`source`, shared with the input, not copied), so nothing the reader does
/// not understand (heart rate, cadence, power, `<sat>`, other applications' extensions) is lost or rewritten, and
/// keeping it costs no string per point. Track elements (`<name>`, `<type>`...) and `<metadata>` are kept as
/// text. Waypoints and routes are not carried.
public struct GPXDocument: Sendable, Equatable {
    /// The input's bytes, which the points' ranges index.
    public var source = Data()
    /// The root element's namespace declarations as written (`xmlns:gpxtpx="..."`), for the extensions' prefixes.
    public var namespaceDeclarations: [String] = []
    /// The `<metadata>` element as written, if any.
    public var metadata: String?
    /// The `creator` attribute of the root (the application or device that wrote the file).
    public var creator = ""
    /// The tracks, in file order.
    public var tracks: [Track] = []
    /// The track points, in file order.
    public var points: [Point] = []

    /// One `<trk>`: its own elements and its segments.
    public struct Track: Sendable, Equatable {
        /// The track's children other than its segments (`<name>`, `<type>`, `<extensions>`...) as written.
        public var header = ""
        /// Each segment's points, as ranges of indices into `points`.
        public var segments: [Range<Int>] = []
    }

    /// One `<trkpt>`, as ranges of `source`.
    public struct Point: Sendable, Equatable {
        /// The `lat` and `lon` attributes' values (degrees, WGS 84), as written.
        public var latitude: Range<Int>
        public var longitude: Range<Int>
        /// Everything between the point's start and end tags.
        public var content: Range<Int>
        /// The `<ele>` element and the `<extensions>` element, whole, when present.
        public var elevation: Range<Int>?
        public var extensions: Range<Int>?
        /// The inside of `<extensions>`.
        public var extensionsContent: Range<Int>?

        /// The parts of `content` other than the `ele` and `extensions` elements, in order.
        public var otherContent: [Range<Int>] {
            var parts: [Range<Int>] = []
            var start = content.lowerBound
            for hole in [elevation, extensions].compactMap({ $0 }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
                if hole.lowerBound > start { parts.append(start..<hole.lowerBound) }
                start = max(start, hole.upperBound)
            }
            if content.upperBound > start { parts.append(start..<content.upperBound) }
            return parts
        }
    }

    /// The text of `range` of the source.
    public func text(_ range: Range<Int>) -> String {
        source.withUnsafeBytes { String(decoding: UnsafeRawBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    /// A point's children other than `<ele>` and `<extensions>` (`<time>`, `<sat>`...), as written.
    public func children(_ point: Point) -> String { point.otherContent.map(text).joined() }

    /// The inside of a point's `<extensions>` as written, empty when it has none.
    public func extensions(_ point: Point) -> String { point.extensionsContent.map(text) ?? "" }
}
