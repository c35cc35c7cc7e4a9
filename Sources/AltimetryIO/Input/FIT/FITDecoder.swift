/// Decodes the FIT protocol (Garmin's Flexible and Interoperable Data Transfer) into the messages Altimetry reads.
///
/// A FIT file is a header (12 or 14 bytes: header size, protocol and profile versions, the size of the data
/// records, `.FIT`, and in 14-byte headers a CRC of the first 12), the data records, and a CRC of everything
/// before it (`FITCRC`). Several such files may follow one another (chained FIT); each is decoded in turn.
///
/// A damaged file is read as far as it can be, as Garmin's FIT SDK reads it: a header CRC or a file CRC that does
/// not match, or a file cut short (fewer bytes than its header's data size), is a warning naming the byte offset
/// (`FITMessages.warnings`), and the records are decoded anyway; in such a file, the first record that cannot be
/// decoded (an undefined local type, a message running past the bytes left) ends the read with a second warning,
/// keeping the messages before it. In an intact file, the same record is an error. A truncated file ends the chain.
///
/// Each record starts with a header byte:
/// - `0b0100_xxxx` (bit 6 set): a *definition message* for local message type xxxx: a reserved byte, the
///   architecture (0 little-endian, 1 big-endian), the global message number, and for each field its number, size
///   and base type; with bit 5 set, developer fields follow (number, size, developer data index each).
/// - `0b0000_xxxx`: a *data message* laid out as the last definition of local type xxxx said.
/// - `0b1ttx_xxxx` (bit 7 set): a data message with a *compressed timestamp*: local type tt (0-3), and the low 5
///   bits of the time; the time is the last full timestamp with those bits replaced, plus 32 s when they are
///   smaller than the last's (a roll-over).
///
/// Only `file_id` (0), `device_info` (23), `record` (20), `gps_metadata` (160) and `barometer_data` (209) are decoded, and of them
/// only the fields below (field numbers from the FIT profile); every other message, field and developer field is
/// skipped by its declared size, which is checked against the data left. A field whose value is its base type's
/// invalid sentinel is no reading; so is a single-valued field whose size is not its base type's. The two
/// array fields of `barometer_data` (`sample_time_offset`, `baro_pres`) hold size / base size elements each.
///
/// - Complexity: linear in the bytes; no allocation per message besides the decoded message arrays.
enum FITDecoder {
    /// A problem at a byte offset of the file.
    struct Failure: Error, Equatable {
        var offset: Int
        var message: String
    }

    /// Seconds from 1970-01-01T00:00:00Z to FIT's epoch, 1989-12-31T00:00:00Z.
    static let epochOffset = 631_065_600.0

    /// What a field of a decoded message is read into.
    enum Target: UInt8 {
        case timestamp, latitude, longitude, altitude, enhancedAltitude, temperature, absolutePressure,
            timestampMilliseconds
        case manufacturer, product, productName, deviceIndex
        /// `barometer_data`'s array fields: `baro_pres` (uint32[], Pa) and `sample_time_offset` (uint16[], ms).
        case samplePressures, sampleTimeOffsets
    }

    /// A field of a definition that is read: where it is in the data message, its size and base type.
    struct Field {
        var offset: Int
        var size: Int
        var baseType: UInt8
        var target: Target
        /// Whether the field holds one value of its base type (its size is the base type's, and the type is
        /// numeric): worked out once, when the definition is read, rather than for every message.
        var isSingleValue: Bool

        init(offset: Int, size: Int, baseType: UInt8, target: Target) {
            self.offset = offset
            self.size = size
            self.baseType = baseType
            self.target = target
            let type = baseType & 0x1F
            isSingleValue = type != 7 && FITDecoder.baseSize(type) == size
        }
    }

    /// What a definition message said, reduced to what data messages need.
    ///
    /// Its fields are a range of the file's field list (`FieldList`), so a definition holds no array of its own and
    /// copying it per data message costs no reference count.
    struct Definition {
        var global: UInt16
        var bigEndian: Bool
        /// Bytes of a data message of this definition, developer fields included.
        var size: Int
        /// The fields read, as indices into the file's field list.
        var fields: Range<Int>
        var developerFields: Int
    }

    /// The field to read for field number `number` of global message `global`, or nil.
    static func target(global: UInt16, number: UInt8) -> Target? {
        if number == 253 { return .timestamp }
        switch (global, number) {
        case (0, 1): return .manufacturer
        case (0, 2): return .product
        case (0, 8): return .productName
        case (23, 0): return .deviceIndex
        case (23, 2): return .manufacturer
        case (23, 4): return .product
        case (23, 27): return .productName
        case (20, 0), (160, 1): return .latitude
        case (20, 1), (160, 2): return .longitude
        case (20, 2): return .altitude
        case (20, 78), (160, 3): return .enhancedAltitude
        case (20, 13): return .temperature
        case (20, 91): return .absolutePressure
        case (160, 0), (209, 0): return .timestampMilliseconds
        case (209, 1): return .sampleTimeOffsets
        case (209, 2): return .samplePressures
        default: return nil
        }
    }

    /// The decoded messages of `bytes`.
    ///
    /// - Throws: `Failure` for a header that is not FIT's, or, in a file whose CRC matches, a record that runs past
    ///   the data or uses an undefined local message type. A CRC that does not match and a truncated file are
    ///   warnings (`FITMessages.warnings`).
    static func decode(_ bytes: UnsafeRawBufferPointer) throws(Failure) -> FITMessages {
        var messages = FITMessages()
        var start = 0
        var messageIndex = 0
        repeat {
            start = try decodeFile(bytes, from: start, into: &messages, messageIndex: &messageIndex)
        } while start < bytes.count
        return messages
    }

    /// Decodes the FIT file starting at `start`; returns where the next chained file would start.
    static func decodeFile(
        _ b: UnsafeRawBufferPointer, from start: Int, into messages: inout FITMessages,
        messageIndex: inout Int
    ) throws(Failure) -> Int {
        let n = b.count
        guard n - start >= 12 else {
            throw Failure(
                offset: start,
                message: "found \(n - start) bytes, expected a FIT header of 12 or 14 bytes (the file looks truncated)")
        }
        let headerSize = Int(b[start])
        guard headerSize == 12 || headerSize == 14 || (headerSize > 14 && headerSize < 64), n - start >= headerSize
        else {
            throw Failure(
                offset: start, message: "found a header size of \(headerSize), expected 12 or 14: not a FIT file")
        }
        guard b[start + 8] == UInt8(ascii: "."), b[start + 9] == UInt8(ascii: "F"), b[start + 10] == UInt8(ascii: "I"),
            b[start + 11] == UInt8(ascii: "T")
        else {
            throw Failure(offset: start + 8, message: "found no '.FIT' signature in the header: not a FIT file")
        }
        let protocolMajor = b[start + 1] >> 4
        guard protocolMajor <= 2 else {
            throw Failure(
                offset: start + 1,
                message: "found protocol version \(protocolMajor).\(b[start + 1] & 0xF), expected 1.x or 2.x")
        }
        // Whether the file is damaged (a CRC that does not match, a truncated file): its records are read as far
        // as they decode.
        var damaged = false
        if headerSize >= 14 {
            let stored = UInt16(b[start + 12]) | UInt16(b[start + 13]) << 8
            let computed = FITCRC.checksum(b, start..<(start + 12))
            if stored != 0 && stored != computed {
                damaged = true
                messages.warnings.append(
                    FITMessages.Warning(
                        offset: start + 12,
                        message: "the header's CRC is 0x\(hex(stored)), its bytes give 0x\(hex(computed)) (the file is "
                            + "corrupted or was modified); reading the records as far as they decode"))
            }
        }
        let dataSize = Int(read(b, start + 4, 4, bigEndian: false))
        let dataStart = start + headerSize
        var dataEnd = dataStart + dataSize
        var next = dataEnd + 2
        if dataEnd + 2 > n {
            damaged = true
            messages.warnings.append(
                FITMessages.Warning(
                    offset: n,
                    message: "found \(n - dataStart) bytes after the header, expected \(dataSize) bytes of records "
                        + "and a 2-byte CRC (the file is truncated); reading the records in the bytes there"))
            dataEnd = n
            next = n
        } else {
            let stored = UInt16(b[dataEnd]) | UInt16(b[dataEnd + 1]) << 8
            let computed = FITCRC.checksum(b, start..<dataEnd)
            if stored != computed {
                damaged = true
                messages.warnings.append(
                    FITMessages.Warning(
                        offset: dataEnd,
                        message: "the file's CRC is 0x\(hex(stored)), its bytes give 0x\(hex(computed)) (the file is "
                            + "corrupted or was modified); reading the records as far as they decode"))
            }
        }
        do throws(Failure) {
            try decodeRecords(b, dataStart..<dataEnd, into: &messages, messageIndex: &messageIndex)
        } catch {
            guard damaged else { throw error }
            messages.warnings.append(
                FITMessages.Warning(
                    offset: error.offset,
                    message: "stopped reading the damaged file here: \(error.message); the messages before it are read")
            )
            return max(next, dataEnd)
        }
        return next
    }

    /// Decodes the data records in `data` (the bytes between a file's header and its CRC).
    ///
    /// - Throws: `Failure` for a record that runs past the data or uses an undefined local message type.
    static func decodeRecords(
        _ b: UnsafeRawBufferPointer, _ data: Range<Int>, into messages: inout FITMessages, messageIndex: inout Int
    ) throws(Failure) {
        let dataEnd = data.upperBound
        var definitions = [Definition?](repeating: nil, count: 16)
        // Every definition's read fields, appended as definitions come (a redefinition appends anew).
        var fieldList: [Field] = []
        var lastTimestamp: UInt32?
        var p = data.lowerBound
        while p < dataEnd {
            let header = b[p]
            let recordStart = p
            p += 1
            if header & 0x80 == 0 && header & 0x40 != 0 {
                let definition = try readDefinition(
                    b, &p, end: dataEnd, developer: header & 0x20 != 0, fields: &fieldList)
                definitions[Int(header & 0x0F)] = definition
                if definition.global == 20 && messages.records.isEmpty {
                    // Room for as many records as the rest of the data could hold, so the array never grows by
                    // copying (pages of it that are never written cost no memory).
                    messages.records.reserveCapacity((dataEnd - p) / (definition.size + 1))
                }
                continue
            }
            let compressed = header & 0x80 != 0
            let local = compressed ? Int((header >> 5) & 0x03) : Int(header & 0x0F)
            guard let definition = definitions[local] else {
                throw Failure(
                    offset: recordStart,
                    message: "found a data message of local type \(local) before any "
                        + "definition of it; expected a definition message first")
            }
            guard dataEnd - p >= definition.size else {
                throw Failure(
                    offset: recordStart,
                    message: "found a data message of \(definition.size) bytes with "
                        + "\(dataEnd - p) bytes of records left; expected it to fit")
            }
            var values = Values()
            if compressed, let last = lastTimestamp {
                let offset = UInt32(header & 0x1F)
                var time = (last & ~0x1F) &+ offset
                if offset < last & 0x1F { time = time &+ 0x20 }
                values.timestamp = Double(time)
                lastTimestamp = time
            }
            for k in definition.fields {
                let field = fieldList[k]
                switch field.target {
                case .productName:
                    values.productName = (p + field.offset)..<(p + field.offset + field.size)
                    continue
                case .samplePressures, .sampleTimeOffsets:
                    values.set(
                        field.target,
                        array: ArrayField(offset: p + field.offset, field: field, bigEndian: definition.bigEndian))
                    continue
                default:
                    break
                }
                guard let value = number(b, p + field.offset, field, bigEndian: definition.bigEndian) else { continue }
                if field.target == .timestamp {
                    // A time is a uint32 of seconds; a field 253 of another type or sign is no time.
                    guard let seconds = UInt32(exactly: value) else { continue }
                    lastTimestamp = seconds
                    values.timestamp = value
                } else {
                    values.set(field.target, value)
                }
            }
            p += definition.size
            messages.skippedDeveloperFields += definition.developerFields
            values.append(to: &messages, global: definition.global, index: messageIndex, bytes: b)
            messageIndex += 1
        }
    }

    /// Reads a definition message's content at `p` (after its header byte), moving `p` past it.
    static func readDefinition(
        _ b: UnsafeRawBufferPointer, _ p: inout Int, end: Int,
        developer: Bool, fields: inout [Field]
    ) throws(Failure) -> Definition {
        let start = p - 1
        guard end - p >= 5 else {
            throw Failure(
                offset: start, message: "found a definition message cut short; expected 5 bytes and its fields")
        }
        let architecture = b[p + 1]
        guard architecture <= 1 else {
            throw Failure(
                offset: p + 1,
                message:
                    "found architecture \(architecture) in a definition, expected 0 (little-endian) or 1 (big-endian)")
        }
        let bigEndian = architecture == 1
        let global = UInt16(read(b, p + 2, 2, bigEndian: bigEndian))
        let count = Int(b[p + 4])
        p += 5
        guard end - p >= 3 * count else {
            throw Failure(offset: start, message: "found a definition of \(count) fields cut short")
        }
        var definition = Definition(
            global: global, bigEndian: bigEndian, size: 0, fields: fields.count..<fields.count, developerFields: 0)
        for _ in 0..<count {
            let number = b[p], size = Int(b[p + 1]), baseType = b[p + 2]
            guard size > 0 else {
                throw Failure(
                    offset: p, message: "found field \(number) of size 0 in a definition; expected a positive size")
            }
            if let target = target(global: global, number: number) {
                fields.append(Field(offset: definition.size, size: size, baseType: baseType, target: target))
                definition.fields = definition.fields.lowerBound..<fields.count
            }
            definition.size += size
            p += 3
        }
        if developer {
            guard end - p >= 1 else {
                throw Failure(offset: start, message: "found a definition cut short before its developer fields")
            }
            let developerCount = Int(b[p])
            p += 1
            guard end - p >= 3 * developerCount else {
                throw Failure(offset: start, message: "found developer field definitions cut short")
            }
            for k in 0..<developerCount { definition.size += Int(b[p + 3 * k + 1]) }
            definition.developerFields = developerCount
            p += 3 * developerCount
        }
        return definition
    }

    /// The unsigned integer of `size` bytes at `offset`.
    ///
    /// The sizes of FIT's numeric types (1, 2, 4 and 8 bytes) are one unaligned load each; other sizes are read a
    /// byte at a time.
    @inline(__always)
    static func read(_ b: UnsafeRawBufferPointer, _ offset: Int, _ size: Int, bigEndian: Bool) -> UInt64 {
        switch size {
        case 1:
            return UInt64(b[offset])
        case 2:
            let raw = b.loadUnaligned(fromByteOffset: offset, as: UInt16.self)
            return UInt64(bigEndian ? UInt16(bigEndian: raw) : UInt16(littleEndian: raw))
        case 4:
            let raw = b.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            return UInt64(bigEndian ? UInt32(bigEndian: raw) : UInt32(littleEndian: raw))
        case 8:
            let raw = b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            return bigEndian ? UInt64(bigEndian: raw) : UInt64(littleEndian: raw)
        default:
            var value: UInt64 = 0
            if bigEndian {
                for k in 0..<size { value = value << 8 | UInt64(b[offset + k]) }
            } else {
                for k in stride(from: size - 1, through: 0, by: -1) { value = value << 8 | UInt64(b[offset + k]) }
            }
            return value
        }
    }

    /// The size in bytes of FIT's base type `type` (the low 5 bits of the base type byte), 0 for an unknown one.
    static func baseSize(_ type: UInt8) -> Int {
        switch type {
        case 0, 1, 2, 7, 10, 13: return 1
        case 3, 4, 11: return 2
        case 5, 6, 8, 12: return 4
        case 9, 14, 15, 16: return 8
        default: return 0
        }
    }

    /// The numeric value of `field` at `offset`, or nil when it is its type's invalid value or not a single value.
    @inline(__always)
    static func number(_ b: UnsafeRawBufferPointer, _ offset: Int, _ field: Field, bigEndian: Bool) -> Double? {
        guard field.isSingleValue else { return nil }
        let raw = read(b, offset, field.size, bigEndian: bigEndian)
        switch field.baseType & 0x1F {
        case 0, 2, 13: return raw == 0xFF ? nil : Double(raw)
        case 1: return raw == 0x7F ? nil : Double(Int8(truncatingIfNeeded: raw))
        case 3: return raw == 0x7FFF ? nil : Double(Int16(truncatingIfNeeded: raw))
        case 4: return raw == 0xFFFF ? nil : Double(raw)
        case 5: return raw == 0x7FFF_FFFF ? nil : Double(Int32(truncatingIfNeeded: raw))
        case 6: return raw == 0xFFFF_FFFF ? nil : Double(raw)
        case 8:
            let value = Float(bitPattern: UInt32(truncatingIfNeeded: raw))
            return raw == 0xFFFF_FFFF || !value.isFinite ? nil : Double(value)
        case 9:
            let value = Double(bitPattern: raw)
            return raw == UInt64.max || !value.isFinite ? nil : value
        case 10, 11, 12, 16: return raw == 0 ? nil : Double(raw)
        case 14: return raw == 0x7FFF_FFFF_FFFF_FFFF ? nil : Double(Int64(bitPattern: raw))
        default: return raw == UInt64.max ? nil : Double(raw)
        }
    }

    /// A string field: UTF-8 up to the first NUL, nil when empty.
    static func text(_ b: UnsafeRawBufferPointer, _ offset: Int, _ size: Int) -> String? {
        var end = offset
        while end < offset + size && b[end] != 0 { end += 1 }
        guard end > offset else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: b[offset..<end]), as: UTF8.self)
    }

    static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    /// An array field of a data message: where its elements are in the file, how many, and their base type.
    struct ArrayField {
        /// The byte offset of the first element in the file.
        var offset: Int
        /// One element as a field of its base type's size (offset 0).
        var element: Field
        var count: Int
        var bigEndian: Bool

        /// The array of `field` at byte `offset`: size / base size elements, none when the base type is unknown,
        /// a string or a byte array, or the size is not a multiple of its base size.
        init(offset: Int, field: Field, bigEndian: Bool) {
            let type = field.baseType & 0x1F
            let size = type != 7 && type != 13 ? FITDecoder.baseSize(type) : 0
            self.offset = offset
            self.element = Field(offset: 0, size: max(size, 1), baseType: field.baseType, target: field.target)
            self.count = size > 0 && field.size % size == 0 ? field.size / size : 0
            self.bigEndian = bigEndian
        }

        /// Element `k` (below `count`), nil when it is the invalid sentinel.
        func element(_ k: Int, in bytes: UnsafeRawBufferPointer) -> Double? {
            FITDecoder.number(bytes, offset + k * element.size, element, bigEndian: bigEndian)
        }
    }

    /// The values read from one data message, in FIT's units (NaN: no reading).
    struct Values {
        var timestamp = Double.nan
        var latitude = Double.nan, longitude = Double.nan
        var altitude = Double.nan, enhancedAltitude = Double.nan
        var temperature = Double.nan, absolutePressure = Double.nan, timestampMilliseconds = Double.nan
        var manufacturer = Double.nan, product = Double.nan, deviceIndex = Double.nan
        /// `product_name`'s bytes in the file (a string is made only for `file_id`).
        var productName: Range<Int>?
        var samplePressures: ArrayField?, sampleTimeOffsets: ArrayField?

        mutating func set(_ target: Target, array: ArrayField) {
            if target == .samplePressures { samplePressures = array } else { sampleTimeOffsets = array }
        }

        mutating func set(_ target: Target, _ value: Double) {
            switch target {
            case .timestamp: timestamp = value
            case .latitude: latitude = value
            case .longitude: longitude = value
            case .altitude: altitude = value
            case .enhancedAltitude: enhancedAltitude = value
            case .temperature: temperature = value
            case .absolutePressure: absolutePressure = value
            case .timestampMilliseconds: timestampMilliseconds = value
            case .manufacturer: manufacturer = value
            case .product: product = value
            case .deviceIndex: deviceIndex = value
            case .productName, .samplePressures, .sampleTimeOffsets: break
            }
        }

        /// Semicircles (2³¹ to 180°) in degrees.
        static func degrees(_ semicircles: Double) -> Double? {
            semicircles.isNaN ? nil : semicircles * (180 / 2_147_483_648)
        }
        /// FIT's altitude scale: stored = (metres + 500) × 5.
        static func metres(_ stored: Double) -> Double? { stored.isNaN ? nil : stored / 5 - 500 }
        static func optional(_ value: Double) -> Double? { value.isNaN ? nil : value }

        func append(to messages: inout FITMessages, global: UInt16, index: Int, bytes: UnsafeRawBufferPointer) {
            let time = timestamp.isNaN ? nil : timestamp + FITDecoder.epochOffset
            switch global {
            case 0:
                messages.manufacturer = messages.manufacturer ?? Int(exactly: manufacturer)
                messages.product = messages.product ?? Int(exactly: product)
                messages.productName =
                    messages.productName ?? productName.flatMap { FITDecoder.text(bytes, $0.lowerBound, $0.count) }
            case 23:
                // The creator's device_info (device_index 0), the first one: the device that recorded the file
                // when file_id names an app that wrote it.
                guard deviceIndex == 0, messages.creatorDevice == nil, let maker = Int(exactly: manufacturer) else {
                    break
                }
                messages.creatorDevice = FITMessages.Device(
                    manufacturer: maker, product: Int(exactly: product),
                    productName: productName.flatMap { FITDecoder.text(bytes, $0.lowerBound, $0.count) })
            case 20:
                messages.records.append(
                    FITMessages.Record(
                        index: index, time: time, latitude: Self.degrees(latitude), longitude: Self.degrees(longitude),
                        altitude: Self.metres(altitude), enhancedAltitude: Self.metres(enhancedAltitude),
                        temperature: Self.optional(temperature), absolutePressure: Self.optional(absolutePressure)))
            case 160:
                let milliseconds = timestampMilliseconds.isNaN ? 0 : timestampMilliseconds / 1_000
                messages.gnssFixes.append(
                    FITMessages.GNSSFix(
                        index: index, time: time.map { $0 + milliseconds }, latitude: Self.degrees(latitude),
                        longitude: Self.degrees(longitude), altitude: Self.metres(enhancedAltitude)))
            case 209:
                // Sample k was taken at timestamp + timestamp_ms + sample_time_offset[k]; without its offset
                // (or the message's timestamp) it has no time.
                guard let pressures = samplePressures else { break }
                let start = time.map { $0 + (timestampMilliseconds.isNaN ? 0 : timestampMilliseconds / 1_000) }
                for k in 0..<pressures.count {
                    let offset = sampleTimeOffsets.flatMap { k < $0.count ? $0.element(k, in: bytes) : nil }
                    messages.barometerSamples.append(
                        FITMessages.BarometerSample(
                            index: index, time: start.flatMap { t in offset.map { t + $0 / 1_000 } },
                            pressure: pressures.element(k, in: bytes)))
                }
            default:
                messages.skippedMessages += 1
            }
        }
    }
}
