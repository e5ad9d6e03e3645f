import Build
import Flipbook
import Codecs
import Foundation
import Raster
import TestSupport
import Testing
import Video

/// A stamp goes at the end of each format, comes back, replaces an older one, and leaves what
/// a decoder reads unchanged.
@Suite("Output stamps")
struct OutputStampTests {
    static let key = String(String(repeating: "0123456789abcdef", count: 8).prefix(OutputStamp.length))
    static let other = String(String(repeating: "fedcba9876543210", count: 8).prefix(OutputStamp.length))

    /// Three frames of a moving square.
    static func frames() -> [Bitmap] {
        (0..<3).map { k in
            var pixels: [UInt8] = []
            for y in 0..<24 {
                for x in 0..<32 {
                    let inside = (k * 6..<(k * 6 + 10)).contains(x) && (6..<16).contains(y)
                    pixels += inside ? [200, 40, 40, 255] : [240, 240, 240, 255]
                }
            }
            return Bitmap(width: 32, height: 24, premultipliedPixels: pixels)
        }
    }

    static func write(_ ext: String, in folder: String) throws -> String {
        let path = "\(folder)/out.\(ext)"
        let frames = Self.frames()
        switch ext {
        case "gif":
            let e = try GIFEncoder(path: path, width: 32, height: 24)
            for (k, f) in frames.enumerated() { try e.add(f, at: Double(k) / 10) }
            _ = try e.finish(at: 0.3)
        case "webp":
            let e = try WebPEncoder(path: path, width: 32, height: 24)
            for (k, f) in frames.enumerated() { try e.add(f, at: Double(k) / 10) }
            _ = try e.finish(at: 0.3)
        case "mp4":
            let e = try MP4Encoder(path: path, width: 32, height: 24, fps: 10)
            for (k, f) in frames.enumerated() { try e.add(f, at: Double(k) / 10) }
            _ = try e.finish(at: 0.3)
        default:
            try PNGCodec.write(frames[1], to: path)
        }
        return path
    }

    /// What a decoder reads from the file: every frame's pixels.
    static func decoded(_ path: String) throws -> [[UInt8]] {
        switch (path as NSString).pathExtension {
        case "gif": return try GIFDecoder.read(path: path).frames.map { $0.bitmap.pixels }
        case "webp":
            let r = try WebPReader(path: path)
            var out: [[UInt8]] = []
            while let f = try r.next() { out.append(f.bitmap.pixels) }
            return out
        case "mp4":
            let r = try MP4Reader(path: path)
            var out: [[UInt8]] = []
            while let f = try r.next() { out.append(f.bitmap.pixels) }
            return out
        default: return [try PNGCodec.read(path: path).pixels]
        }
    }

    @Test(arguments: ["gif", "png", "webp", "mp4"])
    func roundTrip(ext: String) throws {
        let folder = temporaryFolder("stamp-\(ext)")
        let path = try Self.write(ext, in: folder)
        #expect(OutputStamp.read(path) == nil)
        let before = try Self.decoded(path)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int

        try OutputStamp.write(Self.key, to: path)
        #expect(OutputStamp.read(path) == Self.key)
        #expect(try Self.decoded(path) == before)
        let stamped = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        #expect(stamped > size)
        // The stamp and its format's framing, no more: a label, a length or a box header, a CRC.
        #expect(stamped - size <= OutputStamp.length + 40, "\(stamped - size)")

        // A new stamp replaces the old one: same size, new key.
        try OutputStamp.write(Self.other, to: path)
        #expect(OutputStamp.read(path) == Self.other)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int == stamped)
        #expect(try Self.decoded(path) == before)
    }

    @Test func refusesWhatItCannotStamp() throws {
        let folder = temporaryFolder()
        let text = "\(folder)/notes.txt"
        try Data("hello, this is not an image at all".utf8).write(to: URL(fileURLWithPath: text))
        #expect(OutputStamp.read(text) == nil)
        #expect(throws: EncodeError.self) { try OutputStamp.write(Self.key, to: text) }
        #expect(throws: EncodeError.self) { try OutputStamp.write("not hex", to: text) }
        #expect(OutputStamp.read("\(folder)/missing.gif") == nil)
        // A PNG cut short has no IEND to put the stamp before.
        let png = try Self.write("png", in: folder)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: png))
        try bytes.prefix(bytes.count - 12).write(to: URL(fileURLWithPath: png))
        #expect(throws: EncodeError.self) { try OutputStamp.write(Self.key, to: png) }
    }
}
