import AltimetryCLI
import Foundation
import Testing

/// Every code sample of README.md, Docs/ and the DocC catalogs is a file this target compiles (and a test runs),
/// or a quoted declaration that still exists, or a command line the real argument scanner accepts.
@Suite("Documentation pages")
struct DocPageTests {
    static let samplesFolder = "Tests/DocSamplesTests/Samples/"

    @Test("Every Swift block is marked as a sample file or as an excerpt of a source file")
    func everySwiftBlockIsMarked() throws {
        for page in try DocPage.all() {
            for block in page.blocks where block.language == "swift" {
                #expect(
                    block.marker != nil,
                    """
                    \(page.path):\(block.line): a Swift block needs '<!-- sample: \(Self.samplesFolder)NAME.swift -->' \
                    or '<!-- excerpt: Sources/.../FILE.swift -->' on the line above its fence
                    """)
            }
        }
    }

    @Test("Each sample block is its sample file, verbatim")
    func samplesAreVerbatim() throws {
        for page in try DocPage.all() {
            for block in page.blocks {
                guard case .sample(let path)? = block.marker else { continue }
                // A Swift sample is compiled only where this target's sources are; another language's file may be
                // anywhere (a script that a make target runs).
                if block.language == "swift" {
                    #expect(
                        path.hasPrefix(Self.samplesFolder),
                        "\(page.path):\(block.line): \(path) is not under \(Self.samplesFolder)")
                }
                let file = try Self.read(path, from: page, block: block)
                let expected = file.hasSuffix("\n") ? String(file.dropLast()) : file
                #expect(block.text == expected, "\(page.path):\(block.line): the block differs from \(path)")
            }
        }
    }

    @Test("Each excerpt's code lines occur in its source file")
    func excerptsExist() throws {
        for page in try DocPage.all() {
            for block in page.blocks {
                guard case .excerpt(let path)? = block.marker else { continue }
                let source = try Self.read(path, from: page, block: block).components(separatedBy: "\n")
                    .map { Self.code(of: $0) }
                for line in block.text.components(separatedBy: "\n").map({ Self.code(of: $0) }) where !line.isEmpty {
                    #expect(
                        source.contains { $0.contains(line) }, "\(page.path):\(block.line): '\(line)' is not in \(path)"
                    )
                }
            }
        }
    }

    @Test("Manifest lines name this package and its library products")
    func manifestLinesNameProducts() throws {
        let manifest = try String(
            contentsOf: DocPage.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let libraries = Set(Self.captures(#"\.library\(\s*name:\s*"([^"]+)""#, in: manifest))
        let package = try #require(Self.captures(#"Package\(\s*name:\s*"([^"]+)""#, in: manifest).first)
        var products = 0
        for page in try DocPage.all() {
            for block in page.blocks where block.marker == .manifest {
                for name in Self.captures(#"\.product\(name:\s*"([^"]+)""#, in: block.text) {
                    products += 1
                    #expect(libraries.contains(name), "\(page.path):\(block.line): no library product '\(name)'")
                }
                for name in Self.captures(#"package:\s*"([^"]+)""#, in: block.text) {
                    #expect(name == package, "\(page.path):\(block.line): the package is '\(package)', not '\(name)'")
                }
            }
        }
        #expect(products > 0, "no manifest block names a product")
    }

    @Test("Every sample file is shown on a page")
    func everySampleIsShown() throws {
        let shown = Set(
            try DocPage.all().flatMap { page in
                page.blocks.compactMap { block -> String? in
                    if case .sample(let path)? = block.marker { return path }
                    return nil
                }
            })
        let folder = DocPage.packageRoot.appendingPathComponent(Self.samplesFolder)
        let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        let samples = files.filter { $0.hasSuffix(".swift") }.map { Self.samplesFolder + $0 }
        #expect(!samples.isEmpty)
        for sample in samples {
            #expect(shown.contains(sample), "\(sample) is shown on no page")
        }
    }

    @Test("Every altimetry command in a shell sample is accepted by its command's argument scanner")
    func commandLinesParse() throws {
        var checked = 0
        for page in try DocPage.all() {
            for block in page.blocks where Self.isShell(block) {
                for (offset, line) in block.text.components(separatedBy: "\n").enumerated() where !Self.isSynopsis(line)
                {
                    for arguments in ShellLine(line).altimetryInvocations {
                        checked += 1
                        if let problem = Self.problem(parsing: arguments) {
                            let at = block.line + offset + (block.isIndented ? 0 : 1)
                            Issue.record(
                                "\(page.path):\(at): altimetry \(arguments.joined(separator: " ")): \(problem)")
                        }
                    }
                }
            }
        }
        #expect(checked >= 10, "only \(checked) command lines found: is the page scanner broken?")
    }

    @Test("Every make target and repository path named in a shell sample exists")
    func targetsAndPathsExist() throws {
        let makefile = try String(contentsOf: DocPage.packageRoot.appendingPathComponent("Makefile"), encoding: .utf8)
        let targets = Set(
            makefile.components(separatedBy: "\n").compactMap { line -> String? in
                guard let colon = line.firstIndex(of: ":"), !line.hasPrefix("\t"), !line.hasPrefix(".") else {
                    return nil
                }
                let name = line[..<colon]
                return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" } ? String(name) : nil
            })
        let roots = ["Sources/", "Tests/", "Docs/", "Benchmarks/", "Scripts/"]
        for page in try DocPage.all() {
            for block in page.blocks where Self.isShell(block) {
                for (offset, line) in block.text.components(separatedBy: "\n").enumerated() where !Self.isSynopsis(line)
                {
                    let at = "\(page.path):\(block.line + offset + (block.isIndented ? 0 : 1))"
                    for words in ShellLine(line).commands {
                        if words.first == "make" {
                            for target in words.dropFirst() where !target.hasPrefix("-") && !target.contains("=") {
                                #expect(targets.contains(target), "\(at): no make target '\(target)'")
                            }
                        }
                        for word in words where roots.contains(where: word.hasPrefix) {
                            let path = DocPage.packageRoot.appendingPathComponent(word).path
                            #expect(FileManager.default.fileExists(atPath: path), "\(at): \(word) does not exist")
                        }
                    }
                }
            }
        }
    }

    @Test("A Docs page is read in one sitting: at most 400 lines; the README, a front page, at most 120")
    func pagesAreShort() throws {
        for page in try DocPage.all() where page.path.hasPrefix("Docs/") || page.path == "README.md" {
            let text = try String(contentsOf: DocPage.packageRoot.appendingPathComponent(page.path), encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
            let limit = page.path == "README.md" ? 120 : 400
            #expect(lines <= limit, "\(page.path) has \(lines) lines, over \(limit): split or fold it")
        }
    }

    // MARK: - Helpers

    /// A block of shell commands: labelled as shell, unlabelled, or indented.
    static func isShell(_ block: DocPage.CodeBlock) -> Bool {
        ["sh", "bash", "shell", "console", ""].contains(block.language)
    }

    /// A usage synopsis (`altimetry fuse INPUT [--out FILE]`) documents a grammar, not a command to run.
    static func isSynopsis(_ line: String) -> Bool {
        line.contains("[") || line.contains("...") || line.contains("COMMAND")
    }

    /// Why the command line would refuse these arguments, or nil if it accepts them.
    static func problem(parsing arguments: [String]) -> String? {
        guard let name = arguments.first else { return "no command" }
        if ["--help", "-h", "help", "--version"].contains(name) { return nil }
        guard let command = AltimetryCommandLine.commands.first(where: { $0.name == name }) else {
            return "no command '\(name)'"
        }
        do {
            let scanner = try ArgumentScanner(Array(arguments.dropFirst()), options: command.options)
            if !scanner.wantsHelp { _ = try command.init(scanner) }
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// The first capture group of every match of `pattern` in `text`.
    static func captures(_ pattern: String, in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// A line without its indentation and trailing `//` comment.
    static func code(of line: String) -> String {
        var code = Substring(line)
        if let comment = line.range(of: "//") { code = line[..<comment.lowerBound] }
        return code.trimmingCharacters(in: .whitespaces)
    }

    static func read(_ path: String, from page: DocPage, block: DocPage.CodeBlock) throws -> String {
        let url = DocPage.packageRoot.appendingPathComponent(path)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("\(page.path):\(block.line): the marker names \(path), which cannot be read")
            return ""
        }
        return text
    }
}
