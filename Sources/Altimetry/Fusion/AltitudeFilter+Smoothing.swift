import LinearAlgebra
import StateEstimation

extension AltitudeFilter {
    /// Fuses a whole track and smooths it with the engine's Rauch-Tung-Striebel smoother.
    ///
    /// The forward pass is the ordinary filter (with its gating); the backward pass gives every reading the
    /// benefit of the readings after it, so the smoothed sigma is at most the filtered one. Relative altitude and
    /// update records are carried from the forward pass. `SmoothedAltitudeTrack` also keeps the cross-covariances,
    /// for the uncertainty of altitude differences.
    ///
    /// - Parameters:
    ///   - readings: the track in time order (time in seconds, pressure in hPa, GPS altitude in metres, temperature in
    ///     kelvin).
    ///   - parameters: the model's tunable numbers (`AltitudeModelParameters`).
    /// - Returns: the filtered and the smoothed estimates, one of each per reading.
    /// - Throws: as `process(_:)`, naming the first failing reading's time.
    public static func smooth(
        _ readings: [AltitudeReading], parameters: AltitudeModelParameters = AltitudeModelParameters()
    )
        throws(AltitudeModelError) -> (filtered: [AltitudeEstimate], smoothed: [AltitudeEstimate])
    {
        var filtered: [AltitudeEstimate] = []
        var smoothed: [AltitudeEstimate] = []
        filtered.reserveCapacity(readings.count)
        smoothed.reserveCapacity(readings.count)
        try smooth(
            readings, parameters: parameters, filtered: { filtered.append($1) },
            smoothed: { index, estimate in
                var e = estimate
                e.relativeAltitude = filtered[index].relativeAltitude
                e.barometerUpdate = filtered[index].barometerUpdate
                e.gpsUpdate = filtered[index].gpsUpdate
                smoothed.append(e)
            })
        // The backward pass gave them from the last reading back.
        smoothed.reverse()
        return (filtered, smoothed)
    }

    /// Fuses and smooths `readings` as `smooth(_:parameters:)` does, handing each reading's filtered estimate to
    /// `filtered` during the forward pass, in reading order, and its smoothed estimate to `smoothed` during the
    /// backward pass, from the last reading back to the first, instead of keeping either.
    ///
    /// The backward pass does not keep the whole recorded run. The forward pass keeps a copy of the filter every
    /// `segmentLength` readings or so (at a reading that begins an epoch); the backward pass then takes the
    /// segments from the last to the first, runs each forward again from its copy with recording on
    /// (`KalmanFilter.startRecording()`), and smooths it from the smoothed state where the later segment began
    /// (`RauchTungStriebelSmoother.smooth(_:endingAt:)`). The estimates are those of smoothing the whole run at
    /// once, to the bit; memory is one segment's run (184 bytes an epoch for the five states of the column model,
    /// see `FilterRun`) and one filter per segment, whatever the track's length, for a second forward pass's time.
    /// `readings` must stay readable until the end (a lazy view of the caller's own rows is enough). A smoothed
    /// estimate carries the state's numbers only (relative altitude 0, no update records, no status): those
    /// belong to the forward pass.
    ///
    /// With `learnsReceiver`, the forward pass is the learning filter; the backward pass smooths the run of the fixed
    /// model with the receiver learned over the whole track, by a second forward pass of that model.
    ///
    /// - Parameters:
    ///   - readings: the track in time order (time in seconds, pressure in hPa, GPS altitude in metres,
    ///     temperature in kelvin), indexed by `Int`; read again by the backward pass, so it must stay readable
    ///     until the end.
    ///   - parameters: the model's tunable numbers (`AltitudeModelParameters`); with `learnsReceiver` on, the
    ///     smoothed model is the receiver learned over the whole track (`learnedReceiverModel`).
    ///   - segmentLength: readings per segment of the backward pass (at least 1): larger keeps more of the
    ///     run at once, smaller keeps more filters.
    ///   - filtered: called with each reading's index in `readings` and its filtered estimate (the learning
    ///     filter's with `learnsReceiver` on), during the forward pass, in reading order.
    ///   - smoothed: called with each reading's index in `readings` and its smoothed estimate, during the
    ///     backward pass, from the last reading back to the first.
    /// - Throws: as `process(_:)`, naming the first failing reading's time; `.numerical` if the smoother fails.
    /// - Complexity: O(N) time for N readings (two forward passes and one backward pass, three when the receiver is learned);
    ///   O(L + N / L) memory besides `readings`, for segments of L readings.
    public static func smooth<Readings: RandomAccessCollection<AltitudeReading>>(
        _ readings: Readings, parameters: AltitudeModelParameters = AltitudeModelParameters(),
        segmentLength: Int = 16_384,
        filtered: (Int, AltitudeEstimate) -> Void,
        smoothed: (Int, AltitudeEstimate) -> Void
    ) throws(AltitudeModelError) where Readings.Index == Int {
        let chosen =
            parameters.learnsReceiver
            ? try learnedReceiverModel(readings, parameters: parameters, filtered: filtered) : parameters
        // The forward pass, keeping the filter before the first reading of each segment (nil: a fresh filter).
        var starts: [(reading: Int, filter: AltitudeFilter?)] = [(readings.startIndex, nil)]
        var filter = try AltitudeFilter(parameters: chosen)
        for index in readings.indices {
            let reading = readings[index]
            if index - starts[starts.count - 1].reading >= max(1, segmentLength), let time = filter.engine?.time,
                reading.time > time
            {
                starts.append((index, filter))
            }
            let estimate = try filter.process(reading)
            if !parameters.learnsReceiver { filtered(index, estimate) }
        }
        guard !readings.isEmpty else { return }
        let thermometer = readings.contains { $0.temperature != nil }
        // The backward pass, a segment at a time from the last: each ends at the epoch where the next one began.
        var end = readings.endIndex
        var last: (mean: Matrix, covariance: Matrix)?
        var epochs: [Int32] = []
        var levels: [Double] = []
        for (start, saved) in starts.reversed() {
            var segment: AltitudeFilter
            if let saved {
                segment = saved
                if segment.isStarted { segment.core.startRecording() }
            } else {
                segment = try AltitudeFilter(parameters: chosen, recordsRun: true)
            }
            epochs.removeAll(keepingCapacity: true)
            levels.removeAll(keepingCapacity: true)
            for index in start..<end {
                levels.append(try segment.process(readings[index]).heightMoved)
                epochs.append(Int32((segment.core.recordedRun?.epochCount ?? 1) - 1))
            }
            guard segment.isStarted, let run = segment.core.takeRecordedRun() else { return }
            let result = try smoothedRun(run, endingAt: last)
            last = (result.mean(at: 0), result.covariance(at: 0))
            for index in (start..<end).reversed() {
                let epoch = Int(epochs[index - start])
                smoothed(
                    index,
                    smoothedEstimate(
                        time: result.times[epoch], mean: result.mean(at: epoch),
                        covariance: result.covariance(at: epoch), parameters: chosen,
                        heightMoved: levels[index - start], thermometer: thermometer))
            }
            end = start
        }
    }

    /// The smoothed estimate at a smoothed state: `estimate(time:mean:covariance:parameters:)`, with the column
    /// temperature's lapse-rate spread (`addLapseRateSpread`) unless a station temperature is among the readings
    /// (`thermometer`), since the smoothed column has seen every reading.
    static func smoothedEstimate(
        time: Double, mean: Matrix, covariance: Matrix, parameters: AltitudeModelParameters, heightMoved: Meters,
        thermometer: Bool
    ) -> AltitudeEstimate {
        var e = estimate(
            time: time, mean: mean, covariance: covariance, parameters: parameters, heightMoved: heightMoved)
        e.heightMoved = heightMoved
        if !thermometer { addLapseRateSpread(to: &e, parameters: parameters) }
        return e
    }

    /// The forward pass of the smoother: `readings` through a filter that records its run, each filtered estimate
    /// handed to `filtered`.
    ///
    /// - Returns: the run's epoch of each reading (readings at one time share one) and the run, handed over by
    ///   the filter; nil without readings.
    /// - Throws: as `process(_:)`.
    static func recordedRun(
        _ readings: [AltitudeReading], parameters: AltitudeModelParameters,
        filtered: (Int, AltitudeEstimate) -> Void
    ) throws(AltitudeModelError) -> (epochs: [Int32], run: FilterRun)? {
        var filter = try AltitudeFilter(parameters: parameters, recordsRun: true)
        var epochs: [Int32] = []
        epochs.reserveCapacity(readings.count)
        for (index, reading) in readings.enumerated() {
            filtered(index, try filter.process(reading))
            epochs.append(Int32((filter.core.recordedRun?.epochCount ?? 1) - 1))
        }
        guard filter.isStarted, let run = filter.core.takeRecordedRun() else { return nil }
        return (epochs, run)
    }

    /// `run` smoothed by the engine's Rauch-Tung-Striebel smoother (in the run's own storage when it is handed
    /// over whole), from `last` when it is a segment of a longer run (`RauchTungStriebelSmoother.smooth(_:endingAt:)`).
    ///
    /// - Throws: `.numerical` if the smoother fails.
    static func smoothedRun(
        _ run: consuming FilterRun, endingAt last: (mean: Matrix, covariance: Matrix)? = nil
    ) throws(AltitudeModelError) -> SmoothedRun {
        do {
            var smoother = RauchTungStriebelSmoother(stateCount: run.stateCount)
            return try smoother.smooth(run, endingAt: last)
        } catch {
            throw .numerical(String(describing: error))
        }
    }

    /// The fixed model a whole track is smoothed with when the filter learns the receiver: the parameters with the
    /// receiver the learner holds at the end of the track (`ReceiverLearner`), after a forward pass of the learning
    /// filter over `readings` whose estimates are handed to `filtered`. The smoother is then a fixed model learned
    /// from the whole track, as EM's second pass is.
    static func learnedReceiverModel<Readings: RandomAccessCollection<AltitudeReading>>(
        _ readings: Readings, parameters: AltitudeModelParameters,
        filtered: (Int, AltitudeEstimate) -> Void
    ) throws(AltitudeModelError) -> AltitudeModelParameters where Readings.Index == Int {
        var filter = try AltitudeFilter(parameters: parameters)
        for index in readings.indices { filtered(index, try filter.process(readings[index])) }
        var fixed = parameters
        fixed.learnsReceiver = false
        fixed.receiver = filter.receiver
        return fixed
    }
}
