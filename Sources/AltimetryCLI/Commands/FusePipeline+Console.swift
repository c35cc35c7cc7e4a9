import AltimetryIO

extension FusePipeline {
    /// Fuses every row of `reader` into `sink`; notices and skipped rows go to `console`'s standard error.
    ///
    /// - Throws: `InputError` as `run(_:to:diagnostics:)` does.
    func run(_ reader: any RowReader, to sink: OutputSink, console: Console) throws(InputError) -> Outcome {
        try run(reader, to: sink) { console.writeError("\($0)\n") }
    }
}

extension OutputSink {
    /// A sink for `path` (atomically, or appended to after truncating it when `appending`), or, without a path,
    /// for the console's standard output (straight to its descriptor when it has one).
    ///
    /// - Throws: `InputError` with `.cannotCreate` (73) if the file cannot be created.
    convenience init(path: String?, appending: Bool = false, console: Console) throws(InputError) {
        if let path {
            try self.init(path: path, appending: appending)
        } else if let descriptor = console.outputDescriptor {
            self.init(descriptor: descriptor, name: "<stdout>")
        } else {
            self.init { console.write(String(decoding: $0, as: UTF8.self)) }
        }
    }
}
