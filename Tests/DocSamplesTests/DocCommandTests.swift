import Foundation
import Testing

/// Every shell block marked `<!-- command -->` in README.md and Docs/ is run, and what it prints is the
/// ```` ```text ```` block after it, line for line.
///
/// A page's blocks run top to bottom in one scratch folder that links every top-level entry of the checkout and
/// has `../shared` beside it, with the built `altimetry` first on PATH: what `Scripts/sync-commands.py` does to
/// write the blocks. Pages whose commands read `../shared/data/real` run only where those recordings are present.
@Suite("Documentation commands")
struct DocCommandTests {
    /// One page's command blocks, each with the output block after it.
    struct Page: CustomStringConvertible, Sendable {
        let path: String
        let commands: [(line: Int, command: String, output: String)]
        var description: String { path }
        var readsSharedData: Bool { commands.contains { $0.command.contains("../shared/") } }
    }

    static let sharedData = DocPage.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data/real")
    static let sharedDataPresent = FileManager.default.fileExists(atPath: sharedData.path)

    static let pages: [Page] = {
        guard let all = try? DocPage.all() else { return [] }
        return all.compactMap { page in
            var commands: [(Int, String, String)] = []
            for (index, block) in page.blocks.enumerated() where block.marker == .command {
                let next = index + 1 < page.blocks.count ? page.blocks[index + 1] : nil
                commands.append((block.line, block.text, next?.language == "text" ? next?.text ?? "" : "<none>"))
            }
            return commands.isEmpty ? nil : Page(path: page.path, commands: commands)
        }
    }()

    @Test(
        "Pages that read only the repository's files print what they show",
        arguments: pages.filter { !$0.readsSharedData })
    func repositoryPage(_ page: Page) throws {
        try Self.check(page)
    }

    @Test(
        "Pages that read ../shared/data/real print what they show",
        .enabled(
            if: sharedDataPresent,
            "skipped: ../shared/data/real is absent (the real recordings live beside the checkout)"),
        arguments: pages.filter(\.readsSharedData))
    func sharedDataPage(_ page: Page) throws {
        try Self.check(page)
    }

    @Test("Command blocks are found, and each is followed by its output block")
    func commandsHaveOutputs() {
        #expect(Self.pages.count >= 5, "only \(Self.pages.count) pages with commands: is the page scanner broken?")
        for page in Self.pages {
            for command in page.commands {
                #expect(command.output != "<none>", "\(page.path):\(command.line): no ```text block after the command")
            }
        }
    }

    // MARK: - Running

    static func check(_ page: Page) throws {
        let files = FileManager.default
        let base = files.temporaryDirectory.appendingPathComponent("doc-commands-\(UUID().uuidString)")
        let checkout = base.appendingPathComponent("checkout")
        try files.createDirectory(at: checkout, withIntermediateDirectories: true)
        defer { try? files.removeItem(at: base) }
        for entry in try files.contentsOfDirectory(atPath: DocPage.packageRoot.path)
        where !entry.hasPrefix(".") || entry == ".build" {
            try files.createSymbolicLink(
                atPath: checkout.appendingPathComponent(entry).path,
                withDestinationPath: DocPage.packageRoot.appendingPathComponent(entry).path)
        }
        let shared = DocPage.packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
        if files.fileExists(atPath: shared.path) {
            try files.createSymbolicLink(
                atPath: base.appendingPathComponent("shared").path, withDestinationPath: shared.path)
        }
        let bin = try #require(Self.binaryDirectory, "the altimetry executable is not built beside the tests")
        for command in page.commands {
            let printed = try Self.run(command.command, in: checkout, bin: bin)
            #expect(
                printed == command.output,
                """
                \(page.path):\(command.line): the command prints something else (Scripts/sync-commands.py \
                rewrites the block):
                \(printed)
                """)
        }
    }

    /// The folder of the built `altimetry`, beside the test bundle (as `swift build --build-tests` leaves it).
    static var binaryDirectory: URL? {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            if FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("altimetry").path) {
                return directory
            }
            directory = directory.deletingLastPathComponent()
        }
        let debug = DocPage.packageRoot.appendingPathComponent(".build/debug")
        return FileManager.default.isExecutableFile(atPath: debug.appendingPathComponent("altimetry").path)
            ? debug : nil
    }

    /// What `/bin/sh -c command` prints on stdout and stderr together, without the final newlines.
    static func run(_ command: String, in directory: URL, bin: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["LC_ALL"] = "C"
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var text = String(decoding: data, as: UTF8.self)
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
