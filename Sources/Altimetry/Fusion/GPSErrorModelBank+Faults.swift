extension GPSErrorModelBank {
    /// Records the fault episodes of the reading just processed at `time`: those the leading member's monitor
    /// started, changed or ended at it.
    ///
    /// Every member watches its own sensors with its own `SensorFaultMonitor` and acts on what it sees (re-anchors a
    /// barometer that stepped, ignores one that is stuck, re-anchors a GPS that jumped, resets after a lock-out or a
    /// one-sided start), because each member is a complete model of the receiver: the fault rules are part of what
    /// its likelihood scores. The barometer's faults are the same in every member (the pressure's innovation hardly
    /// depends on the GPS hypothesis); the GPS rules depend on it (a 30 m receiver explains an offset that a 2 m one
    /// calls a lock-out). The bank reports what the hypothesis it follows does, as it reports that member's fix
    /// counts and update records: an episode enters the bank's list when the member leading at that reading starts
    /// it, and follows that member while it goes on. A member that resets while others lead moves the mixture by its
    /// weight's share of the shift and is not reported.
    ///
    /// Episodes are matched by their start time and kind, a step matching the spike it turns into.
    mutating func recordEpisodes(at time: Double) {
        let hasActive = episodes.contains { $0.isActive }
        let leader = leadingIndex
        guard members[leader].faults?.status.isEmpty == false || hasActive else { return }
        var touched: [Int] = []
        for episode in members[leader].episodes where episode.endTime == time {
            let match = episodes.lastIndex {
                $0.startTime == episode.startTime && Self.isSameEpisode($0.kind, episode.kind)
            }
            if let i = match {
                episodes[i] = episode
                touched.append(i)
            } else {
                touched.append(episodes.count)
                episodes.append(episode)
            }
        }
        // An episode the new leader does not carry on ends where it was last seen.
        for i in episodes.indices where episodes[i].isActive && !touched.contains(i) {
            let carried = members[leader].episodes.contains {
                $0.isActive && $0.startTime == episodes[i].startTime && $0.kind == episodes[i].kind
            }
            if !carried { episodes[i].isActive = false }
        }
    }

    /// Whether an episode recorded as `a` is the episode now of kind `b`: the same kind, or a step that became a spike.
    static func isSameEpisode(_ a: FilterEpisode.Kind, _ b: FilterEpisode.Kind) -> Bool {
        a == b || (a == .barometerStep && b == .barometerSpike)
    }
}
