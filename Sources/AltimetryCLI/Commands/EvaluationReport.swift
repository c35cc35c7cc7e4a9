import Altimetry
import AltimetryIO
import Foundation
import Simulation

/// What `altimetry evaluate` prints: the scores per estimator, the truth and what it can tell, and the figures
/// that need no truth; as text, or as JSON with snake_case keys (a number that does not exist is `null`).
struct EvaluationReport: Codable, Equatable, Sendable {
    /// One estimator's scores against the truth.
    struct Estimator: Codable, Equatable, Sendable {
        var name: String
        var scoredRows: Int
        var rmseMeters: Double?
        var meanErrorMeters: Double?
        var p95AbsoluteErrorMeters: Double?
        var coverage: Double?
        var nees: Double?

        enum CodingKeys: String, CodingKey {
            case name, scoredRows = "scored_rows", rmseMeters = "rmse_m", meanErrorMeters = "mean_error_m"
            case p95AbsoluteErrorMeters = "p95_abs_error_m", coverage, nees
        }
    }

    /// The truth scored against.
    struct Truth: Codable, Equatable, Sendable {
        /// `reference`, `static` or `none`.
        var kind: String
        /// The reference column, for `reference`.
        var column: String?
        /// The static truth's altitude and its standard error, in metres, for `static`.
        var altitudeMeters: Double?
        var standardErrorMeters: Double?
        var fixes: Int?
        var blocks: Int?
        var blockDurationSeconds: Double?

        enum CodingKeys: String, CodingKey {
            case kind, column, altitudeMeters = "altitude_m", standardErrorMeters = "standard_error_m", fixes, blocks
            case blockDurationSeconds = "block_duration_s"
        }
    }

    var input: String
    var model: String
    var rows: Int
    var readings: Int
    var gpsFixes: Int
    var gatedFixes: [RecordingEvaluation.GatedFix]
    var scoringFromSeconds: Double
    var truth: Truth
    var estimators: [Estimator]
    /// The sensors alone against the fused track (`gps_only`, `baro_only`): the same figures, of (sensor − fused)
    /// against the fused sigma.
    var agreement: [Estimator]
    var acceptedFixMeanNIS: Double?
    var largestAcceptedInnovationMeters: Double
    var fronts: [WeatherFront]
    /// Per front, the station pressure's own change over its span, in hPa (the weather's, for a still device).
    var frontPressureChanges: [Double?]
    var finalAltitudeMeters: Double?
    var finalSigmaMeters: Double?
    var finalQNHHectopascals: Double?
    var finalQNHSigmaHectopascals: Double?

    enum CodingKeys: String, CodingKey {
        case input, model, rows, readings, gpsFixes = "gps_fixes", gatedFixes = "gated_fixes"
        case scoringFromSeconds = "scoring_from_s", truth, estimators, agreement = "sensors_alone_against_fused",
            acceptedFixMeanNIS = "accepted_fix_mean_nis"
        case largestAcceptedInnovationMeters = "largest_accepted_innovation_m", fronts
        case frontPressureChanges = "front_station_pressure_changes_hpa"
        case finalAltitudeMeters = "final_altitude_m", finalSigmaMeters = "final_sigma_m"
        case finalQNHHectopascals = "final_qnh_hpa", finalQNHSigmaHectopascals = "final_qnh_sigma_hpa"
    }

    /// Estimator names as the text shows them.
    static let displayNames = [
        "kalman": "filter", "naive": "naive (cumulative)", "naive_600s": "naive (600 s)",
        "gps_only": "GPS alone", "baro_only": "barometer alone",
    ]

    init(
        input: String, model: String, rows: Int, referenceColumn: String?, scoringStart: Double,
        evaluation e: RecordingEvaluation
    ) {
        self.input = input
        self.model = model
        self.rows = rows
        readings = e.readingCount
        gpsFixes = e.fixCount
        gatedFixes = e.gatedFixes
        scoringFromSeconds = scoringStart
        if let s = e.staticTruth {
            truth = Truth(
                kind: "static", altitudeMeters: s.altitude, standardErrorMeters: s.standardError,
                fixes: s.fixCount, blocks: s.blockCount, blockDurationSeconds: s.blockDuration)
        } else if let referenceColumn {
            truth = Truth(kind: "reference", column: referenceColumn)
        } else {
            truth = Truth(kind: "none")
        }
        estimators = RecordingEvaluation.estimatorNames.map { Self.estimator($0, e.scores[$0] ?? EstimatorScore()) }
        agreement = RecordingEvaluation.agreementNames.map { Self.estimator($0, e.agreement[$0] ?? EstimatorScore()) }
        acceptedFixMeanNIS = Self.number(e.acceptedFixMeanNIS)
        largestAcceptedInnovationMeters = e.largestAcceptedInnovation
        fronts = e.fronts
        frontPressureChanges = e.frontPressureChanges.map { $0.flatMap(Self.number) }
        finalAltitudeMeters = e.final.flatMap { Self.number($0.altitude) }
        finalSigmaMeters = e.final.flatMap { Self.number($0.altitudeStandardDeviation) }
        finalQNHHectopascals = e.final.flatMap { Self.number($0.seaLevelPressure) }
        finalQNHSigmaHectopascals = e.final.flatMap { Self.number($0.seaLevelPressureStandardDeviation) }
    }

    static func estimator(_ name: String, _ s: EstimatorScore) -> Estimator {
        Estimator(
            name: name, scoredRows: s.count, rmseMeters: number(s.rootMeanSquareError),
            meanErrorMeters: number(s.meanError), p95AbsoluteErrorMeters: number(s.absoluteErrorPercentile95),
            coverage: number(s.coverage), nees: number(s.meanNEES))
    }

    /// A finite value, or nil (JSON has no NaN).
    static func number(_ value: Double) -> Double? { value.isFinite ? value : nil }

    /// `value` with `decimals`, or `-` where there is none.
    static func text(_ value: Double?, _ decimals: Int) -> String { value.map { Fixed.text($0, decimals) } ?? "-" }

    /// The report as text: the truth, the table, then what needs no truth.
    var text: String {
        var s =
            "\(input): \(rows) rows, \(readings) readings, \(gpsFixes) GPS fixes (\(gatedFixes.count) gated); \(model)\n"
        s += truthText
        if truth.kind != "none" { s += scoreText }
        s += agreementText
        s +=
            "GPS after the warm-up: mean NIS of the accepted fixes \(Self.text(acceptedFixMeanNIS, 2)) "
            + "(about 1 when the GPS model fits and fixes share the pressure's row, 0.84 to 0.90 in the simulator's scenarios, whose "
            + "fixes come 0.9 s after a pressure); largest accepted innovation \(Self.text(largestAcceptedInnovationMeters, 1)) m.\n"
        if !gatedFixes.isEmpty {
            s += "Gated fixes (\(gatedFixes.count)):\n"
            for g in gatedFixes.prefix(20) {
                s +=
                    "  t \(Self.text(g.time, 1)) s: \(Self.text(g.altitude, 1)) m, innovation "
                    + "\(Self.text(g.innovation, 1)) m, NIS \(Self.text(g.normalizedInnovationSquared, 0))\n"
            }
            if gatedFixes.count > 20 { s += "  ... and \(gatedFixes.count - 20) more (all in --json)\n" }
        }
        s += frontText
        s +=
            "Final: \(Self.text(finalAltitudeMeters, 1)) ± \(Self.text(finalSigmaMeters, 1)) m, QNH "
            + "\(Self.text(finalQNHHectopascals, 2)) ± \(Self.text(finalQNHSigmaHectopascals, 2)) hPa\n"
        return s
    }

    /// The fronts reported; for a still device, beside the station pressure's own change over each one.
    var frontText: String {
        guard !fronts.isEmpty else { return "Fronts: none\n" }
        let still = truth.kind == "static"
        var s =
            "Fronts (\(fronts.count))"
            + (still
                ? ", beside the station pressure's own change over each (the "
                    + "weather's, the device being still):\n" : ":\n")
        for (k, front) in fronts.enumerated() {
            s +=
                "  \(Self.text(front.startTime, 0))-\(Self.text(front.endTime, 0)) s: \(Self.text(front.sizeHectopascals, 1)) hPa"
            if still, k < frontPressureChanges.count {
                s += frontPressureChanges[k].map { "; station \(Self.text($0, 1)) hPa" } ?? " (in the warm-up)"
            }
            s += "\n"
        }
        return s
    }

    /// The sensors alone against the fused track, with why a row is empty.
    var agreementText: String {
        var text = Self.table(
            agreement,
            title: "The sensors alone against the fused track after \(Self.text(scoringFromSeconds, 0)) s "
                + "(sensor - fused; the barometer from the first fix on, or without a fix from the first fused altitude):",
            header: ["sensor", "rows", "RMS", "mean", "p95 |diff|", "inside fused σ", "NEES"])
        for e in agreement where e.scoredRows == 0 {
            let name = Self.displayNames[e.name] ?? e.name
            text +=
                e.name == "gps_only"
                ? "\(name): no GPS fix after \(Self.text(scoringFromSeconds, 0)) s.\n"
                : "\(name): no pressure reading after \(Self.text(scoringFromSeconds, 0)) s.\n"
        }
        return text
    }

    /// The scores, one row per estimator.
    var scoreText: String {
        Self.table(
            estimators, title: "Scored after \(Self.text(scoringFromSeconds, 0)) s:",
            header: ["estimator", "rows", "RMSE", "mean error", "p95 |error|", "coverage", "NEES"])
            + "Coverage is the fraction of rows with |error| inside the reported one sigma (0.68 when "
            + "honest); NEES the mean of (error/sigma)² (1 when honest).\n"
    }

    static func table(_ estimators: [Estimator], title: String, header: [String]) -> String {
        TextTable(
            title: title, header: header,
            rows: estimators.map { e in
                [
                    Self.displayNames[e.name] ?? e.name, "\(e.scoredRows)", Self.text(e.rmseMeters, 2) + " m",
                    Self.text(e.meanErrorMeters, 2) + " m", Self.text(e.p95AbsoluteErrorMeters, 2) + " m",
                    Self.text(e.coverage, 2), Self.text(e.nees, 2),
                ]
            }
        ).rendered
    }

    /// What the truth is, and what it can and cannot tell.
    var truthText: String {
        if truth.kind == "static" {
            return "Truth: static, the median GPS altitude after \(Self.text(scoringFromSeconds, 0)) s, "
                + "\(Self.text(truth.altitudeMeters, 2)) ± \(Self.text(truth.standardErrorMeters, 2)) m (standard error "
                + "of the median from \(truth.blocks ?? 0) block medians of \(Self.text((truth.blockDurationSeconds ?? 0) / 60, 0)) min, "
                + "\(truth.fixes ?? 0) fixes). A bias common to every fix is in neither: this truth tests the sigma "
                + "against GPS noise and weather, not GPS's own bias.\n"
        }
        guard let column = truth.column else {
            return "Truth: none, so nothing is scored (--reference COLUMN or --static scores the estimators).\n"
        }
        if column == "true_alt_m" { return "Truth: true_alt_m, carried to each row from the nearest earlier value.\n" }
        return "Reference: \(column), carried to each row from the nearest earlier value. If it is itself an estimate "
            + "(a drone's onboard filter), it shares this barometer and GPS: agreement shows consistency with another "
            + "filter, not accuracy; errors of the common sensors cancel, and its own error adds to the differences.\n"
    }
}
