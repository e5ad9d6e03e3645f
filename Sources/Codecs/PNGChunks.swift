/// A PNG file's chunks, read and written around the pixels libpng encodes: what an animated
/// PNG's frame control chunks and a stamp's text chunk are made of.
public enum PNGChunks {
    /// The eight bytes every PNG starts with.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A chunk: its length, its four-letter type, its data and the CRC of type and data.
    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    /// The chunks of a PNG libpng wrote (well-formed, so unchecked), in order.
    public static func chunks(of png: [UInt8]) -> [(type: String, data: ArraySlice<UInt8>)] {
        var found: [(String, ArraySlice<UInt8>)] = []
        var at = signature.count
        while at + 12 <= png.count {
            let length = png[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self)
            guard at + 12 + length <= png.count else { break }
            found.append((type, png[(at + 8)..<(at + 8 + length)]))
            at += 12 + length
        }
        return found
    }

    /// `v` as four big-endian bytes, as PNG writes every number.
    public static func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }

    /// PNG's chunk CRC (ISO 3309, the one zlib computes).
    public static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes { crc = table[Int((crc ^ UInt32(b)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }

    /// The CRC of each byte value, one step of eight.
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
        return c
    }
}
