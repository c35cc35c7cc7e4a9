/// The FIT protocol's 16-bit CRC, over a file's header and over the whole file. Public for tools that write FIT
/// files (the benchmark's generator).
///
/// The FIT SDK computes it a nibble at a time with a 16-entry table (`nibbleTable`); that is the reflected CRC-16
/// of polynomial 0x8005 (CRC-16/ARC), so a byte at a time is crc = (crc >> 8) ⊕ T[(crc ⊕ byte) & 0xFF], with
/// T[x] the nibble algorithm's CRC of the single byte x from 0: one lookup per byte instead of four, and eight
/// bytes at a time with the tables of `sliceTables`.
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

    /// Slicing by 8: table k (entries 256 k ..< 256 (k + 1)) is T advanced by k zero bytes,
    /// Tₖ[x] = (Tₖ₋₁[x] >> 8) ⊕ T[Tₖ₋₁[x] & 0xFF], so eight bytes b₀…b₇ (with the CRC xored into b₀ b₁, the register
    /// being reflected) update the CRC as T₇[b₀] ⊕ T₆[b₁] ⊕ … ⊕ T₀[b₇]: eight independent lookups instead of a
    /// chain of eight.
    static let sliceTables: [UInt16] = {
        var tables = byteTable
        for k in 1..<8 {
            for x in 0..<256 {
                let previous = tables[256 * (k - 1) + x]
                tables.append((previous >> 8) ^ byteTable[Int(previous & 0xFF)])
            }
        }
        return tables
    }()

    /// The CRC of `bytes[range]`, starting from 0.
    package static func checksum(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> UInt16 {
        var crc: UInt16 = 0
        sliceTables.withUnsafeBufferPointer { t in
            var k = range.lowerBound
            while range.upperBound - k >= 8 {
                let x = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: k, as: UInt64.self)) ^ UInt64(crc)
                @inline(__always) func lookup(_ table: Int, _ shift: UInt64) -> UInt16 {
                    t[256 * table + Int(truncatingIfNeeded: (x >> shift) & 0xFF)]
                }
                crc =
                    lookup(7, 0) ^ lookup(6, 8) ^ lookup(5, 16) ^ lookup(4, 24)
                    ^ lookup(3, 32) ^ lookup(2, 40) ^ lookup(1, 48) ^ lookup(0, 56)
                k += 8
            }
            while k < range.upperBound {
                crc = (crc >> 8) ^ t[Int(UInt8(truncatingIfNeeded: crc) ^ bytes[k])]
                k += 1
            }
        }
        return crc
    }
}
