/// How every reader (CSV, NDJSON, GPX, TCX, FIT) treats a bad value of the row, point or record it is reading:
/// without `--skip-invalid` the problem is thrown; with it, the first problem of the row is kept, the row is
/// marked with it (`InputRow.invalidReason`, so its output row says `rejected: ...`) and the problem goes to the
/// table's `skipped` list, which the commands report on stderr in input order. A line that is no row at all (a
/// malformed NDJSON line) goes to `skipped` alone (`skipLine`).
struct InvalidRowCollector {
    /// `--skip-invalid`.
    let skipInvalid: Bool
    /// The first problem of the row being read.
    private(set) var current: InputError?
    /// Whether `current` is set: a Bool is tested for every value read, the optional error is not (testing it
    /// copies it through a generic witness).
    private(set) var hasProblem = false

    init(skipInvalid: Bool) {
        self.skipInvalid = skipInvalid
    }

    /// Reports a problem of the row being read.
    ///
    /// - Throws: `problem` without `skipInvalid`.
    mutating func report(_ problem: InputError) throws(InputError) {
        guard skipInvalid else { throw problem }
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
