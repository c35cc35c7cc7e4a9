import Altimetry

/// Turns arbitrary bytes into model parameters and a sequence of readings, so that most byte strings are
/// plausible recordings and the rest reach every extreme.
///
/// The first byte picks the parameters (bit 0: the plain model without tendency or fronts; bit 1: no gate;
/// bit 2: no fault handling; bit 3: the receiver learned while fusing). Each reading then takes a flag byte: bits 0 to 3 say which of pressure, GPS altitude,
/// vertical accuracy and temperature are present; bit 4 reads values as raw 8-byte doubles (any bit pattern,
/// NaN and infinity included) instead of 2-byte steps across the plausible range; bits 5 to 7 pick the time
/// step's unit, from 1 ms to 10⁵ s. The time step follows (2 bytes, or 8 raw; a raw step may go backwards),
/// then the values present. Bytes run out: the sequence ends.
struct ReadingDecoder {
    private let bytes: [UInt8]
    private var offset = 0
    private var time = 0.0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The model parameters the first byte picks.
    mutating func parameters() -> AltitudeModelParameters {
        let choice = byte() ?? 0
        var p = choice & 1 != 0 ? AltitudeModelParameters.plain : AltitudeModelParameters()
        if choice & 2 != 0 { p.gateStandardDeviations = nil }
        if choice & 4 != 0 { p.detectsFaults = false }
        if choice & 8 != 0 { p.learnsReceiver = true }
        return p
    }

    /// The next reading, or nil when the bytes run out.
    mutating func next() -> AltitudeReading? {
        guard let flags = byte() else { return nil }
        let raw = flags & 16 != 0
        let units: [Double] = [0.001, 0.01, 0.1, 1, 10, 100, 1_000, 100_000]
        let unit = units[Int(flags >> 5)]
        guard let step = raw ? double() : step(0, 65_535 * unit) else { return nil }
        var reading = AltitudeReading(time: time + step)
        // A step to a non-finite time is read once; the clock stays where it was for the next reading.
        if reading.time.isFinite { time = reading.time }
        // Hectopascals, metres above sea level, metres (one sigma), kelvin.
        if flags & 1 != 0 {
            guard let v = value(raw, 300, 1_100) else { return nil }
            reading.pressure = v
        }
        if flags & 2 != 0 {
            guard let v = value(raw, -600, 12_000) else { return nil }
            reading.gpsAltitude = v
        }
        if flags & 4 != 0 {
            guard let v = value(raw, 0, 200) else { return nil }
            reading.gpsVerticalAccuracy = v
        }
        if flags & 8 != 0 {
            guard let v = value(raw, 150, 350) else { return nil }
            reading.temperature = v
        }
        return reading
    }

    private mutating func value(_ raw: Bool, _ low: Double, _ high: Double) -> Double? {
        raw ? double() : step(low, high)
    }

    /// low + k (high − low) / 65535 for the next two bytes k.
    private mutating func step(_ low: Double, _ high: Double) -> Double? {
        guard let a = byte(), let b = byte() else { return nil }
        return low + Double(UInt16(a) << 8 | UInt16(b)) * (high - low) / 65_535
    }

    private mutating func double() -> Double? {
        guard offset + 8 <= bytes.count else { return nil }
        var bits: UInt64 = 0
        for k in 0..<8 { bits = bits << 8 | UInt64(bytes[offset + k]) }
        offset += 8
        return Double(bitPattern: bits)
    }

    private mutating func byte() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }
}
