import Altimetry
import Foundation

/// A `ReadingSource` over any input file the command line reads (CSV, NDJSON, GPX with an optional pressure
/// file), delivered at once or paced in real time, or faster by a factor.
///
/// The file is read when a stream starts, in the stream's task, with the same readers and options as
/// `altimetry fuse`, so the readings, and the estimates `fused(with:)` gives, are those of `fuse` on the same
/// file. An unreadable or invalid file finishes the stream with its `InputError`. Rows kept as invalid under
/// `skipInvalid` and rows with neither a pressure nor a GPS altitude are not delivered. A file with several
/// tracks replays the one named `track`.
///
/// Unavailable (`isAvailable` false) when the file does not exist: the stream then finishes at once without
/// error, as Core Motion's does on a device without a barometer; check `isAvailable` to tell the user.
public final class ReplaySource: ReadingSource {
    /// The input file.
    public let path: String
    /// With a GPX input: the barometer readings (CSV or NDJSON).
    public let pressurePath: String?
    /// How the file is read.
    public let options: ReadOptions
    /// The track to replay in a file with several (nil: the file must have one).
    public let track: String?
    /// How fast readings are delivered.
    public let pacing: SourcePacing
    /// Whether a consumer is iterating the readings, and how many it took (`ReadingSource`).
    public let activity = SourceActivity()

    /// A source replaying `path` (with `pressurePath`'s barometer readings for a GPX, TCX or FIT file) with
    /// `options`, its track `track`, at `pacing`.
    ///
    /// - Parameters:
    ///   - path: the input file.
    ///   - pressurePath: a file of barometer readings for a GPX, TCX or FIT file, or nil.
    ///   - options: how the file is read.
    ///   - track: the track to replay in a file with several (nil: the file must have one).
    ///   - pacing: how fast readings are delivered; all at once by default.
    public init(
        path: String, pressurePath: String? = nil, options: ReadOptions = ReadOptions(), track: String? = nil,
        pacing: SourcePacing = .immediate
    ) {
        self.path = path
        self.pressurePath = pressurePath
        self.options = options
        self.track = track
        self.pacing = pacing
    }

    /// Whether the file (and the pressure file, if any) exists.
    public var isAvailable: Bool {
        let files = [path] + (pressurePath.map { [$0] } ?? [])
        return files.allSatisfy { $0 == "-" || FileManager.default.fileExists(atPath: $0) }
    }

    /// The readings of a table, in file order, for one track.
    ///
    /// - Throws: `InputError` when the file has several tracks and `track` does not name one of them.
    static func readings(of table: InputTable, track: String?) throws(InputError) -> [AltitudeReading] {
        let index: Int
        if let track {
            guard let i = table.trackNames.firstIndex(of: track) else {
                throw InputError(
                    file: table.file,
                    message: "has no track '\(track)'; its tracks are "
                        + table.trackNames.map { "'\($0)'" }.joined(separator: ", "), exitCode: .usage)
            }
            index = i
        } else {
            guard table.trackNames.count <= 1 else {
                throw InputError(
                    file: table.file, message: "found \(table.trackNames.count) tracks; name the one to replay",
                    exitCode: .usage)
            }
            index = 0
        }
        return table.rows.compactMap { row in
            guard row.track == index, row.invalidReason == nil, row.pressure != nil || row.gpsAltitude != nil else {
                return nil
            }
            return AltitudeReading(
                time: row.time, pressure: row.pressure, gpsAltitude: row.gpsAltitude,
                gpsVerticalAccuracy: row.gpsVerticalAccuracy, temperature: row.temperature)
        }
    }

    /// The file's usable readings, in file order, at the source's pacing (time in seconds, pressure in hPa,
    /// altitudes in metres, temperature in kelvin).
    ///
    /// - Throws: (in the stream) the file's `InputError`.
    public func readings() -> AsyncThrowingStream<AltitudeReading, any Error> {
        ReadingStream.make(isAvailable: isAvailable, activity: activity) { deliver in
            // `self` is captured here, and so lives until this task returns.
            let table = try InputLoader.table(self.path, pressurePath: self.pressurePath, options: self.options)
            let readings = try Self.readings(of: table, track: self.track)
            guard let first = readings.first?.time else { return }
            let clock = ContinuousClock()
            let start = clock.now
            for reading in readings {
                if let delay = self.pacing.delay(of: reading.time, after: first) {
                    try await clock.sleep(until: start.advanced(by: .seconds(delay)))
                } else {
                    await Task.yield()
                }
                guard deliver(reading) else { return }
            }
        }
    }
}
