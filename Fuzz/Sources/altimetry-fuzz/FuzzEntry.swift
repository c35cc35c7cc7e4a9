import Foundation
import FuzzTargets

/// The target `ALTIMETRY_FUZZ_TARGET` names; the process exits with a list of the targets if it names none.
let target: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["ALTIMETRY_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget.named(name) else {
        let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
        FileHandle.standardError.write(Data("error: set ALTIMETRY_FUZZ_TARGET to one of: \(names) (got '\(name)')\n".utf8))
        exit(64)
    }
    return target
}()

/// libFuzzer's entry point: runs the target on one input and traps on a finding, which libFuzzer saves as a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let finding = target.check(bytes) { fatalError("fuzz target '\(target.name)': \(finding)") }
    return 0
}
