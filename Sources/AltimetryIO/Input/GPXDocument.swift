import Foundation

/// What a GPX file holds beyond its readings, kept so GPX output can give back exactly the input's track points.
///
/// Track points are in file order, one `InputRow` each (the reader's table has row k for point k). A point is kept
/// as ranges of the input's own bytes (`source`, shared with the input, not copied), so nothing the reader does
/// not understand (heart rate, cadence, power, `<sat>`, other applications' extensions) is lost or rewritten, and
/// keeping it costs no string per point. Track elements (`<name>`, `<type>`...) and `<metadata>` are kept as
/// text. Waypoints and routes are not carried.
package struct GPXDocument: Sendable, Equatable {
    /// The input's bytes, which the points' ranges index.
    package var source = Data()
    /// The root element's namespace declarations as written (`xmlns:gpxtpx="..."`), for the extensions' prefixes.
    package var namespaceDeclarations: [String] = []
    /// The `<metadata>` element as written, if any.
    package var metadata: String?
    /// The `creator` attribute of the root (the application or device that wrote the file).
    package var creator = ""
    /// The tracks, in file order.
    package var tracks: [Track] = []
    /// The track points, in file order.
    package var points: [Point] = []

    /// One `<trk>`: its own elements and its segments.
    package struct Track: Sendable, Equatable {
        /// The track's children other than its segments (`<name>`, `<type>`, `<extensions>`...) as written.
        package var header = ""
        /// Each segment's points, as ranges of indices into `points`.
        package var segments: [Range<Int>] = []
    }

    /// One `<trkpt>`, as ranges of `source`.
    package struct Point: Sendable, Equatable {
        /// The `lat` and `lon` attributes' values (degrees, WGS 84), as written.
        package var latitude: Range<Int>
        package var longitude: Range<Int>
        /// Everything between the point's start and end tags.
        package var content: Range<Int>
        /// The `<ele>` element and the `<extensions>` element, whole, when present.
        package var elevation: Range<Int>?
        package var extensions: Range<Int>?
        /// The inside of `<extensions>`.
        package var extensionsContent: Range<Int>?

        /// The parts of `content` other than the `ele` and `extensions` elements, in order.
        package var otherContent: [Range<Int>] {
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
    package func text(_ range: Range<Int>) -> String {
        source.withUnsafeBytes { String(decoding: UnsafeRawBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    /// A point's children other than `<ele>` and `<extensions>` (`<time>`, `<sat>`...), as written.
    package func children(_ point: Point) -> String { point.otherContent.map(text).joined() }

    /// The inside of a point's `<extensions>` as written, empty when it has none.
    package func extensions(_ point: Point) -> String { point.extensionsContent.map(text) ?? "" }
}
