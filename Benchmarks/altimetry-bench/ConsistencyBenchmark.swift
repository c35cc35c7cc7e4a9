import Altimetry
import Dispatch
import Foundation
import Simulation
import Synchronization

/// `altimetry-bench consistency [--seeds N] [--effects none,hot,cold,front,faults] [--jobs J]`: the Monte Carlo
/// consistency of the default filter told the true receiver (`ConsistencyStudy`), over N seeds per case (default
/// 100).
///
/// Prints, per effect, one row per receiver and weather rate with the coverage and mean NEES on each profile
/// (still, walk, climb, drive), then the effect's pooled figures and the share of cases inside the bands: coverage
/// 0.60 to 0.80 and NEES 0.7 to 1.4 without an effect, coverage 0.55 to 0.85 with one.
enum ConsistencyBenchmark {
    static func run(arguments: [String]) -> Int32 {
        func value(_ name: String) -> String? {
            guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
            return arguments[i + 1]
        }
        let seeds = UInt64(value("--seeds").flatMap { Int($0) } ?? 100)
        let jobs = max(1, value("--jobs").flatMap { Int($0) } ?? ProcessInfo.processInfo.activeProcessorCount)
        let names = value("--effects")?.split(separator: ",").map(String.init)
        let effects =
            names.map { $0.compactMap { ConsistencyStudy.Effect(rawValue: $0) } }
            ?? ConsistencyStudy.Effect.allCases
        guard seeds > 0, effects.count == (names?.count ?? effects.count) else {
            FileHandle.standardError.write(
                Data("altimetry-bench consistency: --seeds N > 0, --effects of none,hot,cold,front,faults\n".utf8))
            return 64
        }
        print("consistency of the default filter told the true receiver: \(seeds) seeds per case, \(jobs) jobs")
        print("cells: coverage / mean NEES, scored from 600 s; tracks of max(2 h, 10 tau)")
        for effect in effects {
            let cases = ConsistencyStudy.grid(effect: effect)
            let scores = Mutex([EstimatorScore?](repeating: nil, count: cases.count))
            let next = Mutex(0)
            DispatchQueue.concurrentPerform(iterations: jobs) { _ in
                while true {
                    let i = next.withLock { n -> Int in
                        defer { n += 1 }
                        return n
                    }
                    guard i < cases.count else { return }
                    let score = try? ConsistencyStudy.score(cases[i], seeds: 1...seeds)
                    scores.withLock { $0[i] = score }
                }
            }
            let results = scores.withLock { $0 }
            print("\neffect: \(effect.rawValue)")
            let profiles = ConsistencyStudy.Profile.allCases
            print(
                "receiver        q_b (hPa²/h) | "
                    + profiles.map { $0.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0) }.joined(
                        separator: " "))
            var pooled = EstimatorScore()
            var inside = 0
            let coverageBand = effect == .none ? 0.60...0.80 : 0.55...0.85
            for (start, c) in cases.enumerated() where c.profile == profiles[0] {
                let label = String(
                    format: "%4.0f m / %4.0f s  %5.2f       |", c.spread, c.correlationTime, c.weatherRate * 3_600)
                var cells: [String] = []
                for k in 0..<profiles.count {
                    guard let s = results[start + k] else {
                        cells.append("failed      ")
                        continue
                    }
                    pooled.merge(s)
                    let ok = coverageBand.contains(s.coverage) && (effect != .none || (0.7...1.4).contains(s.meanNEES))
                    if ok { inside += 1 }
                    cells.append(String(format: "%.2f / %4.2f%@", s.coverage, s.meanNEES, ok ? " " : "*"))
                }
                print(label + " " + cells.joined(separator: " "))
            }
            print(
                String(
                    format:
                        "pooled: coverage %.3f, NEES %.2f, RMSE %.2f m; cases inside the band%@: %d of %d (* outside)",
                    pooled.coverage, pooled.meanNEES, pooled.rootMeanSquareError,
                    effect == .none ? " (coverage 0.60-0.80, NEES 0.7-1.4)" : " (coverage 0.55-0.85)", inside,
                    cases.count))
        }
        return 0
    }
}
