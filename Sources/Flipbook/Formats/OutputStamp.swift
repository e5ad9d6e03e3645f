import Codecs
import Foundation

/// A short text carried at the very end of a written GIF, PNG, WebP or MP4, in a block every
/// reader skips: what made the file (`flipbook build`'s key), read back from its last bytes
/// without decoding anything.
///
/// Each format has a place for text a decoder ignores, and each stamp is the file's last block
/// (or the one before its end marker), so reading one is a single read of the file's tail:
/// - GIF: a comment extension just before the trailer byte.
/// - PNG: a `tEXt` chunk (keyword `flipbook-key`) just before `IEND`.
/// - WebP (extended format): an unknown chunk, `FBKY`, last in the RIFF container, whose
///   size is updated; the container format tells readers to skip unknown chunks.
/// - MP4: a top-level `uuid` box, last in the file.
///
/// A stamp is exactly `OutputStamp.length` characters of `[0-9a-z]` (an `OutputKey`'s stamp:
/// the key's hex digest, then its parts' short ones).
public enum OutputStamp {
    /// The stamp's length: a build key's hex digest and its five parts' short ones (`Build`'s
    /// `OutputKey.stamp`, which its tests hold to this).
    public static let length = 64 + 5 * 12

    /// What the text says before the stamp, in every format.
    static let label = Array("flipbook-key ".utf8)
    /// The MP4 box's 16-byte extended type: a fixed UUID naming Flipbook's stamp.
    static let mp4UUID: [UInt8] = [
        0x6B, 0x9E, 0x21, 0x4F, 0x0C, 0x55, 0x4B, 0x7A, 0x9F, 0x3D, 0x28, 0x61, 0xF1, 0x1B, 0x0E, 0x5C,
    ]

    /// The formats a stamp can go into, told by their first bytes.
    enum Kind { case gif, png, webp, mp4 }

    /// Writes `stamp` into the file at `path` (replacing one already there), atomically.
    public static func write(_ stamp: String, to path: String) throws {
        let text = Array(stamp.utf8)
        guard text.count == length, text.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) })
        else {
            throw EncodeError.invalidSetting(
                name: "stamp", value: stamp, expected: "\(length) characters of 0-9 and a-z")
        }
        var bytes = try readFile(path, maximumBytes: 4 << 30)
        guard let kind = kind(of: bytes) else {
            throw EncodeError.unwritable(path: path, reason: "not a GIF, PNG, WebP or MP4 file: nothing to stamp")
        }
        func fail(_ reason: String) -> EncodeError { .unwritable(path: path, reason: reason) }
        if read(bytes, kind: kind) != nil { bytes.removeSubrange(stampRange(kind: kind, count: bytes.count)) }
        let payload = label + text
        switch kind {
        case .gif:
            guard bytes.last == 0x3B else { throw fail("the GIF does not end with its trailer byte") }
            bytes.insert(contentsOf: [0x21, 0xFE, UInt8(payload.count)] + payload + [0], at: bytes.count - 1)
        case .png:
            guard bytes.count >= 20, Array(bytes[(bytes.count - 8)..<(bytes.count - 4)]) == Array("IEND".utf8)
            else { throw fail("the PNG does not end with its IEND chunk") }
            let data = Array("flipbook-key".utf8) + [0] + text
            bytes.insert(contentsOf: PNGChunks.chunk("tEXt", data), at: bytes.count - 12)
        case .webp:
            guard bytes.count >= 30, Array(bytes[12..<16]) == Array("VP8X".utf8) else {
                throw fail("a simple-format WebP (one image, no VP8X header) has no place for a stamp")
            }
            var chunk = Array("FBKY".utf8) + littleEndian(UInt32(payload.count)) + payload
            if payload.count % 2 == 1 { chunk.append(0) }
            bytes += chunk
            let riff = littleEndian(UInt32(bytes.count - 8))
            bytes.replaceSubrange(4..<8, with: riff)
        case .mp4:
            guard boxesSpanFile(bytes) else {
                throw fail("the MP4's top-level boxes do not span the file (a box of open size?): nothing appended")
            }
            let box = PNGChunks.bigEndian(UInt32(8 + 16 + payload.count)) + Array("uuid".utf8) + mp4UUID + payload
            bytes += box
        }
        try AtomicOutput.write(bytes, to: path)
    }

    /// The stamp at the end of the file at `path`, or nil when it has none (or is missing,
    /// unreadable, or not one of the four formats). Reads the file's first and last bytes only.
    public static func read(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 16), let kind = kind(of: Array(head)),
            let end = try? handle.seekToEnd(), end >= 16
        else { return nil }
        let count = min(Int(end), tailLength(kind))
        guard (try? handle.seek(toOffset: end - UInt64(count))) != nil, let tail = try? handle.read(upToCount: count),
            tail.count == count
        else { return nil }
        return read(Array(tail), kind: kind)
    }

    static func kind(of bytes: [UInt8]) -> Kind? {
        guard bytes.count >= 12 else { return nil }
        if bytes.starts(with: Array("GIF8".utf8)) { return .gif }
        if bytes.starts(with: PNGCodec.signature) { return .png }
        if bytes.starts(with: Array("RIFF".utf8)) && Array(bytes[8..<12]) == Array("WEBP".utf8) { return .webp }
        if Array(bytes[4..<8]) == Array("ftyp".utf8) { return .mp4 }
        return nil
    }

    /// How many bytes at the end of a file hold a stamp and what follows it.
    static func tailLength(_ kind: Kind) -> Int {
        let payload = label.count + length
        switch kind {
        case .gif: return 3 + payload + 1 + 1
        case .png: return 12 + 13 + length + 12
        case .webp: return 8 + payload + payload % 2
        case .mp4: return 8 + 16 + payload
        }
    }

    /// The stamp's bytes within a file of `count` bytes that ends with one.
    static func stampRange(kind: Kind, count: Int) -> Range<Int> {
        switch kind {
        case .gif: return (count - tailLength(kind))..<(count - 1)
        case .png: return (count - tailLength(kind))..<(count - 12)
        case .webp, .mp4: return (count - tailLength(kind))..<count
        }
    }

    /// The stamp at the end of `bytes` (a whole file, or its tail).
    static func read(_ bytes: [UInt8], kind: Kind) -> String? {
        let tail = tailLength(kind)
        guard bytes.count >= tail else { return nil }
        let t = Array(bytes[(bytes.count - tail)...])
        let payload = label + [UInt8](repeating: 0, count: length)
        let text: ArraySlice<UInt8>
        switch kind {
        case .gif:
            guard t[0] == 0x21, t[1] == 0xFE, Int(t[2]) == payload.count, t[tail - 2] == 0, t[tail - 1] == 0x3B,
                t[3..<(3 + label.count)].elementsEqual(label)
            else { return nil }
            text = t[(3 + label.count)..<(3 + payload.count)]
        case .png:
            let chunk = Array(t[4..<(tail - 16)])
            guard Array(t[0..<4]) == PNGChunks.bigEndian(UInt32(13 + length)),
                chunk.starts(with: Array("tEXtflipbook-key\0".utf8)),
                Array(t[(tail - 16)..<(tail - 12)]) == PNGChunks.bigEndian(PNGChunks.crc32(chunk)),
                Array(t[(tail - 8)..<(tail - 4)]) == Array("IEND".utf8)
            else { return nil }
            text = t[(8 + 13)..<(tail - 16)]
        case .webp:
            guard Array(t[0..<8]) == Array("FBKY".utf8) + littleEndian(UInt32(payload.count)),
                t[8..<(8 + label.count)].elementsEqual(label)
            else { return nil }
            text = t[(8 + label.count)..<(8 + payload.count)]
        case .mp4:
            guard Array(t[0..<8]) == PNGChunks.bigEndian(UInt32(tail)) + Array("uuid".utf8),
                Array(t[8..<24]) == mp4UUID,
                t[24..<(24 + label.count)].elementsEqual(label)
            else { return nil }
            text = t[(24 + label.count)...]
        }
        guard text.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }) else { return nil }
        return String(decoding: text, as: UTF8.self)
    }

    /// Whether an MP4's top-level boxes, each with its own size, end exactly at the file's end.
    static func boxesSpanFile(_ bytes: [UInt8]) -> Bool {
        var at = 0
        while at + 8 <= bytes.count {
            var size = bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
            if size == 1 {
                guard at + 16 <= bytes.count else { return false }
                size = bytes[(at + 8)..<(at + 16)].reduce(0) { $0 << 8 | Int($1) }
            }
            guard size >= 8 else { return false }
            at += size
        }
        return at == bytes.count
    }

    static func littleEndian(_ v: UInt32) -> [UInt8] { PNGChunks.bigEndian(v).reversed() }
}
