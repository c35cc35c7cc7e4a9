/// A check run on arbitrary bytes: the code under test must not crash, and must keep the promises the check
/// states; a broken promise comes back as a `FuzzFinding`.
///
/// The same targets run under libFuzzer (`make fuzz`, see Docs/reliability.md) and, on every file of their
/// corpus under `Tests/FuzzCorpus/`, in the regression tests, so an input that once broke a target is replayed
/// by `make test` for good.
public struct FuzzTarget: Sendable {
    /// The target's name: its corpus folder under `Tests/FuzzCorpus/` and the value of `ALTIMETRY_FUZZ_TARGET`.
    public let name: String
    /// What the target feeds its bytes to and which promises it checks.
    public let summary: String
    /// Runs the check on one input.
    public let check: @Sendable ([UInt8]) -> FuzzFinding?

    public init(name: String, summary: String, check: @escaping @Sendable ([UInt8]) -> FuzzFinding?) {
        self.name = name
        self.summary = summary
        self.check = check
    }

    /// Every target, in the order `make fuzz` runs them.
    public static let all: [FuzzTarget] = [.csv, .ndjson, .gpx, .tcx, .fit, .igc, .time, .fusion, .state]

    /// The target called `name`, if any.
    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}

/// A promise a fuzz target found broken, with what broke it.
public struct FuzzFinding: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was promised and what happened instead.
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
