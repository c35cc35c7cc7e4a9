import Foundation

/// Every JSON document the commands write (`--json`, `--summary`, `--params`), with a number that is NaN or an
/// infinity written as `null`: JSON has no such numbers, and a strict parser refuses `nan`, `"nan"` is a string
/// where a number was promised, and Foundation's encoders fail on them by default (which lost the whole document).
///
/// `JSONEncoder` has no strategy that writes `null` for a non-finite `Double`, so they are encoded as a marker
/// string that no text of ours holds (control characters around a word), and each marker, quotes included, is
/// replaced by `null` in the encoded bytes. `JSONSerialization`'s objects are walked and their non-finite numbers
/// replaced by `NSNull` before it serializes them.
package enum JSONDocument {
    /// The marker a non-finite number is encoded as, before it is replaced by `null`.
    private static let marker = "\u{1}non-finite\u{1}"
    /// The marker as `JSONEncoder` writes it, quotes included.
    private static let encodedMarker = Array(#""\u0001non-finite\u0001""#.utf8)

    /// `value` as a JSON document: keys sorted, pretty-printed unless `compact`, keys converted to snake_case with
    /// `snakeCase`, slashes escaped unless `plainSlashes`, every non-finite number `null`.
    ///
    /// - Throws: `EncodingError` from `JSONEncoder` (a value that is not encodable as JSON).
    package static func encode(
        _ value: some Encodable, snakeCase: Bool = false, compact: Bool = false, plainSlashes: Bool = false
    ) throws -> Data {
        let encoder = JSONEncoder()
        var formatting: JSONEncoder.OutputFormatting = [.sortedKeys]
        if !compact { formatting.insert(.prettyPrinted) }
        if plainSlashes { formatting.insert(.withoutEscapingSlashes) }
        encoder.outputFormatting = formatting
        if snakeCase { encoder.keyEncodingStrategy = .convertToSnakeCase }
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: marker, negativeInfinity: marker, nan: marker)
        return replacingMarkers(Array(try encoder.encode(value)))
    }

    /// `object` (dictionaries, arrays, strings, numbers, `NSNull`) as a pretty-printed JSON document with sorted
    /// keys, every non-finite number `null`.
    ///
    /// - Throws: what `JSONSerialization` throws for an object that is not a JSON value.
    package static func serialize(_ object: Any) throws -> Data {
        try JSONSerialization.data(withJSONObject: finite(object), options: [.sortedKeys, .prettyPrinted])
    }

    /// `object` with each non-finite `Double` replaced by `NSNull`, through dictionaries and arrays.
    static func finite(_ object: Any) -> Any {
        switch object {
        case let number as Double where !number.isFinite: return NSNull()
        case let dictionary as [String: Any]: return dictionary.mapValues(finite)
        case let array as [Any]: return array.map(finite)
        default: return object
        }
    }

    /// `bytes` with every `encodedMarker` replaced by `null`.
    static func replacingMarkers(_ bytes: [UInt8]) -> Data {
        let marker = encodedMarker
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == marker[0], i + marker.count <= bytes.count,
                bytes[i..<(i + marker.count)].elementsEqual(marker)
            {
                out.append(contentsOf: Array("null".utf8))
                i += marker.count
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return Data(out)
    }
}
