/// A minimal independent PNG writer for test inputs libpng did not make: stored (uncompressed)
/// deflate, an sRGB chunk, any colour type and bit depth the caller packs rows for.
enum TinyPNG {
    static func encode(
        width: Int, height: Int, bitDepth: UInt8, colourType: UInt8, rows: [[UInt8]],
        palette: [UInt8]? = nil, transparency: [UInt8]? = nil
    ) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var ihdr = be32(UInt32(width)) + be32(UInt32(height))
        ihdr += [bitDepth, colourType, 0, 0, 0]
        out += chunk("IHDR", ihdr)
        out += chunk("sRGB", [0])
        if let palette { out += chunk("PLTE", palette) }
        if let transparency { out += chunk("tRNS", transparency) }
        var raw: [UInt8] = []
        for row in rows { raw += [0] + row }  // filter type 0
        // zlib: header, one stored block, Adler-32.
        var z: [UInt8] = [0x78, 0x01, 0x01]
        let n = UInt16(raw.count)
        z += [UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8)]
        z += raw
        z += be32(adler32(raw))
        out += chunk("IDAT", z)
        out += chunk("IEND", [])
        return out
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc32(body))
    }

    static func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for x in bytes {
            a = (a + UInt32(x)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }
}
