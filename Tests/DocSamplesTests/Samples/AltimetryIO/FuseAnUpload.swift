import Altimetry
import AltimetryIO
import Foundation

/// Fuses an uploaded recording (CSV, NDJSON, GPX, TCX, FIT or IGC, by its content) the way `altimetry fuse`
/// does: one NDJSON line per input row, and a summary per track (rows, GPS fixes used and gated, rejections,
/// the final altitude and its one sigma in metres).
func fuseUpload(_ upload: Data, named name: String) throws(InputError) -> (ndjson: [UInt8], tracks: [TrackSummary]) {
    var pipeline = FusePipeline(parameters: .adaptive)
    pipeline.format = .ndjson
    pipeline.skipInvalid = true  // a row the filter refuses is output as rejected, not thrown
    let options = ReadOptions(skipInvalid: true)  // and so is a row the reader cannot use
    let sink = OutputSink()  // in memory; OutputSink(path:) writes a file atomically
    let outcome = try pipeline.run(upload, file: name, options: options, to: sink) { diagnostic in
        _ = diagnostic  // a notice, or a skipped row naming its line and field: for the server's log
    }
    return (sink.bytes, outcome.tracks)
}
