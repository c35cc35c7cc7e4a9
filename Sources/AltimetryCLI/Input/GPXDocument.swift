/// What a GPX file holds beyond its readings, kept so GPX output can give back exactly the input's track points.
///
/// Track points are in file order, one `InputRow` each (the reader's table has row k for point k). Everything is
/// kept as the input's own XML text, so nothing the reader does not understand (heart rate, cadence, power,
/// `<name>`, `<type>`, `<sat>`, other applications' extensions) is lost or rewritten; waypoints and routes are
/// not carried.
public struct GPXDocument: Sendable, Equatable {
    /// The root element's namespace declarations as written (`xmlns:gpxtpx="..."`), for the extensions' prefixes.
    public var namespaceDeclarations: [String] = []
    /// The `<metadata>` element as written, if any.
    public var metadata: String?
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

    /// One `<trkpt>`: its position as written and its other content.
    public struct Point: Sendable, Equatable {
        /// The `lat` and `lon` attributes' text (degrees, WGS 84), as written.
        public var latitude: String
        public var longitude: String
        /// The point's children other than `<ele>` and `<extensions>` (`<time>`, `<sat>`...), as written.
        public var children = ""
        /// The inside of the point's `<extensions>` as written (for example a Garmin `TrackPointExtension`).
        public var extensions = ""
    }

    /// The `creator` attribute of the root (the application or device that wrote the file).
    public var creator = ""
}
