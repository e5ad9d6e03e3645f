import Codecs

/// Whether a GIF, PNG, WebP or MP4 file is whole: its container's blocks, chunks or boxes
/// span the file, end where the format ends it, and hold at least one picture. Nothing is
/// decoded; a stamp (`OutputStamp`) is believed only of a file that passes, so a truncated or
/// header-only file carrying a fresh key is stale, not skipped.
public enum ContainerCheck {
    /// Whether the file at `path` is whole; a missing or unreadable file is not.
    public static func isWhole(_ path: String) -> Bool {
        guard let bytes = try? readFile(path, maximumBytes: 4 << 30), let kind = OutputStamp.kind(of: bytes) else {
            return false
        }
        switch kind {
        case .gif: return gifIsWhole(bytes)
        case .png: return pngIsWhole(bytes)
        case .webp: return webpIsWhole(bytes)
        case .mp4: return mp4IsWhole(bytes)
        }
    }

    /// Header, colour table, then extensions and images, each a run of sub-blocks, to the
    /// trailer as the last byte, with at least one image.
    static func gifIsWhole(_ b: [UInt8]) -> Bool {
        guard b.count >= 14 else { return false }
        var at = 13
        if b[10] & 0x80 != 0 { at += 3 << (Int(b[10] & 7) + 1) }
        var images = 0
        func skipSubBlocks() -> Bool {
            while at < b.count {
                let n = Int(b[at])
                at += 1 + n
                if n == 0 { return at <= b.count }
            }
            return false
        }
        while at < b.count {
            switch b[at] {
            case 0x3B: return at == b.count - 1 && images > 0
            case 0x21:
                at += 2
                guard skipSubBlocks() else { return false }
            case 0x2C:
                guard at + 10 <= b.count else { return false }
                let flags = b[at + 9]
                at += 10
                if flags & 0x80 != 0 { at += 3 << (Int(flags & 7) + 1) }
                at += 1  // LZW minimum code size
                guard at <= b.count, skipSubBlocks() else { return false }
                images += 1
            default: return false
            }
        }
        return false
    }

    /// Chunks spanning the file from IHDR to IEND, with image data.
    static func pngIsWhole(_ b: [UInt8]) -> Bool {
        var at = 8
        var types: [String] = []
        while at + 12 <= b.count {
            let length = b[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: b[(at + 4)..<(at + 8)], as: UTF8.self)
            types.append(type)
            at += 12 + length
        }
        return at == b.count && types.first == "IHDR" && types.last == "IEND" && types.contains("IDAT")
    }

    /// A RIFF of the file's size whose chunks span it and hold an image or an animation frame.
    static func webpIsWhole(_ b: [UInt8]) -> Bool {
        guard b.count >= 20, b[4..<8].reversed().reduce(0, { $0 << 8 | Int($1) }) == b.count - 8 else { return false }
        var at = 12
        var pictures = 0
        while at + 8 <= b.count {
            let type = String(decoding: b[at..<(at + 4)], as: UTF8.self)
            let size = b[(at + 4)..<(at + 8)].reversed().reduce(0) { $0 << 8 | Int($1) }
            if ["VP8 ", "VP8L", "ANMF"].contains(type) && size > 0 { pictures += 1 }
            at += 8 + size + (size & 1)
        }
        return at == b.count && pictures > 0
    }

    /// Top-level boxes spanning the file, among them the movie's header and its data.
    static func mp4IsWhole(_ b: [UInt8]) -> Bool {
        guard OutputStamp.boxesSpanFile(b) else { return false }
        var at = 0
        var types: Set<String> = []
        while at + 8 <= b.count {
            var size = b[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
            if size == 1 { size = b[(at + 8)..<(at + 16)].reduce(0) { $0 << 8 | Int($1) } }
            types.insert(String(decoding: b[(at + 4)..<(at + 8)], as: UTF8.self))
            at += size
        }
        return types.contains("moov") && types.contains("mdat")
    }
}
