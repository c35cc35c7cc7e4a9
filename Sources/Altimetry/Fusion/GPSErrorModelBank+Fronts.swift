import Foundation

extension GPSErrorModelBank {
    /// The weight the leading hypothesis must hold for a front it sees begin to be reported.
    ///
    /// A front is the weather's share of a move the barometer saw: what is left once GPS has said how far the device
    /// moved. That split is only as good as the receiver hypothesis behind it. A member that believes a receiver
    /// whose error is correlated over a minute calls a slow wander of 25 m weather, a 3 hPa front; a member that
    /// believes one correlated over an hour calls the same wander the receiver's. Where the bank cannot tell
    /// these receivers apart it cannot tell a front from a wander, and it reports none. Measured with
    /// `altimetry-bench real` and the catalogue's `front` day (`altimetry simulate front --seed S`, S = 1 to 6, then
    /// `altimetry fuse FILE --adapt on`), with the threshold at 0, 0.5, 0.8 and 0.95, before the column's hold at a
    /// still station (`AltitudeFilter.holdsColumn(at:)`): the 9.8-day static logger's fronts 33, 19, 4 and 0 (its
    /// barometer alone moves 3 hPa within 40 minutes once), the desk 1, 1, 1 and 0, the 7.3 h logger's 3 at every
    /// threshold (its pressure falls 15 hPa in 4.6 hours outdoors), and the front day's fronts found on all six seeds
    /// at every threshold. With the hold the 9.8-day logger reports 10 at 0.8 (6 at 0.9).
    public static let frontCertainty = 0.8

    /// Records the fronts of the reading just processed at `time`: those the leading member's reporting detector
    /// began or extended at it.
    ///
    /// Every member watches the weather at its station with its own `FrontDetector`, so a front is seen through one
    /// receiver hypothesis, as a single filter sees it. The bank reports what the hypothesis it follows sees, as it
    /// reports that member's fault episodes (`recordEpisodes(at:)`): a front enters the list when the member leading
    /// at that reading begins it and holds at least `frontCertainty` of the weight, and follows that member while it
    /// goes on. Fronts are matched by their start time and never overlap: one that begins before the last reported
    /// one ended (another member's view of the same move) is left out.
    mutating func recordFronts(at time: Double) {
        let leader = leadingIndex
        for front in members[leader].fronts where front.endTime == time {
            if let i = fronts.lastIndex(where: { $0.startTime == front.startTime }) {
                fronts[i] = front
            } else if let last = fronts.last, front.startTime < last.endTime {
                continue
            } else if logWeights[leader] >= log(Self.frontCertainty) {
                fronts.append(front)
            }
        }
    }
}
