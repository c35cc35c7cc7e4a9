import AltimetryCLI
import Foundation
import Synchronization
import Testing

/// README.md shows what `make demo` (`altimetry demo`) prints, in the block after `<!-- output: altimetry demo -->`.
@Suite("README demo output")
struct ReadmeDemoTests {
    @Test("The README's demo output is what the demo prints for the single hike, line for line")
    func demoOutputMatches() throws {
        let page = try String(contentsOf: DocPage.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(page.range(of: "<!-- output: altimetry demo -->\n```text\n"))
        let end = try #require(page.range(of: "\n```", range: start.upperBound..<page.endIndex))
        let documented = page[start.upperBound..<end.lowerBound].components(separatedBy: "\n")

        // The single hike's part, up to the pooled table, is checked here by running the demo with one pooled hike
        // (the default 20 take half a minute in a debug build); the pooled part is the same code over more seeds.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "readme-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = Mutex("")
        let console = Console(write: { text in output.withLock { $0 += text } }, writeError: { _ in })
        let code = AltimetryCommandLine.run(
            arguments: ["demo", "--hikes", "1", "--out", directory.appendingPathComponent("demo.csv").path],
            console: console)
        #expect(code == .success)
        let printed = output.withLock { $0 }.components(separatedBy: "\n")
        let single = printed.prefix { !$0.hasPrefix("Over ") }
        #expect(single.count > 8)
        #expect(Array(documented.prefix(single.count)) == Array(single))
        #expect(documented.contains { $0.hasPrefix("Over 20 simulated hikes") })
        #expect(documented.last == "Fused track written to out/demo-hike.csv")
    }
}
