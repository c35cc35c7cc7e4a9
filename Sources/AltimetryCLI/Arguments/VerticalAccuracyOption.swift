import Altimetry

extension VerticalAccuracyConvention {
    /// The `--vacc-confidence` option shared by `fuse` and `calibrate`, with its help line.
    static let option = ArgumentScanner.Option(
        "vacc-confidence", .value, placeholder: "0.68|0.95",
        help: "What gps_vacc_m means: one sigma (0.68, default; 0.683 and 1 are taken the same) or 95 %.")

    /// The convention `--vacc-confidence VALUE` names: one sigma for 0.68, 0.683 or 1 (and when absent), 95 % for
    /// 0.95.
    ///
    /// - Throws: `UsageError` naming the value and what is expected.
    init(optionValue value: String?) throws(UsageError) {
        switch value {
        case nil, "0.68", "0.683", "1": self = .oneSigma
        case "0.95": self = .ninetyFivePercent
        case let other?: throw UsageError("option '--vacc-confidence' expects 0.68 or 0.95, got '\(other)'")
        }
    }
}
