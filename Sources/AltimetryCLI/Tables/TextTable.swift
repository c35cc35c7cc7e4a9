/// A plain-text table with a title, a header row and right-aligned columns, for terminal output.
///
/// Columns are as wide as their widest cell (counted in characters, so `°` and `σ` take one), separated by
/// three spaces and indented by two.
struct TextTable: Sendable, Equatable {
    /// The line above the table.
    var title: String
    /// Column headings.
    var header: [String]
    /// The cells, one array per row, as many as `header`.
    var rows: [[String]]

    /// The table as lines ending in newlines, title first.
    var rendered: String {
        let all = [header] + rows
        let widths = header.indices.map { column in
            all.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
        }
        var text = title + "\n"
        for row in all {
            let cells = widths.indices.map { column in
                let cell = column < row.count ? row[column] : ""
                return String(repeating: " ", count: widths[column] - cell.count) + cell
            }
            text += "  " + cells.joined(separator: "   ") + "\n"
        }
        return text
    }
}
