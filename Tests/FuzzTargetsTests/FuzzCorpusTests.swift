import Foundation
import FuzzTargets
import Testing

/// Every file of every fuzz target's corpus (the seeds and each input that once broke a target) replayed through
/// the target, so a fixed finding stays fixed.
@Suite("Fuzz corpus")
struct FuzzCorpusTests {
    /// `Tests/FuzzCorpus/`, found from this file's path.
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FuzzCorpus")

    @Test("Every corpus input keeps the target's promises", arguments: FuzzTarget.all.map(\.name))
    func corpusKeepsPromises(name: String) throws {
        let target = try #require(FuzzTarget.named(name))
        let folder = Self.corpus.appendingPathComponent(name)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
            .sorted()
        #expect(files.count >= 3, "the seed corpus of '\(name)' has \(files.count) files")
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(file)))
            let finding = target.check(bytes)
            #expect(finding == nil, "\(name)/\(file): \(finding?.message ?? "")")
        }
    }

    @Test("Every target has a corpus folder and no folder lacks a target")
    func foldersMatchTargets() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).filter {
            !$0.hasPrefix(".")
        }
        #expect(Set(folders) == Set(FuzzTarget.all.map(\.name)))
    }

    /// `Tests/FuzzFindings/`: inputs that still break their target, waiting for a fix.
    static let findings = corpus.deletingLastPathComponent().appendingPathComponent("FuzzFindings")

    @Test("Every open finding still breaks its target (a known issue; one that no longer does moves to the corpus)")
    func openFindingsStillBreak() throws {
        for name in FuzzTarget.all.map(\.name) {
            let target = try #require(FuzzTarget.named(name))
            let folder = Self.findings.appendingPathComponent(name)
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { continue }
            for file in files.filter({ !$0.hasPrefix(".") }).sorted() {
                let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(file)))
                withKnownIssue("\(name)/\(file): see Tests/FuzzFindings/README.md") {
                    let finding = target.check(bytes)
                    #expect(finding == nil, "\(name)/\(file): \(finding?.message ?? "")")
                }
            }
        }
    }
}
