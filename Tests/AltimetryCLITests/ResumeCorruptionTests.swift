import Foundation
import Testing

@testable import AltimetryCLI

/// `fuse --resume` on corrupted saved states: exit 65 with a message naming the field, never a signal.
@Suite("fuse --resume on corrupted states")
struct ResumeCorruptionTests {
    /// `Tests/FuzzCorpus/state/`, the fuzz target `state`'s seed corpus: valid states and corruptions of them.
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FuzzCorpus/state")

    static var corrupted: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []).filter { $0.hasPrefix("corrupt-") }
            .sorted()
    }

    /// Two minutes of readings after the states' last time, as input CSV.
    static func input(in dir: TemporaryDirectory) throws -> String {
        var text = "t,pressure_hpa,gps_alt_m,gps_vacc_m\n"
        for k in 0..<120 { text += "\(1_000 + k),1000.0,\(k % 10 == 0 ? "110,5" : ",")\n" }
        return try dir.file("more.csv", text)
    }

    @Test("Each corruption in the corpus exits 65 naming what is wrong", arguments: corrupted)
    func corruptedState(file: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = try Self.input(in: dir)
        let state = Self.corpus.appendingPathComponent(file).path
        let run = try StreamFaultTests.bash(
            "\"$ALTIMETRY\" fuse '\(input)' --resume '\(state)' > /dev/null; echo \"exit $?\"")
        #expect(run.out == "exit 65\n", "\(file): \(run.err)")
        #expect(!run.err.contains("Fatal error"), "\(file): \(run.err)")
        // The message names a field, the JSON's fault, or the filter's refusal of the restored state.
        #expect(
            run.err.contains("field '") || run.err.contains("not valid JSON")
                || run.err.contains("cannot start the filter"), "\(file): \(run.err)")
    }

    @Test("The corpus's valid states resume", arguments: ["valid-fixed-model.json", "valid-learned-receiver.json"])
    func validState(file: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = try Self.input(in: dir)
        let run = runAltimetry(["fuse", input, "--resume", Self.corpus.appendingPathComponent(file).path])
        #expect(run.code == .success, "\(run.err)")
        #expect(run.out.split(separator: "\n").count == 121)
    }

    /// The receiver learner's hypotheses hold their mean and covariance as plain arrays, checked on restore (mean 4
    /// values, covariance 16, `current` an index of `hypotheses`); run as a process, so that a trap would be an exit
    /// status.
    @Test(
        "A corrupted receiver learner exits 65",
        arguments: ["hypotheses.0.mean.short", "hypotheses.0.covariance.short", "current.big"])
    func corruptedLearner(corruption: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = try Self.input(in: dir)
        let source = try Data(contentsOf: Self.corpus.appendingPathComponent("valid-learned-receiver.json"))
        var object = try #require(try JSONSerialization.jsonObject(with: source) as? [String: Any])
        var learner = try #require(object["learner"] as? [String: Any])
        var hypotheses = try #require(learner["hypotheses"] as? [[String: Any]])
        switch corruption {
        case "hypotheses.0.mean.short": hypotheses[0]["mean"] = [0.0, 0, 0]
        case "hypotheses.0.covariance.short": hypotheses[0]["covariance"] = Array(repeating: 0.0, count: 15)
        default: learner["current"] = 1_000_000
        }
        learner["hypotheses"] = hypotheses
        object["learner"] = learner
        let state = try dir.file(
            "state.json", String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
        let run = try StreamFaultTests.bash(
            "\"$ALTIMETRY\" fuse '\(input)' --resume '\(state)' > /dev/null 2>&1; echo \"exit $?\"")
        #expect(run.out == "exit 65\n", "\(corruption): \(run.out)")
    }
}
