import Foundation

extension GPSErrorModelBank {
    /// Puts every member in the same weather noise regime, ordinary or front: the front noise where the members'
    /// sensitive detectors, weighted by the members' weights, see a front,
    ///
    ///     Σ_j w_j [detector j active] > 1/2,
    ///
    /// and the ordinary noise otherwise.
    ///
    /// A front is a property of the atmosphere, not of the receiver, so the hypotheses about the receiver must not
    /// disagree about it (as they must not about the column, `shareColumn()`). Each member switching on its own
    /// detector made them disagree where it matters most: the member with the right receiver saw the front and
    /// took the front's weather noise, whose wider predictions lowered its likelihood, while a slow hypothesis
    /// (30 m over 300 s) booked the front's pressure fall as GPS error, saw no front in its QNH, kept the quiet
    /// noise and took the weight with an altitude 10 to 15 m off. The likelihoods then compared weather models, not
    /// receivers.
    ///
    /// - Throws: `AltitudeModelError.numerical` if a member refuses the new noise.
    mutating func shareWeatherRegime() throws(AltitudeModelError) {
        guard let front = weatherRegimeVote() else { return }
        for j in members.indices where isRunning(j) { try members[j].setWeatherNoise(front: front) }
    }

    /// Whether the weighted members' detectors see a front (Σ w_j [detector j active] > 1/2); nil when the members
    /// detect none. Not mutating, so that the members are read in place: read from `shareWeatherRegime`, each
    /// member's detector was reached through a copy of the whole member, which doubled the bank's time.
    private func weatherRegimeVote() -> Bool? {
        var vote = 0.0
        var anyDetector = false
        for j in members.indices where isRunning(j) {
            guard let active = members[j].noiseDetector?.isActive else { continue }
            anyDetector = true
            if active { vote += Self.weight(fromLog: logWeights[j]) }
        }
        return anyDetector ? vote > 0.5 : nil
    }
}
