import Altimetry
import Foundation
import Simulation
import Testing

@testable import AltimetryCLI
@testable import AltimetryIO

@Suite("FloorsCommand")
struct FloorsCommandTests {
    /// Writes `text` to a fresh temporary file and returns its path.
    private func temporaryFile(_ text: String, name: String = "visit.csv") throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("floors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Removes a file made by `temporaryFile` and its directory.
    private func removeTemporary(_ path: String) {
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent())
    }

    private func run(_ arguments: [String]) -> (code: ExitCode, out: String, err: String) {
        runAltimetry(["floors"] + arguments)
    }

    /// The seed's visit (seed 9) as CSV with a time column, the reading, and an ignored extra column.
    private func seedVisitCSV(column: String = "relative_alt_m", plan: [BuildingVisit.Leg] = BuildingVisit.seedPlan)
        -> String
    {
        let visit = BuildingVisit.simulate(seed: 9, plan: plan)
        var text = "t,\(column),note\r\n"
        for index in visit.pressure.indices {
            let value: Double
            switch column {
            case "pressure_hpa": value = visit.pressure[index]
            case "pressure_kpa": value = visit.pressure[index] / 10
            case "pressure_pa": value = visit.pressure[index] * 100
            default: value = visit.relativeAltitude[index]
            }
            text += "\(index),\(value),x\r\n"
        }
        return text + "\n"
    }

    @Test(
        "Text output lists the transitions, the final floor and whether it is uncertain",
        arguments: ["relative_alt_m", "pressure_hpa", "pressure_kpa", "pressure_pa"])
    func textOutput(column: String) throws {
        let path = try temporaryFile(seedVisitCSV(column: column))
        defer { removeTemporary(path) }
        let result = run([path])
        #expect(result.code == .success)
        #expect(result.err == "")
        // Golden: the seed visit's moves as FloorCounterTests finds them for seed 9.
        #expect(result.out == "Transitions:\n  110 s  +3 floors\n  1342 s  -4 floors\nFinal floor: -1\nUncertain: no\n")
    }

    @Test("--json prints transitions (time_s, floors), floor and uncertain")
    func jsonOutput() throws {
        let path = try temporaryFile(seedVisitCSV())
        defer { removeTemporary(path) }
        let result = run([path, "--json"])
        #expect(result.code == .success)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let transitions = try #require(object["transitions"] as? [[String: Any]])
        #expect(transitions.compactMap { $0["time_s"] as? Double } == [110, 1_342])
        #expect(transitions.compactMap { $0["floors"] as? Int } == [3, -4])
        #expect(object["floor"] as? Int == -1)
        #expect(object["uncertain"] as? Bool == false)
        #expect(object["uncertainty"] == nil)
    }

    @Test("A missed slow move is reported as uncertain, with the reason, in text and JSON")
    func uncertainOutput() throws {
        let path = try temporaryFile(seedVisitCSV(plan: FloorScenarioPlans.missedSlowLift))
        defer { removeTemporary(path) }
        let text = run([path])
        #expect(text.code == .success)
        #expect(text.out.contains("Final floor: 3\n"))
        #expect(text.out.contains("Uncertain: yes, since "))
        #expect(text.out.contains("unexplained altitude change of +"))
        #expect(text.out.contains("the altitude suggests floor 4"))
        let json = run([path, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(object["uncertain"] as? Bool == true)
        let uncertainty = try #require(object["uncertainty"] as? [String: Any])
        #expect(uncertainty["reason"] as? String == "unexplained-altitude-change")
        #expect(uncertainty["suggested_floor"] as? Int == 4)
    }

    @Test("--floor-height changes the rounding: 4 m floors make the climb 2 and the ride -3")
    func floorHeight() throws {
        let path = try temporaryFile(seedVisitCSV())
        defer { removeTemporary(path) }
        let result = run([path, "--floor-height", "4"])
        #expect(result.out == "Transitions:\n  110 s  +2 floors\n  1342 s  -3 floors\nFinal floor: -1\nUncertain: no\n")
    }

    @Test(
        "Bad data is named by file, line and column, and exits 65 (the readers fuse uses)",
        arguments: [
            ("t,relative_alt_m\n0,0\n1,abc\n", ":3: column 2 'relative_alt_m': found 'abc', expected a finite number"),
            (
                "t,relative_alt_m\n0,0\n1,inf\n",
                ":3: column 2 'relative_alt_m': found an infinite value, expected a finite number"
            ),
            (
                "t,relative_alt_m\n0,0\n1,1\n0,1\n",
                ":4: column 1 't': time went backwards: found 0.0 s after 1.0 s; expected times that never decrease"
            ),
            (
                "t,relative_alt_m\n0,0\n1\n",
                ":3: found 1 cells, expected 2 (the header's columns; 'relative_alt_m' and after are missing)"
            ),
            (
                "time,relative_alt_m\n0,0\n",
                ":2: column 1 'time': found '0', expected an ISO 8601 time such as 2024-05-01T12:00:00Z"
            ),
            (
                "t,altitude\n0,0\n",
                ":1: found no pressure and no GPS column in the header (t,altitude); expected pressure_hpa, "
                    + "pressure_kpa, pressure_pa, baro_alt_m or relative_alt_m, and/or gps_alt_m (or gps_alt_ellipsoid_m with geoid_sep_m)"
            ),
            (
                "t,pressure_hpa,relative_alt_m\n0,1000,0\n",
                ":1: found 2 barometer columns; expected one of pressure_hpa, "
                    + "pressure_kpa, pressure_pa, baro_alt_m, relative_alt_m"
            ),
            ("t,t,relative_alt_m\n0,0,0\n", ":1: column 2 't': found the column 't' twice; expected each column once"),
            (
                "t,pressure_hpa\n0,1000\n1,-3\n",
                ":3: column 2 'pressure_hpa': found -3.0 (-3.0 hPa), expected a station pressure between 250 and 1100 hPa"
            ),
            (
                "\nt,relative_alt_m\n\n",
                ": found no barometer reading in 0 rows; expected pressure_hpa, pressure_kpa, pressure_pa, baro_alt_m or relative_alt_m"
            ),
            (
                "t,gps_alt_m\n0,100\n1,101\n",
                ": found no barometer reading in 2 rows; expected pressure_hpa, pressure_kpa, pressure_pa, baro_alt_m or relative_alt_m"
            ),
        ])
    func badData(input: String, located: String) throws {
        let path = try temporaryFile(input, name: "bad.csv")
        defer { removeTemporary(path) }
        let result = run([path])
        #expect(result.code == .dataError)
        #expect(result.out == "")
        #expect(result.err == "error: \(path)\(located)\n")
    }

    @Test(
        "floors reads what fuse reads: GPS-only rows are skipped and counted, the floors are those of the barometer alone"
    )
    func gpsOnlyRows() throws {
        var lines = seedVisitCSV(column: "pressure_hpa").split(separator: "\r\n").map(String.init)
        lines[0] = "t,pressure_hpa,gps_alt_m"
        var mixed = lines[0] + "\n"
        var rows = 0
        for line in lines.dropFirst() where line.contains(",") {
            let cells = line.split(separator: ",")
            mixed += "\(cells[0]),\(cells[1]),\n\(cells[0]),,123\n"
            rows += 1
        }
        let path = try temporaryFile(mixed, name: "mixed.csv")
        defer { removeTemporary(path) }
        let result = run([path])
        #expect(result.code == .success)
        #expect(result.out == "Transitions:\n  110 s  +3 floors\n  1342 s  -4 floors\nFinal floor: -1\nUncertain: no\n")
        #expect(result.err == "notice: \(path): skipped \(rows) of \(2 * rows) rows without a barometer reading\n")
    }

    @Test("A missing input exits 66; bad arguments exit 64 with the usage; --help exits 0")
    func inputsAndUsage() throws {
        let missing = run(["/nonexistent/floors.csv"])
        #expect(missing.code == .noInput)
        #expect(missing.err == "error: /nonexistent/floors.csv: no such file; expected a readable input file\n")
        let directory = run([FileManager.default.temporaryDirectory.path])
        #expect(directory.code == .noInput)
        let noInput = run([])
        #expect(noInput.code == .usage)
        #expect(
            noInput.err.hasPrefix(
                "error: missing INPUT\nUSAGE: altimetry floors INPUT [--floor-height M] [--json] [input options]\n"
            ))
        let zeroHeight = run(["x.csv", "--floor-height", "0"])
        #expect(zeroHeight.code == .usage)
        #expect(zeroHeight.err.hasPrefix("error: option '--floor-height' must be between 0.5 and 20.0, got 0\n"))
        let help = run(["--help"])
        #expect(help.code == .success)
        #expect(help.out.hasPrefix("OVERVIEW: Count floor changes"))
        #expect(help.out.contains("--floor-height M"))
    }

    @Test("Readings at one time are one sample at their mean, as fuse takes them; --skip-invalid skips a bad row")
    func repeatedTimes() throws {
        let visit = seedVisitCSV().split(separator: "\r\n").map(String.init)
        let doubled = ([visit[0]] + visit.dropFirst().flatMap { [$0, $0] }).joined(separator: "\n") + "\n"
        let path = try temporaryFile(doubled, name: "doubled.csv")
        defer { removeTemporary(path) }
        let single = try temporaryFile(visit.joined(separator: "\n") + "\n", name: "single.csv")
        defer { removeTemporary(single) }
        let result = run([path])
        #expect(result.code == .success, "\(result.err)")
        #expect(result.out == run([single]).out)
        var broken = visit
        broken[5] = "abc,0,x"
        let bad = try temporaryFile(broken.joined(separator: "\n") + "\n", name: "broken.csv")
        defer { removeTemporary(bad) }
        #expect(run([bad]).code == .dataError)
        let skipping = run([bad, "--skip-invalid"])
        #expect(skipping.code == .success)
        #expect(skipping.err.contains("skipped: \(bad):6: column 1 't'"), "\(skipping.err)")
        #expect(skipping.out == run([single]).out)
    }
}

/// Plans the CLI tests share with the library tests' scenarios.
private enum FloorScenarioPlans {
    /// Stairs up 3 floors, 5 min, one floor at 0.05 m/s (too slow to count), 15 min still.
    static let missedSlowLift: [BuildingVisit.Leg] = [
        .init(seconds: 120, verticalSpeed: 0), .init(seconds: 36, verticalSpeed: 0.25),
        .init(seconds: 300, verticalSpeed: 0), .init(seconds: 60, verticalSpeed: 0.05),
        .init(seconds: 900, verticalSpeed: 0),
    ]
}
