import Altimetry
import Foundation

extension FuzzTarget {
    /// A saved filter state (`fuse --save-state`'s JSON) decoded and resumed from, as `fuse --resume` does.
    ///
    /// The promises: the bytes either fail to decode (a `DecodingError`: not JSON, a missing or mistyped field,
    /// an array of the wrong length, a non-finite number), or are refused by `AltitudeFilter.init(restoring:)`
    /// with a typed error, or give a filter that fuses a minute of ordinary readings (1,000 hPa, a fix at 110 m
    /// every 10 s) into estimates that keep the `fusion` target's promises. A crash anywhere is a finding by itself.
    public static let state = FuzzTarget(
        name: "state",
        summary: "A saved state decoded and resumed: a decoding error, a refusal, or estimates that keep their promises"
    ) { bytes in
        guard let checkpoint = try? JSONDecoder().decode(AltitudeFilterCheckpoint.self, from: Data(bytes)) else {
            return nil
        }
        guard var filter = try? AltitudeFilter(restoring: checkpoint) else { return nil }
        let start = checkpoint.engine?.time ?? 0
        for k in 1...60 {
            let reading = AltitudeReading(
                time: start + Double(k), pressure: 1_000, gpsAltitude: k % 10 == 0 ? 110 : nil,
                gpsVerticalAccuracy: k % 10 == 0 ? 5 : nil)
            let estimate: AltitudeEstimate
            do throws(AltitudeModelError) {
                estimate = try filter.process(reading)
            } catch {
                if case .numerical = error { return FuzzFinding("reading \(k) after the restored state: \(error)") }
                continue
            }
            if let finding = estimateFinding(estimate, filter: filter) {
                return FuzzFinding("reading \(k) after the restored state: \(finding)")
            }
        }
        return nil
    }
}
