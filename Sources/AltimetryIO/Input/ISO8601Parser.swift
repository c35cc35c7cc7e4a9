/// Reads and writes RFC 3339 date-times (the internet profile of ISO 8601) as seconds since 1970-01-01T00:00:00Z.
///
/// The accepted form, byte by byte, with nothing before or after:
///
///     YYYY-MM-DD ('T' | 't' | ' ') hh:mm:ss [('.' | ',') fraction] ('Z' | 'z' | ±hh:mm | ±hhmm | ±hh)
///
/// Every field has exactly its number of digits; the date must exist in the proleptic Gregorian calendar (leap
/// years: divisible by 4, except centuries not divisible by 400); hours 00-23, minutes and seconds 00-59 (a leap
/// second `:60` has no POSIX time and is refused); the offset at most 23:59; the fraction has one digit or more,
/// of any length (digits past the 15th are below a femtosecond and are not used); the instant, in UTC, lies within
/// the years 0000-9999 (`9999-12-31T23:30:00-01:00` is refused: no writer could carry it). What is not such a time is
/// nil, never a trap: a 35-digit fraction made Foundation's `ISO8601DateFormatter` divide by zero, and its ICU
/// parser also accepts 30 February, hour 24, fields of one digit and trailing text, which this parser refuses.
///
/// The parse is a few dozen integer operations on UTF-8 bytes, with no allocation: dates are turned into days
/// with the civil-from-days inverse of Howard Hinnant's `days_from_civil`, exact for every year 0000-9999.
package struct ISO8601Parser: Sendable {
    package init() {}

    /// The time of `text` in seconds since 1970-01-01T00:00:00Z, or nil if it is not an RFC 3339 date-time.
    package func seconds(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { Self.seconds(UnsafeRawBufferPointer($0)) }
    }

    /// The time of the UTF-8 bytes `b` when they are a date-time without a zone designator
    /// (`2024-05-01T12:00:00`, with or without a fraction), read as UTC, as gpxpy reads such a GPX time; nil for
    /// anything else, a date-time with a zone among them (`seconds` reads those).
    static func secondsAssumingUTC(_ b: UnsafeRawBufferPointer) -> Double? {
        guard b.count >= 19, b.count < 64, let last = b.last, last >= 48, last <= 57 else { return nil }
        var zoned = [UInt8](b)
        zoned.append(UInt8(ascii: "Z"))
        return zoned.withUnsafeBytes { seconds($0) }
    }

    /// The time of the UTF-8 bytes `bytes[start..<end]`, as `seconds(_:)` reads a string.
    static func seconds(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Double? {
        guard start >= 0, start <= end, end <= bytes.count else { return nil }
        return seconds(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
    }

    /// The time of the UTF-8 bytes `b`, as `seconds(_:)` reads a string.
    static func seconds(_ b: UnsafeRawBufferPointer) -> Double? {
        let n = b.count
        // The fixed part: "YYYY-MM-DDThh:mm:ss" is 19 bytes, and a zone needs at least one more.
        guard n >= 20 else { return nil }
        /// The value of the `count` digits from `i`, or -1 if one is not a digit.
        @inline(__always) func digits(_ i: Int, _ count: Int) -> Int {
            var value = 0
            for k in i..<(i + count) {
                let d = b[k] &- 48
                if d > 9 { return -1 }
                value = value * 10 + Int(d)
            }
            return value
        }
        let year = digits(0, 4), month = digits(5, 2), day = digits(8, 2)
        let hour = digits(11, 2), minute = digits(14, 2), second = digits(17, 2)
        let separator = b[10]
        guard b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[13] == UInt8(ascii: ":"),
            b[16] == UInt8(ascii: ":"),
            separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t") || separator == UInt8(ascii: " "),
            year >= 0, (1...12).contains(month), day >= 1, day <= daysInMonth(month, year: year),
            (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else { return nil }
        var i = 19
        var fraction = 0.0
        if b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") {
            i += 1
            // Up to 15 digits into an integer below 10^15 < 2^53: m / 10^k is then one correctly rounded division.
            var mantissa: UInt64 = 0
            var used = 0
            let first = i
            while i < n {
                let d = b[i] &- 48
                if d > 9 { break }
                if used < 15 {
                    mantissa = mantissa * 10 + UInt64(d)
                    used += 1
                }
                i += 1
            }
            guard i > first else { return nil }
            fraction = Double(mantissa) / .exactPowerOfTen(used)
        }
        guard i < n else { return nil }
        var offsetSeconds = 0
        switch b[i] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard i + 1 == n else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
            let rest = n - i - 1
            let hours: Int, minutes: Int
            switch rest {
            case 2: (hours, minutes) = (digits(i + 1, 2), 0)
            case 4: (hours, minutes) = (digits(i + 1, 2), digits(i + 3, 2))
            case 5:
                guard b[i + 3] == UInt8(ascii: ":") else { return nil }
                (hours, minutes) = (digits(i + 1, 2), digits(i + 4, 2))
            default: return nil
            }
            guard (0...23).contains(hours), (0...59).contains(minutes) else { return nil }
            offsetSeconds = sign * (hours * 3_600 + minutes * 60)
        default:
            return nil
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        let whole = days * 86_400 + hour * 3_600 + minute * 60 + second - offsetSeconds
        // The instant itself within 0000-01-01T00:00:00Z ... 9999-12-31T23:59:59Z: an offset may not carry it out.
        guard whole >= -62_167_219_200, whole < 253_402_300_800 else { return nil }
        return Double(whole) + fraction
    }

    /// The number of days in `month` (1-12) of `year`.
    static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the given date of the proleptic Gregorian calendar (Hinnant's `days_from_civil`).
    ///
    /// Years are counted from March, so the leap day ends a year: era = ⌊y / 400⌋, yoe = y − 400·era,
    /// doy = ⌊(153·m′ + 2) / 5⌋ + d − 1 with m′ = month − 3 (mod 12), doe = 365·yoe + ⌊yoe/4⌋ − ⌊yoe/100⌋ + doy,
    /// and the result era·146097 + doe − 719468.
    ///
    /// For the dates the parser reads (years 0000-9999, months 1-12, days 1-31) nothing can overflow, so the
    /// arithmetic wraps rather than checks, and what is never negative (the year of the era, the day of the year)
    /// is divided unsigned, which costs fewer instructions than a signed division.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year &- 1 : year
        let era = (y >= 0 ? y : y &- 399) / 400
        let yoe = UInt(bitPattern: y &- era &* 400)
        let shiftedMonth = UInt(bitPattern: month > 2 ? month &- 3 : month &+ 9)
        let doy = (153 &* shiftedMonth &+ 2) / 5 &+ UInt(bitPattern: day) &- 1
        let doe = yoe &* 365 &+ yoe / 4 &- yoe / 100 &+ doy
        return era &* 146_097 &+ Int(bitPattern: doe) &- 719_468
    }

    /// The date of the day `days` after 1970-01-01 (Hinnant's `civil_from_days`, the inverse of `daysFromCivil`).
    ///
    /// For the days `write` writes (years 0000-9999) nothing can overflow; as in `daysFromCivil`, the arithmetic
    /// wraps and the day of the era (0-146096) and what follows from it are divided unsigned.
    static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days &+ 719_468
        let era = (z >= 0 ? z : z &- 146_096) / 146_097
        let doe = UInt(bitPattern: z &- era &* 146_097)
        let yoe = (doe &- doe / 1_460 &+ doe / 36_524 &- doe / 146_096) / 365
        let doy = doe &- (365 &* yoe &+ yoe / 4 &- yoe / 100)
        let mp = (5 &* doy &+ 2) / 153
        let day = Int(bitPattern: doy &- (153 &* mp &+ 2) / 5 &+ 1)
        let month = Int(bitPattern: mp < 10 ? mp &+ 3 : mp &- 9)
        return (Int(bitPattern: yoe) &+ era &* 400 &+ (month <= 2 ? 1 : 0), month, day)
    }

    /// The RFC 3339 text (UTC, `Z`) of a time in seconds since 1970, with milliseconds when it has a fraction.
    ///
    /// The time is rounded to the millisecond; a time outside the years 0000-9999 (or not finite) is written as
    /// its number of seconds, since no date-time can carry it.
    package func text(_ seconds: Double) -> String {
        guard Self.isWritable(seconds) else { return "\(seconds)" }
        // The 20 or 24 bytes written in place: a time per output row is on the writers' hot path.
        return String(unsafeUninitializedCapacity: Self.maximumLength) { Self.write(seconds, into: $0) }
    }

    /// The numbers 00 to 99, two digits each, for `write`.
    private static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// The longest text `write` writes, in bytes.
    static let maximumLength = 24

    /// Whether `write` can write `seconds`: a finite time whose millisecond is within the years 0000-9999 (from
    /// 0000-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z).
    static func isWritable(_ seconds: Double) -> Bool {
        let milliseconds = (seconds * 1_000).rounded()
        return milliseconds.isFinite && milliseconds >= -62_167_219_200_000 && milliseconds < 253_402_300_800_000
    }

    /// Writes the text of `seconds` (which `isWritable`) as `text` does, into the first 20 or 24 bytes of
    /// `buffer` (at least `maximumLength` long), and returns how many.
    static func write(_ seconds: Double, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let milliseconds = Int((seconds * 1_000).rounded())
        var whole = milliseconds / 1_000
        var millis = milliseconds % 1_000
        if millis < 0 {
            millis += 1_000
            whole -= 1
        }
        let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let secondOfDay = whole - days * 86_400
        let (year, month, day) = civilFromDays(days)
        let fraction = millis != 0 || seconds.rounded() != seconds
        // Two digits at a time from "000102...99": value v (0-99) is the bytes 2v and 2v + 1.
        let pairs = digitPairs.utf8Start
        @inline(__always) func two(_ value: Int, at offset: Int) {
            buffer[offset] = pairs[2 * value]
            buffer[offset + 1] = pairs[2 * value + 1]
        }
        two(year / 100, at: 0)
        two(year % 100, at: 2)
        buffer[4] = 45  // -
        two(month, at: 5)
        buffer[7] = 45
        two(day, at: 8)
        buffer[10] = 84  // T
        two(secondOfDay / 3_600, at: 11)
        buffer[13] = 58  // :
        two(secondOfDay / 60 % 60, at: 14)
        buffer[16] = 58
        two(secondOfDay % 60, at: 17)
        guard fraction else {
            buffer[19] = 90  // Z
            return 20
        }
        buffer[19] = 46  // .
        buffer[20] = UInt8(truncatingIfNeeded: 48 + millis / 100)
        two(millis % 100, at: 21)
        buffer[23] = 90
        return 24
    }
}
