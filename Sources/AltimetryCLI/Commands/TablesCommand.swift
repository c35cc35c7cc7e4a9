import AltimetryIO
import Foundation

/// `altimetry tables [--json]`: every table and figure of the seed, recomputed.
///
/// Prints the ISA table, the scale height, the temperature and wind tables, the GPS averaging table (with
/// a seeded Monte Carlo column) and the building visit, as aligned text or, with `--json`, as one JSON object
/// whose keys are those of issue 2. `make demo` runs it.
public struct TablesCommand: Command {
    public static let name = "tables"
    public static let overview = "Reproduce every table and figure of the seed article."
    public static let synopsis = "[--json]"
    public static let options: [ArgumentScanner.Option] = [
        .init("json", .flag, help: "Print one JSON object instead of text tables.")
    ]

    /// Whether to print JSON.
    public var json: Bool

    public init(_ arguments: ArgumentScanner) throws(UsageError) {
        try arguments.noPositionals()
        json = arguments.flags.contains("json")
    }

    public func run(console: Console) -> ExitCode {
        let tables: SeedTables
        do {
            tables = try SeedTables.compute()
        } catch {
            console.writeError("error: computing the tables failed: \(error)\n")
            return .software
        }
        guard json else {
            console.write(tables.text)
            return .success
        }
        do {
            let data = try JSONDocument.encode(tables, plainSlashes: true)
            console.write(String(decoding: data, as: UTF8.self) + "\n")
            return .success
        } catch {
            console.writeError("error: encoding the tables as JSON failed: \(error)\n")
            return .software
        }
    }
}
