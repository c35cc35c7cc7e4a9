/// A line of a shell sample, split into the simple commands it runs.
///
/// Enough of the shell for documentation: words, single and double quotes, `#` comments, a leading `$ ` prompt,
/// the operators `|`, `||`, `&&`, `;` and `&` between commands, and redirections (`>`, `>>`, `<`, `2>`, `2>&1`),
/// whose targets are dropped. Variables and substitutions are kept as literal words.
struct ShellLine {
    /// Each simple command's words, in order.
    let commands: [[String]]

    init(_ line: String) {
        var text = Substring(line.trimmingCharacters(in: .whitespaces))
        if text.hasPrefix("$ ") { text = text.dropFirst(2) }
        var commands: [[String]] = []
        var words: [String] = []
        var word = ""
        var hasWord = false
        var skipNextWord = false
        var quote: Character?
        func endWord() {
            if hasWord {
                if skipNextWord { skipNextWord = false } else { words.append(word) }
            }
            word = ""
            hasWord = false
        }
        func endCommand() {
            endWord()
            if !words.isEmpty { commands.append(words) }
            words = []
        }
        var index = text.startIndex
        while index < text.endIndex {
            let c = text[index]
            let next = text.index(after: index)
            if let open = quote {
                if c == open { quote = nil } else { word.append(c) }
                index = next
                continue
            }
            switch c {
            case "'", "\"":
                quote = c
                hasWord = true
            case " ", "\t":
                endWord()
            case "#" where !hasWord:
                index = text.endIndex
                continue
            case "|", "&", ";":
                endCommand()
            case ">", "<":
                // A file descriptor before the operator (2>) is part of it; >&1 has no file to skip.
                if hasWord, word.allSatisfy(\.isNumber) {
                    word = ""
                    hasWord = false
                } else {
                    endWord()
                }
                while index < text.endIndex, text[index] == ">" || text[index] == "<" {
                    index = text.index(after: index)
                }
                if index < text.endIndex, text[index] == "&" {
                    while index < text.endIndex, text[index] != " " { index = text.index(after: index) }
                    continue
                }
                skipNextWord = true
                continue
            default:
                word.append(c)
                hasWord = true
            }
            index = next
        }
        endCommand()
        self.commands = commands
    }

    /// The arguments of every `altimetry` invocation on the line: `altimetry ...`, a path ending in
    /// `/altimetry`, or `swift run [-c release] altimetry ...`.
    var altimetryInvocations: [[String]] {
        commands.compactMap { words in
            if let first = words.first, first == "altimetry" || first.hasSuffix("/altimetry") {
                return Array(words.dropFirst())
            }
            if words.starts(with: ["swift", "run"]), let at = words.firstIndex(of: "altimetry") {
                return Array(words[(at + 1)...])
            }
            return nil
        }
    }
}
