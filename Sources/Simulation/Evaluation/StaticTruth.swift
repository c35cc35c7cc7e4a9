/// The constant altitude of a device that stood still, taken from its own GPS: the median fix, with the
/// uncertainty of that choice.
///
/// The median resists the outliers of indoor and window multipath. Its standard error comes from the data, not
/// from a GPS model: the fixes are cut into `blockCount` consecutive blocks of equal count, and
/// σ = sd(block medians)/√K. This is the batch-means method, right while a block is longer than the GPS error's
/// correlation time (minutes in the open, longer indoors), too small otherwise; `blockDuration` lets the reader
/// judge. A bias common to every fix (a receiver's, or a datum's) is in neither the median nor its σ: a static
/// truth from GPS can show whether the fused sigma is honest about GPS noise and weather, never GPS's own bias.
public struct StaticTruth: Sendable, Equatable, Codable {
    /// The median GPS altitude of the stretch, in metres.
    public var altitude: Double
    /// Standard error of `altitude` from the block medians, in metres.
    public var standardError: Double
    /// Fixes in the stretch.
    public var fixCount: Int
    /// Blocks K the standard error was estimated from.
    public var blockCount: Int
    /// Mean length of a block, in seconds.
    public var blockDuration: Double

    /// Blocks used for the standard error.
    public static let defaultBlockCount = 10

    /// The truth from fixes (time in seconds, altitude in metres) in time order; nil with fewer than two fixes a block.
    ///
    /// - Parameters:
    ///   - fixes: the fixes of the stretch, time in seconds and altitude in metres, in time order.
    ///   - blockCount: K, the number of blocks of equal count the standard error is estimated from; at least 2.
    public init?(fixes: [(time: Double, altitude: Double)], blockCount: Int = Self.defaultBlockCount) {
        guard blockCount >= 2, fixes.count >= 2 * blockCount,
            let first = fixes.first?.time, let last = fixes.last?.time
        else { return nil }
        altitude = Self.median(fixes.map(\.altitude))
        var medians: [Double] = []
        for k in 0..<blockCount {
            let block = fixes[(k * fixes.count / blockCount)..<((k + 1) * fixes.count / blockCount)]
            medians.append(Self.median(block.map(\.altitude)))
        }
        let mean = medians.reduce(0, +) / Double(blockCount)
        let variance = medians.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(blockCount - 1)
        standardError = (variance / Double(blockCount)).squareRoot()
        fixCount = fixes.count
        self.blockCount = blockCount
        blockDuration = (last - first) / Double(blockCount)
    }

    /// The median of a non-empty list (the mean of the two middle values for an even count).
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
