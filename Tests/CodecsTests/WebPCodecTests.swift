import Foundation
import Geometry
import Raster
import Testing
import TestSupport
@testable import Codecs

@Suite("WebP: animated, lossless by default, exact milliseconds")
struct WebPCodecTests {
    func frames(_ n: Int) -> [Bitmap] {
        (0..<n).map { sceneFrame(width: 64, height: 48, t: Double($0) / Double(max(1, n - 1))) }
    }

    @Test("Lossless: every decoded frame is the frame given, at its millisecond, and the loop count reads back")
    func lossless() throws {
        let path = temporaryFolder() + "/a.webp"
        let source = frames(9)
        var options = WebPOptions()
        options.plays = 3
        let encoder = try WebPEncoder(path: path, width: 64, height: 48, options: options)
        for (i, f) in source.enumerated() { try encoder.add(f, at: Double(i) / 30) }
        let summary = try encoder.finish(at: 9.0 / 30)
        #expect(summary.frames == 9 && summary.milliseconds == 300)
        let reader = try WebPReader(path: path)
        #expect(reader.width == 64 && reader.height == 48 && reader.plays == 3)
        var decoded: [WebPFrame] = []
        while let f = try reader.next() { decoded.append(f) }
        #expect(decoded.map(\.startMilliseconds) == [0, 33, 67, 100, 133, 167, 200, 233, 267])
        #expect(decoded.last?.endMilliseconds == 300)
        for (d, s) in zip(decoded, source) { #expect(d.bitmap == s) }
    }

    /// A photograph-like frame: smooth colour with fine texture, where lossy coding pays.
    func photo(_ k: Int) -> Bitmap {
        var b = Bitmap(width: 160, height: 120)
        for y in 0..<120 {
            for x in 0..<160 {
                let t = Double(x + k * 3) / 160, u = Double(y) / 120
                let grain = (sin(Double(x * 7 + y * 13)) + 1) * 6
                b[x, y] = PremultipliedColor(
                    r: UInt8(40 + 150 * t + grain), g: UInt8(60 + 120 * u + grain), b: UInt8(200 - 90 * t * u), a: 255)
            }
        }
        return b
    }

    @Test("Lossy at a quality: smaller than lossless on photographs, and close to them")
    func lossy() throws {
        let folder = temporaryFolder()
        var sizes: [Int] = []
        for quality in [nil, 80] as [Int?] {
            var options = WebPOptions()
            options.quality = quality
            let encoder = try WebPEncoder(
                path: folder + "/\(quality ?? 0).webp", width: 160, height: 120, options: options)
            for k in 0..<4 { try encoder.add(photo(k), at: Double(k) / 10) }
            sizes.append(try encoder.finish(at: 0.4).bytes)
        }
        #expect(sizes[1] < sizes[0] / 2, "\(sizes)")
        let reader = try WebPReader(path: folder + "/80.webp")
        let first = try #require(try reader.next())
        #expect(psnr(photo(0), first.bitmap) > 30)
    }

    @Test("A file that is not a WebP, or is cut short, is an error naming it")
    func bad() throws {
        let path = temporaryFolder() + "/x.webp"
        try Data("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8).write(to: URL(fileURLWithPath: path))
        #expect { _ = try WebPReader(path: path) } throws: { "\($0)".contains("x.webp") && "\($0)".contains("libwebp") }
    }
}
