import Foundation
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

/// A console that keeps what a command writes, for inspection.
private final class CapturedOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var out = ""
    private var err = ""

    var console: Console {
        Console(
            write: { [self] text in lock.withLock { out += text } },
            writeError: { [self] text in lock.withLock { err += text } })
    }

    var standardOutput: String { lock.withLock { out } }
    var standardError: String { lock.withLock { err } }
}

/// One run of `altimetry` with captured streams.
private struct Run: Sendable {
    var exitCode: ExitCode
    var standardOutput: String
    var standardError: String

    init(_ arguments: [String]) {
        let captured = CapturedOutput()
        exitCode = AltimetryCommandLine.run(arguments: arguments, console: captured.console)
        standardOutput = captured.standardOutput
        standardError = captured.standardError
    }
}

@Suite("TablesCommand")
struct TablesCommandTests {
    /// Each run simulates 2,000 trials per window (8.5 million Gauss-Markov steps); run each form once.
    private static let jsonRun = Run(["tables", "--json"])
    fileprivate static let textRun = Run(["tables"])

    /// The JSON output as a dictionary, for checking keys.
    static func jsonObject() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(jsonRun.standardOutput.utf8))
        return try #require(object as? [String: Any])
    }

    /// The JSON output decoded.
    static func tables() throws -> SeedTables {
        try JSONDecoder().decode(SeedTables.self, from: Data(jsonRun.standardOutput.utf8))
    }

    @Test("--json prints one object with exactly the issue's keys, and nothing on standard error")
    func keys() throws {
        #expect(Self.jsonRun.exitCode == .success)
        #expect(Self.jsonRun.standardError.isEmpty)
        let object = try Self.jsonObject()
        #expect(
            Set(object.keys) == ["isa", "scale_height_m", "temperature", "wind", "gps_averaging", "building_visit"])
        let expectedRowKeys: [String: Set<String>] = [
            "isa": ["altitude_m", "pressure_hpa", "meters_per_hpa"],
            "temperature": ["celsius", "apparent_climb_m"],
            "wind": ["speed_mps", "pressure_hpa", "apparent_height_m"],
            "gps_averaging": ["window_s", "simulated_m", "exact_m", "approximation_m", "independent_m", "gls_bound_m"],
        ]
        for (table, keys) in expectedRowKeys {
            let rows = try #require(object[table] as? [[String: Any]], "\(table) is not an array of objects")
            #expect(rows.count == 3, "\(table)")
            for row in rows { #expect(Set(row.keys) == keys, "\(table)") }
        }
        let visit = try #require(object["building_visit"] as? [String: Any])
        #expect(Set(visit.keys) == ["duration_s", "drift_m", "true_floor", "naive_floor"])
        #expect(object["scale_height_m"] is Double)
    }

    @Test("The ISA table: 1,013.2 / 845.6 / 701.1 hPa, 8.32 / 9.64 / 11.22 m per hPa; scale height 8,435 m")
    func atmosphere() throws {
        let tables = try Self.tables()
        #expect(tables.isa.map(\.altitude) == [0, 1_500, 3_000])
        // Half a unit of each printed last digit of the seed's table.
        for (row, (pressure, sensitivity)) in zip(tables.isa, [(1_013.2, 8.32), (845.6, 9.64), (701.1, 11.22)]) {
            #expect(abs(row.pressure - pressure) <= 0.05, "\(row.altitude) m")
            #expect(abs(row.metersPerHectopascal - sensitivity) <= 0.005, "\(row.altitude) m")
        }
        #expect(abs(tables.scaleHeight - 8_435) <= 0.5)
    }

    @Test("The 9 m climb reads 8.22 / 9.00 / 9.63 m at -10 / 15 / 35 °C")
    func temperature() throws {
        let tables = try Self.tables()
        #expect(tables.temperature.map(\.celsius) == [-10, 15, 35])
        for (row, reading) in zip(tables.temperature, [8.22, 9.00, 9.63]) {
            #expect(abs(row.apparentClimb - reading) <= 0.005, "\(row.celsius) °C")
        }
    }

    @Test("Wind of 5 / 10 / 20 m/s: 0.15 / 0.61 / 2.45 hPa and 1.3 / 5.1 / 20.4 m")
    func wind() throws {
        let tables = try Self.tables()
        #expect(tables.wind.map(\.speed) == [5, 10, 20])
        for (row, (pressure, height)) in zip(tables.wind, [(0.15, 1.3), (0.61, 5.1), (2.45, 20.4)]) {
            #expect(abs(row.pressure - pressure) <= 0.005, "\(row.speed) m/s")
            #expect(abs(row.apparentHeight - height) <= 0.05, "\(row.speed) m/s")
        }
    }

    @Test("GPS averaging: the seed's exact, approximate and independent columns, simulation within 5 %, GLS bound")
    func gpsAveraging() throws {
        let tables = try Self.tables()
        #expect(tables.gpsAveraging.map(\.window) == [60, 600, 3_600])
        let seed: [(exact: Double, approximation: Double, independent: Double)] = [
            (8.58, 14.14, 1.29), (4.24, 4.47, 0.41), (1.81, 1.83, 0.17),
        ]
        for (row, expected) in zip(tables.gpsAveraging, seed) {
            // Half a unit of the seed's printed hundredth.
            #expect(abs(row.exact - expected.exact) <= 0.005, "\(row.window) s")
            #expect(abs(row.approximation - expected.approximation) <= 0.005, "\(row.window) s")
            #expect(abs(row.independent - expected.independent) <= 0.005, "\(row.window) s")
            // 2,000 trials: relative standard error 1/√4000 = 1.6 %, and the bound is 5 %.
            #expect(abs(row.simulated / row.exact - 1) < 0.05, "\(row.window) s: \(row.simulated) vs \(row.exact)")
            // Gauss-Markov's theorem: the best linear unbiased estimate is never worse than the mean.
            #expect(row.generalizedLeastSquaresBound <= row.exact, "\(row.window) s")
        }
        // The figure for ten minutes: about 4.09 m (4.0854 m).
        #expect(abs(tables.gpsAveraging[1].generalizedLeastSquaresBound - 4.09) <= 0.005)
    }

    @Test("The building visit: 1,662 s, about 3.85 m of drift, true floor -1, the naive floor wrong")
    func buildingVisit() throws {
        let visit = try Self.tables().buildingVisit
        #expect(visit.duration == 1_662)
        // 1 hPa/h for 1,661 s at 8.33 m/hPa is 3.85 m; the last sample's 0.012 hPa of noise is 0.1 m, so 0.45 m is
        // more than four of its standard deviations.
        #expect(abs(visit.drift - 3.85) < 0.45)
        #expect(visit.trueFloor == -1)
        #expect(visit.naiveFloor != visit.trueFloor)
        // The seed's naive reading rounds to the lobby.
        #expect(visit.naiveFloor == 0)
    }

    @Test("The JSON is exactly the library's SeedTables, and a second run prints the same bytes")
    func sameAsLibrary() throws {
        #expect(try Self.tables() == SeedTables.compute())
        #expect(Run(["tables", "--json"]).standardOutput == Self.jsonRun.standardOutput)
    }

    @Test("The text form prints every table with its figures")
    func text() {
        #expect(Self.textRun.exitCode == .success)
        #expect(Self.textRun.standardError.isEmpty)
        let text = Self.textRun.standardOutput
        for fragment in [
            "Standard atmosphere", "1013.2 hPa", "845.6 hPa", "701.1 hPa", "8.32 m", "9.64 m", "11.22 m",
            "Scale height", "8435 m",
            "climb", "-10 °C", "8.22 m", "9.00 m", "9.63 m",
            "Wind", "0.15 hPa", "0.61 hPa", "2.45 hPa", "1.3 m", "5.1 m", "20.4 m",
            "Averaging GPS altitude", "2000 trials", "seed 10", "1 min", "10 min", "1 h",
            "8.58 m", "4.24 m", "1.81 m", "14.14 m", "4.47 m", "1.83 m", "1.29 m", "0.41 m", "0.17 m", "4.09 m",
            "Building visit", "seed 9", "1662 s", "True floor", "Naive floor",
        ] {
            #expect(text.contains(fragment), "missing '\(fragment)'")
        }
    }

    @Test("Text columns line up: every row of a table has the header's width")
    func alignment() {
        let blocks = Self.textRun.standardOutput.components(separatedBy: "\n\n")
        #expect(blocks.count == 6)
        for block in blocks {
            let rows = block.split(separator: "\n").dropFirst().filter { $0.hasPrefix("  ") }
            guard let header = rows.first else { continue }
            for row in rows { #expect(row.count == header.count, "\(row)") }
        }
    }

    @Test("--help prints the fixed layout and exits 0; unknown options and arguments are usage errors")
    func usage() {
        let help = Run(["tables", "--help"])
        #expect(help.exitCode == .success)
        #expect(help.standardOutput.hasPrefix("OVERVIEW: "))
        #expect(help.standardOutput.contains("USAGE: altimetry tables [--json]"))
        #expect(help.standardOutput.contains("--json"))
        let unknown = Run(["tables", "--csv"])
        #expect(unknown.exitCode == .usage)
        #expect(unknown.standardError.contains("unknown option '--csv'"))
        #expect(unknown.standardOutput.isEmpty)
        let positional = Run(["tables", "extra"])
        #expect(positional.exitCode == .usage)
        #expect(positional.standardError.contains("unexpected argument 'extra'"))
    }

    @Test("The overview lists the tables command")
    func listed() {
        let overview = Run(["--help"])
        #expect(overview.standardOutput.contains("tables"))
        #expect(overview.standardOutput.contains(TablesCommand.overview))
    }
}
