import Foundation
import FuzzTargets

/// The fuzzing driver: libFuzzer (`LLVMFuzzerRunDriver`) running the target `ALTIMETRY_FUZZ_TARGET` names, with
/// libFuzzer's own flags and corpus folders as arguments.
///
/// An executable with its own `main` that hands over to libFuzzer, because SwiftPM names an executable's entry
/// point itself and so cannot link libFuzzer's `main`.
@main
enum FuzzDriver {
    static func main() {
        guard let target = FuzzTarget.named(ProcessInfo.processInfo.environment["ALTIMETRY_FUZZ_TARGET"] ?? "") else {
            let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
            FileHandle.standardError.write(Data("error: set ALTIMETRY_FUZZ_TARGET to one of: \(names)\n".utf8))
            exit(64)
        }
        selected = target
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runLibFuzzer(&argc, &argv, { data, size in
            let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
            // A finding traps, which libFuzzer reports and saves as a crash.
            if let finding = FuzzDriver.selected?.check(bytes) { fatalError("fuzz target: \(finding)") }
            return 0
        }))
    }

    /// The target, set once before libFuzzer starts calling back (a C callback captures nothing).
    nonisolated(unsafe) static var selected: FuzzTarget?
}

/// `int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size))`.
@_silgen_name("LLVMFuzzerRunDriver")
func runLibFuzzer(_ argc: UnsafeMutablePointer<CInt>,
                  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt
