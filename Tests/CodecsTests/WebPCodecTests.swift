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

    /// Frames that change in small rectangles at odd places, some repeated, some with
    /// transparency: seeded, each decoded frame must be the one given, at its millisecond.
    @Test(
        "Lossless sub-frames: random changes at odd places, repeats and transparency decode exactly", arguments: 1...6)
    func randomSubframes(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let width = 41 + Int(seed) * 3, height = 29 + Int(seed) * 5
        var frame = Bitmap(width: width, height: height, fill: PremultipliedColor(r: 250, g: 250, b: 250, a: 255))
        var source: [Bitmap] = []
        for _ in 0..<14 {
            switch Int.random(in: 0..<5, using: &random) {
            case 0: break  // a repeat: merged into the frame before
            default:
                let w = Int.random(in: 1...width / 2, using: &random),
                    h = Int.random(in: 1...height / 2, using: &random)
                let x0 = Int.random(in: 0...(width - w), using: &random)
                let y0 = Int.random(in: 0...(height - h), using: &random)
                let a = Bool.random(using: &random) ? 255 : UInt8.random(in: 0...254, using: &random)
                let c = PremultipliedColor(
                    r: UInt8.random(in: 0...a, using: &random), g: UInt8.random(in: 0...a, using: &random),
                    b: UInt8.random(in: 0...a, using: &random), a: a)
                for y in y0..<(y0 + h) { for x in x0..<(x0 + w) { frame[x, y] = c } }
            }
            source.append(frame)
        }
        let path = temporaryFolder("random\(seed)") + "/r.webp"
        let encoder = try WebPEncoder(path: path, width: width, height: height)
        for (i, f) in source.enumerated() { try encoder.add(f, at: Double(i) * 0.05) }
        _ = try encoder.finish(at: Double(source.count) * 0.05)
        let reader = try WebPReader(path: path)
        var shown: [WebPFrame] = []
        while let f = try reader.next() { shown.append(f) }
        for (i, s) in source.enumerated() {
            let at = i * 50
            let f = try #require(shown.last { $0.startMilliseconds <= at })
            // A transparent pixel reads back as its colour over nothing: compare what shows.
            #expect(straight(f.bitmap) == straight(s), "seed \(seed), frame \(i)")
        }
        #expect(shown.last?.endMilliseconds == source.count * 50)
    }

    /// Straight RGBA with every fully transparent pixel as zeros.
    func straight(_ b: Bitmap) -> [UInt8] {
        var out: [UInt8] = []
        for y in 0..<b.height {
            for x in 0..<b.width {
                let p = b[x, y]
                out += p.a == 0 ? [0, 0, 0, 0] : [p.r, p.g, p.b, p.a]
            }
        }
        return out
    }

    /// Sixty lossy frames of a photograph with a square moving over it, then the flat screen a
    /// UI rests on: every frame stays close to its source (the canvas does not drift as
    /// sub-frames pile up), and the flat one at the end is exact.
    @Test("Lossy sub-frames do not drift, and the flat picture at rest is exact")
    func lossyDoesNotDrift() throws {
        func moving(_ k: Int) -> Bitmap {
            var b = photo(0)
            for y in 40..<60 {
                for x in (k * 2)..<(k * 2 + 20) where x < 160 {
                    b[x, y] = PremultipliedColor(r: 20, g: 20, b: 20, a: 255)
                }
            }
            return b
        }
        var rest = Bitmap(width: 160, height: 120, fill: PremultipliedColor(r: 255, g: 255, b: 255, a: 255))
        for y in 10..<20 { for x in 10..<150 { rest[x, y] = PremultipliedColor(r: 0, g: 120, b: 255, a: 255) } }
        let source = (0..<60).map(moving) + [rest]
        var options = WebPOptions()
        options.quality = 80
        let path = temporaryFolder() + "/drift.webp"
        let encoder = try WebPEncoder(path: path, width: 160, height: 120, options: options)
        for (i, f) in source.enumerated() { try encoder.add(f, at: Double(i) / 30) }
        _ = try encoder.finish(at: Double(source.count) / 30)
        let reader = try WebPReader(path: path)
        var k = 0
        var worst = Double.infinity
        while let f = try reader.next() {
            if k < 60 { worst = min(worst, psnr(source[k], f.bitmap)) } else { #expect(f.bitmap == rest) }
            k += 1
        }
        #expect(k == 61)
        #expect(worst > 30, "the worst frame is \(worst) dB")
    }

    /// A 3 kB file the fuzzer found: a 64 x 524402 canvas (34 Mpx, under the pixel budget)
    /// whose every small frame decodes onto the whole canvas. It is refused before decoding.
    @Test func aCanvasTallerThanAnyFrameIsRefused() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FuzzRegressionTests/Inputs/webp/timeout-553876c10b90b83e72af68488a1e59a93a2d8bba")
            .path
        #expect {
            _ = try WebPReader(path: path)
        } throws: { "\($0)".contains("on a 64x524402 canvas: past the 16383 px a side") }
    }

    @Test("A file that is not a WebP, or is cut short, is an error naming it")
    func bad() throws {
        let path = temporaryFolder() + "/x.webp"
        try Data("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8).write(to: URL(fileURLWithPath: path))
        #expect { _ = try WebPReader(path: path) } throws: { "\($0)".contains("x.webp") && "\($0)".contains("libwebp") }
    }
}
