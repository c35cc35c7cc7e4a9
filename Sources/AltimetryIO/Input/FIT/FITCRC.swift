/// The FIT protocol's 16-bit CRC, over a file's header and over the whole file. Public for tools that write FIT
/// files (the benchmark's generator).
///
/// The FIT SDK computes it a nibble at a time with a 16-entry table (`nibbleTable`); that is the reflected CRC-16
/// of polynomial 0x8005 (CRC-16/ARC), so a byte at a time is crc = (crc >> 8) ⊕ T[(crc ⊕ byte) & 0xFF], with
/// T[x] the nibble algorithm's CRC of the single byte x from 0: one lookup per byte instead of four.
package enum FITCRC {
    /// The FIT SDK's table, for a nibble.
    static let nibbleTable: [UInt16] = [
        0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
        0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400,
    ]

    /// The FIT SDK's step: `crc` updated with one byte, a nibble at a time.
    static func nibbleStep(_ crc: UInt16, _ byte: UInt8) -> UInt16 {
        var crc = crc
        var tmp = nibbleTable[Int(crc & 0xF)]
        crc = (crc >> 4) & 0x0FFF
        crc = crc ^ tmp ^ nibbleTable[Int(byte & 0xF)]
        tmp = nibbleTable[Int(crc & 0xF)]
        crc = (crc >> 4) & 0x0FFF
        return crc ^ tmp ^ nibbleTable[Int((byte >> 4) & 0xF)]
    }

    /// T[x]: the CRC of the byte x from 0.
    static let byteTable: [UInt16] = (0...255).map { nibbleStep(0, UInt8($0)) }

    /// The CRC of `bytes[range]`, starting from 0.
    package static func checksum(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> UInt16 {
        var crc: UInt16 = 0
        byteTable.withUnsafeBufferPointer { table in
            for k in range { crc = (crc >> 8) ^ table[Int(UInt8(truncatingIfNeeded: crc) ^ bytes[k])] }
        }
        return crc
    }
}
