/// The FIT protocol's 16-bit CRC (the reflected CRC-16 of polynomial 0x8005, computed a nibble at a time as the
/// FIT SDK does), over a file's header and over the whole file.
enum FITCRC {
    private static let table: [UInt16] = [
        0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
        0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400,
    ]

    /// The CRC of `bytes[range]`, starting from 0.
    static func checksum(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> UInt16 {
        var crc: UInt16 = 0
        for k in range {
            let byte = UInt16(bytes[k])
            var tmp = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ tmp ^ table[Int(byte & 0xF)]
            tmp = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ tmp ^ table[Int((byte >> 4) & 0xF)]
        }
        return crc
    }
}
