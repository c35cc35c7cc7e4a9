import Foundation
import Testing

/// Docs/validation.md is what `make validate` (Scripts/validate.sh) writes, and the README's headline figures are
/// the page's.
///
/// The whole page takes minutes in a release build; `make test` reruns the rows of two short recordings (a drone's
/// minute and the GPS glitch log, a second or two in a debug build) and compares them with the committed page,
/// where ../shared/data/real is present, and checks the page's structure everywhere.
@Suite("Validation page")
struct ValidationPageTests {
    static let rerun = ["px4_fmuv6c_flugdrohne_log30", "ardupilot_pxf_erle_2014-11-26_log181_gpsglitch"]

    static func read(_ path: String) throws -> String {
        try String(contentsOf: DocPage.packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// The table rows of `text`, by their first cell.
    static func rows(_ text: String) -> [String: String] {
        var rows: [String: String] = [:]
        for line in text.components(separatedBy: "\n") where line.hasPrefix("| ") && !line.hasPrefix("| ---") {
            let first = line.dropFirst(2).prefix { $0 != "|" }.trimmingCharacters(in: .whitespaces)
            rows[first] = line
        }
        return rows
    }

    @Test("The page says it is generated, at which commit, and holds both tables")
    func pageStructure() throws {
        let page = try Self.read("Docs/validation.md")
        #expect(page.hasPrefix("# Validation\n"))
        #expect(page.contains("Written by `make validate` (`Scripts/validate.sh`) at commit "))
        #expect(page.contains("## Real recordings") && page.contains("## The simulated catalogue"))
        #expect(Self.rows(page).count >= 10, "fewer table rows than recordings and scenarios")
    }

    @Test("Every headline figure of the README is in the page's row of its recording")
    func headlineFromPage() throws {
        let readme = try Self.read("README.md")
        let start = try #require(readme.range(of: "<!-- headline:"))
        let end = try #require(readme.range(of: "<!-- end headline -->"))
        let headline = readme[start.upperBound..<end.lowerBound].components(separatedBy: "\n")
            .filter { $0.hasPrefix("| ") && !$0.hasPrefix("| ---") && !$0.hasPrefix("| recording") }
        #expect(headline.count >= 4)
        let pageRows = Self.rows(try Self.read("Docs/validation.md")).values
        for line in headline {
            let figures = line.components(separatedBy: "|").dropFirst(2).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            let found = pageRows.contains { row in
                let cells = row.components(separatedBy: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                var rest = cells[...]
                return figures.allSatisfy { figure in
                    guard let at = rest.firstIndex(of: figure) else { return false }
                    rest = rest[(at + 1)...]
                    return true
                }
            }
            #expect(found, "README headline '\(line)' is not in Docs/validation.md (Scripts/sync-headline.py)")
        }
    }

    @Test(
        "A fresh run of the page's commands gives the committed rows of two short recordings",
        .enabled(
            if: FileManager.default.fileExists(atPath: DocCommandTests.sharedData.path),
            "skipped: ../shared/data/real is absent (the real recordings live beside the checkout)"),
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/jq"),
            "skipped: jq is absent (Scripts/validate.sh builds its rows with it)"))
    func rowsRerun() throws {
        let bin = try #require(DocCommandTests.binaryDirectory, "the altimetry executable is not built")
        let committed = Self.rows(try Self.read("Docs/validation.md"))
        let files = FileManager.default
        let scratch = files.temporaryDirectory.appendingPathComponent("validation-\(UUID().uuidString)")
        defer { try? files.removeItem(at: scratch) }
        for name in Self.rerun {
            let out = scratch.appendingPathComponent(name)
            let process = Process()
            process.executableURL = DocPage.packageRoot.appendingPathComponent("Scripts/validate.sh")
            process.arguments = [
                bin.appendingPathComponent("altimetry").path, DocCommandTests.sharedData.path, out.path,
                out.appendingPathComponent("page.md").path,
            ]
            process.currentDirectoryURL = DocPage.packageRoot
            var environment = ProcessInfo.processInfo.environment
            environment["ONLY"] = name
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "Scripts/validate.sh failed on \(name)")
            let fresh = Self.rows(try String(contentsOf: out.appendingPathComponent("page.md"), encoding: .utf8))
            let row = try #require(fresh[name], "the fresh page has no row for \(name)")
            #expect(committed[name] == row, "Docs/validation.md's row for \(name) is not a fresh run's (make validate)")
        }
    }
}
