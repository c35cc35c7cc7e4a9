/// How every reader (CSV, NDJSON, GPX, TCX, FIT) treats a bad value of the row, point or record it is reading:
/// without `--skip-invalid` the problem is thrown; with it, the first problem of the row is kept, the row is
/// marked with it (`InputRow.invalidReason`, so its output row says `rejected: ...`) and the problem goes to the
/// table's `skipped` list, which the commands report on stderr in input order. A line that is no row at all (a
/// malformed NDJSON line) goes to `skipped` alone (`skipLine`).
///
/// A device's file (GPX, TCX, FIT, IGC) is not one a person can fix by hand: there, a problem thrown says that
/// `--skip-invalid` reads on past the record (`suggestsSkipping`).
struct InvalidRowCollector {
    /// `--skip-invalid`.
    let skipInvalid: Bool
    /// Whether a problem thrown names `--skip-invalid` (`skipHint`): in device files.
    let suggestsSkipping: Bool
    /// What a thrown problem of a device file ends with.
    static let skipHint = "; --skip-invalid rejects the record and reads on"
    /// The first problem of the row being read.
    private(set) var current: InputError?
    /// Whether `current` is set: a Bool is tested for every value read, the optional error is not (testing it
    /// copies it through a generic witness).
    private(set) var hasProblem = false

    init(skipInvalid: Bool, suggestsSkipping: Bool = false) {
        self.skipInvalid = skipInvalid
        self.suggestsSkipping = suggestsSkipping
    }

    /// Reports a problem of the row being read.
    ///
    /// - Throws: `problem` without `skipInvalid` (naming `--skip-invalid` where `suggestsSkipping`).
    mutating func report(_ problem: InputError) throws(InputError) {
        guard skipInvalid else {
            var problem = problem
            if suggestsSkipping { problem.message += Self.skipHint }
            throw problem
        }
        if !hasProblem { current = problem }
        hasProblem = true
    }

    /// Reports a line that is no row at all: thrown without `skipInvalid`, else appended to `skipped`.
    ///
    /// - Throws: `problem` without `skipInvalid`.
    func skipLine(_ problem: InputError, skipped: inout [InputError]) throws(InputError) {
        guard skipInvalid else { throw problem }
        skipped.append(problem)
    }

    /// Marks `row` with the row's first problem, if any, appends that to `skipped`, and starts the next row.
    mutating func finish(_ row: inout InputRow, skipped: inout [InputError]) {
        guard hasProblem, let problem = current else { return }
        row.invalidReason = problem.message
        skipped.append(problem)
        current = nil
        hasProblem = false
    }
}
