extension Decoder {
    /// Throws `DecodingError.dataCorrupted` naming the first key of this decoder's object that `Keys` does not
    /// list, as "unknown `what` 'key'": a misspelt or retired key of a parameters file is never silently ignored.
    func refuseUnknownKeys<Keys: CodingKey>(_: Keys.Type, what: String) throws {
        let all = try container(keyedBy: AnyKey.self)
        if let unknown = all.allKeys.first(where: { Keys(stringValue: $0.stringValue) == nil }) {
            throw DecodingError.dataCorruptedError(
                forKey: unknown, in: all, debugDescription: "unknown \(what) '\(unknown.stringValue)'")
        }
    }
}

/// Any key of a JSON object.
private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
