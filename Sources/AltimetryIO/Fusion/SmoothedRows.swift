import Altimetry

/// A track's rows held until the track is complete, for the Rauch-Tung-Striebel smoother (`fuse --smooth`).
///
/// Per row it keeps the `InputRow` (96 bytes), its time text and pass-through values when the input has them,
/// what the row is (24 bytes: a reading's index, a prediction's index, or the reason it was rejected) and, for
/// a row with a reading, the `AltitudeReading` (72 bytes). Smoothing adds, per reading, the recorded run's epoch
/// (184 bytes, smoothed in place; see `FilterRun`), its index (4 bytes) and the forward pass's relative altitude
/// and status (32 bytes); the rows' output lines are formatted as the smoothed estimates arrive, in order. See
/// Docs/reliability.md for the measured peak.
struct SmoothedRows {
    /// What became of a row in the forward pass.
    enum Outcome {
        /// A reading: its index in `readings`.
        case reading(Int32)
        /// A prediction: its index in `predictions`.
        case predicted(Int32)
        /// Rejected, with the reason.
        case rejected(String)
    }

    var rows: [InputRow] = []
    var timeTexts: [String] = []
    var passThrough: [PassThroughValue] = []
    var outcomes: [Outcome] = []
    var readings: [AltitudeReading] = []
    var predictions: [AltitudeEstimate] = []

    /// Holds a row the forward pass gave `estimate` and `status` (after `TrackFusion.fuse` added its reading).
    mutating func hold(
        _ row: InputRow, timeText: String?, passThrough values: ArraySlice<PassThroughValue>,
        estimate: AltitudeEstimate?, status: RowStatus
    ) {
        rows.append(row)
        if let timeText { timeTexts.append(timeText) }
        passThrough.append(contentsOf: values)
        switch status {
        case .ok, .episode, .gated: outcomes.append(.reading(Int32(readings.count - 1)))
        case .predicted:
            outcomes.append(.predicted(Int32(predictions.count)))
            if let estimate { predictions.append(estimate) }
        case .rejected(let reason): outcomes.append(.rejected(reason))
        }
    }

    /// Smooths `readings` (the held rows' readings, taken out of `readings` and handed over, so that the smoother
    /// lets them go after its forward pass) and calls `body` with each held row, in order: its index, the smoothed
    /// estimate (the forward prediction for a predicted row, nil for a rejected one) and the status of the
    /// forward pass.
    ///
    /// - Returns: the last smoothed estimate (nil without readings).
    /// - Throws: `InputError` naming `file` if the smoother fails.
    func smooth(
        _ readings: consuming [AltitudeReading], parameters: AltitudeModelParameters, file: String,
        _ body: (Int, AltitudeEstimate?, RowStatus) -> Void
    ) throws(InputError) -> AltitudeEstimate? {
        // Of the forward pass, per reading: the relative altitude the smoothed estimate carries over, and the
        // row's status.
        var forward: [(relativeAltitude: Double, status: RowStatus)] = []
        forward.reserveCapacity(readings.count)
        var next = 0
        var last: AltitudeEstimate?
        // Hands `body` the rows from `next` up to the next row with a reading.
        func handOverRowsWithoutReading() {
            while next < outcomes.count {
                switch outcomes[next] {
                case .reading: return
                case .predicted(let k): body(next, Int(k) < predictions.count ? predictions[Int(k)] : nil, .predicted)
                case .rejected(let reason): body(next, nil, .rejected(reason))
                }
                next += 1
            }
        }
        if !readings.isEmpty {
            do {
                // The smoothed estimates arrive in reading order, so the rows are handed over in order as they come.
                try AltitudeFilter.smooth(
                    consume readings, parameters: parameters,
                    filtered: { _, e in
                        forward.append((e.relativeAltitude, RowStatus(e)))
                    },
                    smoothed: { k, e in
                        handOverRowsWithoutReading()
                        guard next < outcomes.count, k < forward.count else { return }
                        var e = e
                        e.relativeAltitude = forward[k].relativeAltitude
                        body(next, e, forward[k].status)
                        last = e
                        next += 1
                    })
            } catch {
                throw InputError(file: file, message: "the smoother failed: \(error)")
            }
        }
        while next < outcomes.count {
            handOverRowsWithoutReading()
            if next < outcomes.count {
                body(next, nil, .rejected("the smoother gave no estimate"))
                next += 1
            }
        }
        return last
    }
}
