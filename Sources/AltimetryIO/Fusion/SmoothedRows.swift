import Altimetry

/// A track's rows held until the track is complete, for the Rauch-Tung-Striebel smoother (`fuse --smooth`).
///
/// Per row it keeps the `InputRow` (96 bytes), its time text (in one byte buffer, `TimeTexts`) and pass-through
/// values when the input has them, and what the row is (8 bytes: a reading, a prediction's index, or the index of
/// the reason it was rejected); per reading, its row (4 bytes) and the forward pass's relative altitude (8 bytes;
/// a status other than `ok` is kept beside, for the few rows that have one). The readings are not kept: the
/// smoother reads them from the rows (`HeldReadings`), and keeps its recorded run only a segment at a time
/// (`AltitudeFilter.smooth(_:parameters:segmentLength:filtered:smoothed:)`). See Docs/reliability.md for the
/// measured peak.
struct SmoothedRows {
    /// What became of a row in the forward pass.
    enum Outcome {
        /// A reading (the next in `readingRows`).
        case reading
        /// A prediction: its index in `predictions`.
        case predicted(Int32)
        /// Rejected: the index of the reason in `rejections`.
        case rejected(Int32)
    }

    var rows: [InputRow] = []
    var timeTexts = TimeTexts()
    var passThrough: [PassThroughValue] = []
    var outcomes: [Outcome] = []
    /// Each reading's row, in order.
    var readingRows: [Int32] = []
    var predictions: [AltitudeEstimate] = []
    var rejections: [String] = []

    /// Holds a row the forward pass gave `estimate` and `status` (after `TrackFusion.fuse` processed it).
    mutating func hold(
        _ row: InputRow, timeText: String?, passThrough values: ArraySlice<PassThroughValue>,
        estimate: AltitudeEstimate?, status: RowStatus
    ) {
        rows.append(row)
        if let timeText { timeTexts.append(timeText) }
        passThrough.append(contentsOf: values)
        switch status {
        case .ok, .episode, .gated:
            outcomes.append(.reading)
            readingRows.append(Int32(rows.count - 1))
        case .predicted:
            outcomes.append(.predicted(Int32(predictions.count)))
            if let estimate { predictions.append(estimate) }
        case .rejected(let reason):
            outcomes.append(.rejected(Int32(rejections.count)))
            rejections.append(reason)
        }
    }

    /// The held readings, read from their rows as the smoother asks for them.
    struct HeldReadings: RandomAccessCollection {
        let rows: [InputRow]
        let readingRows: [Int32]
        var startIndex: Int { 0 }
        var endIndex: Int { readingRows.count }
        subscript(k: Int) -> AltitudeReading { rows[Int(readingRows[k])].reading }
    }

    /// Smooths the held rows' readings and calls `body` with each held row, from the last back to the first: its
    /// index, the smoothed estimate (the forward prediction for a predicted row, nil for a rejected one) and the
    /// status of the forward pass.
    ///
    /// - Returns: the last smoothed estimate (nil without readings).
    /// - Throws: `InputError` naming `file` if the smoother fails.
    func smooth(
        parameters: AltitudeModelParameters, file: String, _ body: (Int, AltitudeEstimate?, RowStatus) -> Void
    ) throws(InputError) -> AltitudeEstimate? {
        // Of the forward pass, per reading: the relative altitude the smoothed estimate carries over, and the
        // statuses other than `ok` (by reading, in order).
        var relativeAltitudes: [Double] = []
        relativeAltitudes.reserveCapacity(readingRows.count)
        var statuses: [(reading: Int, status: RowStatus)] = []
        var next = outcomes.count - 1
        var last: AltitudeEstimate?
        // Hands `body` the rows from `next` back to the previous row with a reading.
        func handOverRowsWithoutReading() {
            while next >= 0 {
                switch outcomes[next] {
                case .reading: return
                case .predicted(let k): body(next, Int(k) < predictions.count ? predictions[Int(k)] : nil, .predicted)
                case .rejected(let k): body(next, nil, .rejected(Int(k) < rejections.count ? rejections[Int(k)] : ""))
                }
                next -= 1
            }
        }
        if !readingRows.isEmpty {
            do {
                // The smoothed estimates arrive from the last reading back, so the rows are handed over as they come.
                try AltitudeFilter.smooth(
                    HeldReadings(rows: rows, readingRows: readingRows), parameters: parameters,
                    filtered: { k, e in
                        relativeAltitudes.append(e.relativeAltitude)
                        let status = RowStatus(e)
                        if status != .ok { statuses.append((k, status)) }
                    },
                    smoothed: { k, e in
                        handOverRowsWithoutReading()
                        guard next >= 0, k < relativeAltitudes.count else { return }
                        var e = e
                        e.relativeAltitude = relativeAltitudes[k]
                        var status = RowStatus.ok
                        if let s = statuses.last, s.reading == k {
                            status = s.status
                            statuses.removeLast()
                        }
                        body(next, e, status)
                        if last == nil { last = e }
                        next -= 1
                    })
            } catch {
                throw InputError(file: file, message: "the smoother failed: \(error)")
            }
        }
        while next >= 0 {
            handOverRowsWithoutReading()
            if next >= 0 {
                body(next, nil, .rejected("the smoother gave no estimate"))
                next -= 1
            }
        }
        return last
    }
}

extension InputRow {
    /// The row's reading for the filter (its time and measurements).
    var reading: AltitudeReading {
        AltitudeReading(
            time: time, pressure: pressure, gpsAltitude: gpsAltitude, gpsVerticalAccuracy: gpsVerticalAccuracy,
            temperature: temperature)
    }
}
