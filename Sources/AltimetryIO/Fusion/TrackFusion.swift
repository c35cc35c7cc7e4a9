import Altimetry
import StateEstimation

/// One track's filter, fed its input rows one at a time in order, and the tally of what became of them.
///
/// A row the reader marked invalid is `rejected` with the reason; a row with a time and no reading gets the
/// filter's prediction at that time (`predicted`; `rejected` before the first reading, with nothing to predict
/// from); any other row carries the filter's estimate after it. With `smooth`, the track's rows are held
/// (`SmoothedRows`) and their estimates given by `finishSmoothing` once the track is complete.
package struct TrackFusion {
    /// The file as named in messages.
    let file: String
    /// Mark rows the filter refuses as rejected instead of stopping.
    let skipInvalid: Bool
    package var filter: AltitudeFilter
    var summary: TrackSummary
    /// Whether a row reached the filter; the final estimate is then the filter's current one, read once at the
    /// end (copying each row's estimate, update records and all, cost a few per cent of `fuse`).
    var hasFinal = false
    /// With `--smooth`: the rows held until the track is complete.
    var held: SmoothedRows?
    /// The rows the filter refused under `skipInvalid`, for stderr.
    var refusals: [InputError] = []

    /// A fusion starting from `resume`, or from the model's prior with `parameters`.
    ///
    /// - Throws: `InputError` naming `file` when the parameters or the checkpoint cannot start a filter.
    package init(
        name: String, file: String, parameters: AltitudeModelParameters, resume: AltitudeFilterCheckpoint?,
        skipInvalid: Bool, smooth: Bool
    ) throws(InputError) {
        self.file = file
        self.skipInvalid = skipInvalid
        summary = TrackSummary(track: name)
        if smooth { held = SmoothedRows() }
        do {
            filter =
                try resume.map { c throws(AltitudeModelError) in try AltitudeFilter(restoring: c) }
                ?? AltitudeFilter(parameters: parameters)
        } catch {
            throw InputError(file: file, message: "cannot start the filter: \(error)", exitCode: .dataError)
        }
    }

    /// The estimate after `rows[i]` (nil when rejected) and the row's status; rows are read in place (copying a
    /// whole `InputRow` per row costs more than reading its fields).
    ///
    /// - Throws: `InputError` naming the row's line when the filter refuses it and `skipInvalid` is off.
    @inline(__always)
    package mutating func fuse(_ rows: UnsafeBufferPointer<InputRow>, _ i: Int) throws(InputError) -> (
        AltitudeEstimate?, RowStatus
    ) {
        summary.rows += 1
        if let reason = rows[i].invalidReason { return rejected(rows[i].line, reason) }
        if rows[i].pressure == nil && rows[i].gpsAltitude == nil {
            guard let e = filter.predictedEstimate(at: rows[i].time) else {
                return rejected(rows[i].line, hasFinal ? "before the filter's time" : "no reading yet to predict from")
            }
            summary.predicted += 1
            return (e, .predicted)
        }
        let r = AltitudeReading(
            time: rows[i].time, pressure: rows[i].pressure, gpsAltitude: rows[i].gpsAltitude,
            gpsVerticalAccuracy: rows[i].gpsVerticalAccuracy, temperature: rows[i].temperature)
        do throws(AltitudeModelError) {
            let e = try filter.process(r)
            hasFinal = true
            if r.pressure != nil { summary.barometerReadings += 1 }
            return (e, RowStatus(e))
        } catch {
            let problem = InputError(file: file, line: rows[i].line, message: "the filter refused the row: \(error)")
            guard skipInvalid else { throw problem }
            refusals.append(problem)
            return rejected(rows[i].line, error.description)
        }
    }

    private mutating func rejected(_ line: Int, _ reason: String) -> (AltitudeEstimate?, RowStatus) {
        summary.reject(line: line, reason: reason)
        return (nil, .rejected(reason))
    }

    /// The summary after the last row: fixes, fronts, the final estimate and the filter's checkpoint.
    func finished() -> TrackSummary {
        var summary = summary
        summary.finalEstimate = hasFinal ? filter.currentEstimate : nil
        summary.final = summary.finalEstimate.map {
            TrackSummary.Final($0, hasBarometer: summary.barometerReadings > 0)
        }
        summary.fixesUsed = filter.fixCount - filter.gatedFixCount
        summary.fixesGated = filter.gatedFixCount
        summary.fronts = filter.fronts
        summary.episodes = filter.episodes
        summary.checkpoint = filter.checkpoint
        return summary
    }
}
