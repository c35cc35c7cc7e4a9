import Foundation

/// Reads ISO 8601 times (with or without fractional seconds) as seconds since 1970-01-01T00:00:00Z.
final class ISO8601Parser: @unchecked Sendable {
    // Formatters are used from one thread at a time: each reader owns its parser.
    private let plain = ISO8601DateFormatter()
    private let fractional: ISO8601DateFormatter = {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f
    }()

    /// The time in seconds, or nil if `text` is not an ISO 8601 date-time with a zone.
    func seconds(_ text: String) -> Double? {
        if let date = plain.date(from: text) ?? fractional.date(from: text) { return date.timeIntervalSince1970 }
        return nil
    }

    /// The ISO 8601 text of a time in seconds since 1970, with milliseconds when it has a fraction.
    func text(_ seconds: Double) -> String {
        let date = Date(timeIntervalSince1970: seconds)
        return seconds.rounded() == seconds ? plain.string(from: date) : fractional.string(from: date)
    }
}
