import Foundation

/// One Markdown page of the package's documentation and its code blocks.
///
/// A Swift block is preceded, on the line just above its fence, by one of two markers:
/// `<!-- sample: PATH -->` (the block is the file at PATH, verbatim; a Swift file is compiled in this test target
/// and run by a test, a script is run by a make target) or `<!-- excerpt: PATH -->` (the block quotes
/// declarations from a source file at PATH: each of its code lines occurs there), or `<!-- manifest -->` (lines
/// for a dependent package's manifest, whose product and package names must be this package's). A block of
/// another language may carry a sample marker too. A shell block may be marked `<!-- command -->`: it is run, and
/// the ```` ```text ```` block after it is what it prints (`DocCommandTests`, `Scripts/sync-commands.py`).
struct DocPage {
    /// The page's path relative to the package root, such as `Docs/engine.md`.
    let path: String
    /// Its code blocks, in page order.
    let blocks: [CodeBlock]

    /// A fenced (```` ``` ````) or indented (four spaces) code block.
    struct CodeBlock {
        /// The fence's info string (`swift`, `sh`, ...), empty for an unlabelled fence or an indented block.
        let language: String
        /// The lines between the fences (or the indented lines without their indent), joined by newlines.
        let text: String
        /// The 1-based line of the opening fence or of the first indented line.
        let line: Int
        /// The marker on the line above the fence, if any.
        let marker: Marker?
        /// Whether the block is indented rather than fenced.
        let isIndented: Bool
    }

    /// What the line above a fenced block says the block is.
    enum Marker: Equatable {
        case sample(String)
        case excerpt(String)
        /// `<!-- manifest -->`: lines of a dependent package's `Package.swift`, naming this package's products.
        case manifest
        /// `<!-- command -->`: shell lines that are run; the next block is what they print.
        case command
    }

    /// The package's root directory: three levels above this file (Tests/DocSamplesTests/DocPage.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every page: README.md, Docs/*.md, Docs/guides/*.md and each module's DocC catalog
    /// (Sources/*/*.docc/**/*.md).
    static func all() throws -> [DocPage] {
        let files = FileManager.default
        var paths = ["README.md"]
        let docs = try files.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Docs").path)
        paths += docs.filter { $0.hasSuffix(".md") }.sorted().map { "Docs/" + $0 }
        let guides = packageRoot.appendingPathComponent("Docs/guides").path
        if let names = try? files.contentsOfDirectory(atPath: guides) {
            paths += names.filter { $0.hasSuffix(".md") }.sorted().map { "Docs/guides/" + $0 }
        }
        let sources = packageRoot.appendingPathComponent("Sources")
        for module in try files.contentsOfDirectory(atPath: sources.path).sorted() {
            let catalog = "Sources/\(module)/\(module).docc"
            guard let enumerator = files.enumerator(atPath: packageRoot.appendingPathComponent(catalog).path) else {
                continue
            }
            paths += enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".md") }.sorted()
                .map { catalog + "/" + $0 }
        }
        return try paths.map { try DocPage(path: $0) }
    }

    init(path: String) throws {
        self.path = path
        let text = try String(contentsOf: Self.packageRoot.appendingPathComponent(path), encoding: .utf8)
        blocks = Self.blocks(in: text.components(separatedBy: "\n"))
    }

    /// The code blocks of a page's lines.
    ///
    /// An indented block starts after a blank line (or a fence's end), outside any fence and list, and takes
    /// the following lines indented by four spaces or blank. Lines in a list item's continuation are not code.
    static func blocks(in lines: [String]) -> [CodeBlock] {
        var blocks: [CodeBlock] = []
        var index = 0
        var previousBlank = true
        var inList = false
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                let fence = String(trimmed.prefix { $0 == "`" })
                let language = trimmed.dropFirst(fence.count).trimmingCharacters(in: .whitespaces)
                var body: [String] = []
                var end = index + 1
                while end < lines.count, !lines[end].trimmingCharacters(in: .whitespaces).hasPrefix(fence) {
                    body.append(lines[end])
                    end += 1
                }
                let above = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
                blocks.append(
                    CodeBlock(
                        language: language, text: body.joined(separator: "\n"), line: index + 1,
                        marker: marker(above), isIndented: false))
                index = end + 1
                previousBlank = true
                continue
            }
            if trimmed.isEmpty {
                previousBlank = true
                index += 1
                continue
            }
            let isListItem =
                trimmed.hasPrefix("- ") || trimmed.hasPrefix("* ")
                || trimmed.first.map(\.isNumber) == true && trimmed.contains(". ")
            if !line.hasPrefix(" ") { inList = isListItem }
            if line.hasPrefix("    "), previousBlank, !inList {
                var body: [String] = []
                var end = index
                while end < lines.count,
                    lines[end].hasPrefix("    ") || lines[end].trimmingCharacters(in: .whitespaces).isEmpty
                {
                    body.append(String(lines[end].dropFirst(min(4, lines[end].count))))
                    end += 1
                }
                while body.last?.isEmpty == true { body.removeLast() }
                blocks.append(
                    CodeBlock(
                        language: "", text: body.joined(separator: "\n"), line: index + 1,
                        marker: nil, isIndented: true))
                index = end
                previousBlank = true
                continue
            }
            previousBlank = false
            index += 1
        }
        return blocks
    }

    /// The marker an HTML comment line carries, if it is one.
    static func marker(_ line: String) -> Marker? {
        guard line.hasPrefix("<!--"), line.hasSuffix("-->") else { return nil }
        let body = line.dropFirst(4).dropLast(3).trimmingCharacters(in: .whitespaces)
        if body == "manifest" { return .manifest }
        if body == "command" { return .command }
        for (prefix, make) in [("sample:", Marker.sample), ("excerpt:", Marker.excerpt)] where body.hasPrefix(prefix) {
            return make(body.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
