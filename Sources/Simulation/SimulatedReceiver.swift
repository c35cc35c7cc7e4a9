import Altimetry
import StateEstimation

/// A GPS receiver for identification and adaptation studies: a Gauss-Markov error of a given spread and
/// correlation time, and a reported accuracy that is right, optimistic or pessimistic.
///
/// The grid spans the receivers met in practice: σ_e of 2 m (a good receiver in open sky), 10 m (the seed's
/// illustrative one) and 30 m (a poor antenna); τ of 30 s (fast multipath), 300 s (satellite geometry) and
/// 3,600 s (ionosphere and a logger's slow wander). White noise is 1 m throughout.
public struct SimulatedReceiver: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// How the receiver's reported vertical accuracy relates to its true error spread √(σ_e² + σ_w²).
    public enum AccuracyReport: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
        /// No `gps_vacc_m`.
        case none
        /// The true spread.
        case right
        /// Half the true spread (2x optimistic).
        case optimistic
        /// Twice the true spread (2x pessimistic).
        case pessimistic

        /// The factor on the true spread; nil for none.
        public var factor: Double? {
            switch self {
            case .none: return nil
            case .right: return 1
            case .optimistic: return 0.5
            case .pessimistic: return 2
            }
        }
    }

    /// σ_e, in metres.
    public var correlatedErrorStandardDeviation: Meters
    /// τ, in seconds.
    public var correlationTime: Seconds
    /// What the fixes report.
    public var report: AccuracyReport

    /// A receiver with σ_e in metres and τ in seconds, reporting `report`.
    ///
    /// - Parameters:
    ///   - correlatedErrorStandardDeviation: σ_e, the correlated error's stationary standard deviation, in metres.
    ///   - correlationTime: τ, its correlation time, in seconds.
    ///   - report: how the reported vertical accuracy relates to the true spread; none by default.
    public init(correlatedErrorStandardDeviation: Meters, correlationTime: Seconds, report: AccuracyReport = .none) {
        self.correlatedErrorStandardDeviation = correlatedErrorStandardDeviation
        self.correlationTime = correlationTime
        self.report = report
    }

    /// The spreads of the grid, in metres.
    public static let gridStandardDeviations: [Meters] = [2, 10, 30]
    /// The correlation times of the grid, in seconds.
    public static let gridCorrelationTimes: [Seconds] = [30, 300, 3_600]

    /// The nine receivers of the grid, with the given report.
    public static func grid(report: AccuracyReport = .none) -> [SimulatedReceiver] {
        gridStandardDeviations.flatMap { s in
            gridCorrelationTimes.map {
                SimulatedReceiver(correlatedErrorStandardDeviation: s, correlationTime: $0, report: report)
            }
        }
    }

    /// The receiver as the simulator's GPS model: 1 Hz with the default jitter, 1 m of white noise.
    public var gpsModel: GPSModel {
        GPSModel(
            correlatedErrorStandardDeviation: correlatedErrorStandardDeviation, correlationTime: correlationTime,
            reportedAccuracy: report.factor.map { .modelStandardDeviation(coverageFactor: $0) } ?? .none)
    }

    public var description: String {
        "σ_e \(Int(correlatedErrorStandardDeviation)) m, τ \(Int(correlationTime)) s"
            + (report == .none ? "" : ", vacc \(report.rawValue)")
    }
}

extension Scenario {
    /// A static log with `receiver`'s GPS: the `static` scenario (250 m, b₀ = +4 hPa, q_b = 1/3600 hPa²/s,
    /// barometer at 1 Hz) for `duration` seconds.
    ///
    /// - Parameters:
    ///   - receiver: the GPS receiver that replaces the scenario's.
    ///   - duration: the log's length, in seconds.
    ///   - seed: the seed of every random draw.
    public static func staticLog(receiver: SimulatedReceiver, duration: Seconds, seed: UInt64) -> Scenario {
        var scenario = Scenario.named(.static, seed: seed, duration: duration)
        scenario.name = "static \(receiver)"
        scenario.gps = receiver.gpsModel
        return scenario
    }

    /// A catalogue scenario with its GPS replaced by `receiver`'s (outages and outliers kept).
    ///
    /// - Parameters:
    ///   - name: the catalogue scenario.
    ///   - receiver: the receiver whose error model and report replace the scenario's GPS.
    ///   - seed: the seed of every random draw.
    ///   - duration: the recording's length, in seconds, or nil for the scenario's own.
    public static func named(_ name: ScenarioName, receiver: SimulatedReceiver, seed: UInt64, duration: Seconds? = nil)
        -> Scenario
    {
        var scenario = Scenario.named(name, seed: seed, duration: duration)
        let original = scenario.gps
        scenario.name = "\(name.rawValue) \(receiver)"
        scenario.gps = receiver.gpsModel
        scenario.gps.outages = original.outages
        scenario.gps.outliers = original.outliers
        return scenario
    }
}
