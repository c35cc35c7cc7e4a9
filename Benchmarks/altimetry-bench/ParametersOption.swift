import Altimetry
import Foundation

/// The `--params FILE` option of the benchmarks: the model's parameters from a `--params` file (the keys of
/// `AltitudeModelParameters`), or the defaults without the option.
enum ParametersOption {
    /// The parameters named by `--params` in `arguments`; nil after writing the reason to stderr when the file
    /// cannot be read.
    static func parse(_ arguments: [String], benchmark: String) -> AltitudeModelParameters? {
        guard let i = arguments.firstIndex(of: "--params") else { return AltitudeModelParameters() }
        guard i + 1 < arguments.count else {
            FileHandle.standardError.write(Data("altimetry-bench \(benchmark): --params needs a file\n".utf8))
            return nil
        }
        do {
            return try JSONDecoder().decode(
                AltitudeModelParameters.self, from: Data(contentsOf: URL(fileURLWithPath: arguments[i + 1])))
        } catch {
            FileHandle.standardError.write(
                Data("altimetry-bench \(benchmark): cannot read --params \(arguments[i + 1]): \(error)\n".utf8))
            return nil
        }
    }
}
