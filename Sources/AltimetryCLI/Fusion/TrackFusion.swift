import Altimetry
import StateEstimation

/// One track's filter, fed its input rows one at a time in order, and the tally of what became of them.
///
/// Both `TrackFuser` (a whole table) and `StreamingFuser` (a file chunk by chunk) run rows through this type,
/// so a row gets the same `FusedRow` either way: a row the reader marked invalid, or one with neither a pressure
/// nor a GPS altitude, is `rejected` with the reason; any other row carries the filter's estimate after it.
struct TrackFusion {
    /// The file as named in messages.
    let file: String
    /// Mark rows the filter refuses as rejected instead of stopping.
    let skipInvalid: Bool
    /// Keep every usable row's index and reading for the smoother.
    let keepsReadings: Bool
    var filter: AltitudeFilter
    var summary: TrackFuser.TrackSummary
    /// Whether a row reached the filter; the final estimate is then the filter's current one, read once at the
    /// end (copying each row's estimate, update records and all, cost a few per cent of `fuse`).
    var hasFinal = false
    /// With `keepsReadings`: the usable rows' indices (as the caller numbers them) and their readings.
    var usable: [Int] = []
    var readings: [AltitudeReading] = []

    /// A fusion starting from `resume`, or from the model's prior with `parameters`.
    ///
    /// - Throws: `InputError` naming `file` when the parameters or the checkpoint cannot start a filter.
    init(name: String, file: String, parameters: AltitudeModelParameters, resume: AltitudeFilterCheckpoint?,
         skipInvalid: Bool, keepsReadings: Bool) throws(InputError) {
        self.file = file
        self.skipInvalid = skipInvalid
        self.keepsReadings = keepsReadings
        summary = TrackFuser.TrackSummary(name: name)
        do {
            filter = try resume.map { c throws(AltitudeModelError) in try AltitudeFilter(restoring: c) }
                ?? AltitudeFilter(parameters: parameters)
        } catch {
            throw InputError(file: file, message: "cannot start the filter: \(error)", exitCode: .dataError)
        }
    }

    static let noReading = "no pressure and no GPS reading"

    /// Fuses `rows[i]` (read in place: copying a whole `InputRow` per row costs more than reading its fields).
    ///
    /// - Parameter index: the row's number as the caller counts, kept for the smoother.
    /// - Throws: `InputError` naming the row's line when the filter refuses it and `skipInvalid` is off.
    @inline(__always)
    mutating func fuse(_ rows: UnsafeBufferPointer<InputRow>, _ i: Int, index: Int) throws(InputError) -> FusedRow {
        summary.rows += 1
        if let reason = rows[i].invalidReason { return Self.rejected(reason) }
        if rows[i].pressure == nil && rows[i].gpsAltitude == nil { return Self.rejected(Self.noReading) }
        let r = AltitudeReading(time: rows[i].time, pressure: rows[i].pressure, gpsAltitude: rows[i].gpsAltitude,
                                gpsVerticalAccuracy: rows[i].gpsVerticalAccuracy, temperature: rows[i].temperature)
        do throws(AltitudeModelError) {
            let e = try filter.process(r)
            hasFinal = true
            if keepsReadings {
                usable.append(index)
                readings.append(r)
            }
            return Self.fill(e, status: Self.status(e))
        } catch {
            let problem = InputError(file: file, line: rows[i].line, message: "the filter refused the row: \(error)")
            guard skipInvalid else { throw problem }
            summary.refused.append(problem)
            return Self.rejected(error.description)
        }
    }

    /// The summary after the last row: fixes, fronts, the final estimate and the filter's checkpoint.
    func finished() -> TrackFuser.TrackSummary {
        var summary = summary
        summary.final = hasFinal ? filter.currentEstimate : nil
        summary.fixes = filter.fixCount - filter.gatedFixCount
        summary.gatedFixes = filter.gatedFixCount
        summary.fronts = filter.fronts
        summary.checkpoint = filter.checkpoint
        return summary
    }

    static func fill(_ e: AltitudeEstimate, status: FusedRow.Status) -> FusedRow {
        var out = FusedRow()
        out.altitude = e.altitude
        out.altitudeStandardDeviation = e.altitudeStandardDeviation
        out.precision = e.displayPrecision
        out.relativeAltitude = e.relativeAltitude
        out.seaLevelPressure = e.seaLevelPressure
        out.seaLevelPressureStandardDeviation = e.seaLevelPressureStandardDeviation
        out.gpsError = e.gpsError
        out.status = status
        return out
    }

    static func status(_ e: AltitudeEstimate) -> FusedRow.Status {
        if let record = e.gpsUpdate, case .rejected(.innovationGate(let threshold)) = record.decision {
            return .gated(nis: record.normalizedInnovationSquared, threshold: threshold)
        }
        return .ok
    }

    static func rejected(_ reason: String) -> FusedRow {
        var row = FusedRow()
        row.status = .rejected(reason)
        return row
    }
}
