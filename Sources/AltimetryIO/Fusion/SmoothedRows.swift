import Altimetry

/// A track's rows held until the track is complete, for the Rauch-Tung-Striebel smoother (`fuse --smooth`).
///
/// Per row it keeps the `InputRow` (96 bytes), its time text and pass-through values when the input has them,
/// what the row is (16 bytes: a reading's index, a prediction's index, or the reason it was rejected) and, for
/// a row with a reading, the `AltitudeReading` (72 bytes): about 190 bytes a row of its own, besides what the
/// smoother keeps per reading (`AltitudeFilter.smooth`: the filtered and smoothed estimates and the recorded
/// run). In all, `fuse --smooth` peaks at about 1.5 KB a row (measured: 161 MB at 100,000 rows, 466 MB at
/// 300,000, against a flat 30 MB without `--smooth`).
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
    mutating func hold(_ row: InputRow, timeText: String?, passThrough values: ArraySlice<PassThroughValue>,
                       estimate: AltitudeEstimate?, status: RowStatus) {
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

    /// Smooths the readings and calls `body` with each held row, in order: its index, the smoothed estimate (the
    /// forward prediction for a predicted row, nil for a rejected one) and the status of the forward pass.
    ///
    /// - Returns: the last smoothed estimate (nil without readings).
    /// - Throws: `InputError` naming `file` if the smoother fails.
    func smooth(parameters: AltitudeModelParameters, file: String,
                _ body: (Int, AltitudeEstimate?, RowStatus) -> Void) throws(InputError) -> AltitudeEstimate? {
        var filtered: [AltitudeEstimate] = []
        var smoothed: [AltitudeEstimate] = []
        if !readings.isEmpty {
            do { (filtered, smoothed) = try AltitudeFilter.smooth(readings, parameters: parameters) } catch {
                throw InputError(file: file, message: "the smoother failed: \(error)")
            }
        }
        for (i, outcome) in outcomes.enumerated() {
            switch outcome {
            case .reading(let k):
                let k = Int(k)
                if k < smoothed.count && k < filtered.count {
                    body(i, smoothed[k], RowStatus(filtered[k]))
                } else {
                    body(i, nil, .rejected("the smoother gave no estimate"))
                }
            case .predicted(let k): body(i, Int(k) < predictions.count ? predictions[Int(k)] : nil, .predicted)
            case .rejected(let reason): body(i, nil, .rejected(reason))
            }
        }
        return smoothed.last
    }
}
